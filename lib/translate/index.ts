import { getProviders } from "@/lib/providers";
import { deadlineFromEnv, type TranslateDeps } from "./service";

export { translateText, prepare, deadlineFromEnv, DEFAULT_TRANSLATE_DEADLINE_MS, FALLBACK_SHARE, type TranslateDeps, type TranslateInput, type TranslateOutcome } from "./service";
export { translateBatch, concurrencyGate, Semaphore, batchConcurrencyFromEnv, batchDeadlineFromEnv } from "./batch";
export { QUALITY, qualityFor, qualityBand } from "./quality";
export { checkProviderLimit, estimateTokens, codePointLength, MAX_TEXT_CHARS, PROVIDER_A_MAX_CHARS, PROVIDER_B_MAX_CHARS, PROVIDER_C_MAX_TOKENS } from "./limits";

/** The production wiring: the shared provider clients (live or sandbox, per the environment) and env-configured deadline. */
export function defaultTranslateDeps(): TranslateDeps {
  return { providers: getProviders(), deadlineMs: deadlineFromEnv() };
}

/** Header that marks a response served (partly) by a sandbox emulator. */
export const SANDBOX_HEADER = "X-Lugha-Sandbox";
