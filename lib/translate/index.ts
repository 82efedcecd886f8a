import { getProviders } from "@/lib/providers";
import { getAvailability } from "@/lib/server/availability";
import { translationCaching } from "./cache";
import { deadlineFromEnv, type TranslateDeps } from "./service";

export { batchConcurrencyFromEnv, batchDeadlineFromEnv, concurrencyGate, Semaphore, translateBatch } from "./batch";
export { batchCached, bypassRequested, cacheStatus, setCacheHeader, translationUsage } from "./cache";
export { checkLimit, checkProviderLimit, checkRouteLimit, codePointLength, estimateTokens, MAX_TEXT_CHARS } from "./limits";
export {
  DEFAULT_TRANSLATE_DEADLINE_MS,
  deadlineFromEnv,
  FALLBACK_SHARE,
  type TranslateDeps,
  type TranslateInput,
  type TranslateOutcome,
  translateText,
} from "./service";

/**
 * The production wiring: the shared provider clients (live or sandbox, per the environment), the env-configured
 * deadline, and the process-wide translation cache with the runs in flight.
 */
export function defaultTranslateDeps(): TranslateDeps {
  return { providers: getProviders(), deadlineMs: deadlineFromEnv(), availability: getAvailability(), caching: translationCaching() };
}

export { SANDBOX_HEADER } from "@/lib/kit/headers";
