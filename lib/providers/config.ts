/**
 * The providers' settings, from the parsed configuration (lib/config, where every variable and default is written):
 *
 *   PROVIDER_MODE   auto (default): a provider is live when it is configured, otherwise it runs on its in-process
 *                   sandbox emulator. live: every provider is live; one that is not configured fails fast with kind
 *                   "auth" and never calls the public API without credentials. sandbox: every provider runs on its
 *                   in-process emulator.
 *                   "Configured" = its credential is set, or its base URL is not the public default (so tests and
 *                   benchmarks can point live clients at loopback emulators without credentials).
 *   SANDBOX_TRANSLATION  echo (default): a sandbox translation is the text after a marker; hostile: the text as
 *                   machine translation at its worst leaves it (what the tests use; lib/providers/sandbox/translation.ts).
 *   each provider's URL and credential variables (its descriptor names them), PROVIDER_TIMEOUT_MS,
 *   PROVIDER_SPEECH_TIMEOUT_MS, PROVIDER_MAX_RETRIES, CIRCUIT_FAILURE_THRESHOLD, CIRCUIT_COOLDOWN_MS.
 */
import { CONFIG_DEFAULTS, type Config } from "@/lib/config";
import type { CircuitOptions } from "./circuit";
import type { ProviderDescriptor } from "./descriptor";
import type { HttpPolicy } from "./http";
import type { ProviderId, ProviderMode } from "./types";

export interface ProviderSettings {
  mode: ProviderMode;
  /** Whether live calls can be made: a credential, or a non-default base URL. Always true in sandbox mode. */
  configured: boolean;
  baseUrl: string;
  credential?: string;
}

export interface ProvidersConfig {
  providers: Record<ProviderId, ProviderSettings>;
  policy: Partial<HttpPolicy>;
  speechAttemptTimeoutMs: number;
  circuit: CircuitOptions;
  /** SANDBOX_TRANSLATION: what the in-process emulators answer for a translation (echo, or hostile as in the tests). */
  sandboxTranslation: "echo" | "hostile";
}

/** A provider's URL and credential, read under the names its descriptor gives (each is in the configuration schema). */
function read(c: Config, name: string): string | undefined {
  return (c as unknown as Record<string, string | undefined>)[name];
}

export function loadProvidersConfig(c: Config, descriptors: readonly ProviderDescriptor[]): ProvidersConfig {
  const providers = Object.fromEntries(
    descriptors.map(({ id, env: names }) => {
      const baseUrl = read(c, names.url) ?? "";
      const credential = read(c, names.credential);
      const configured = credential !== undefined || baseUrl !== read(CONFIG_DEFAULTS, names.url);
      const mode: ProviderMode = c.PROVIDER_MODE === "sandbox" || (c.PROVIDER_MODE === "auto" && !configured) ? "sandbox" : "live";
      return [id, { mode, configured: mode === "sandbox" || configured, baseUrl, credential }];
    }),
  ) as Record<ProviderId, ProviderSettings>;

  return {
    providers,
    policy: { attemptTimeoutMs: c.PROVIDER_TIMEOUT_MS, maxRetries: c.PROVIDER_MAX_RETRIES },
    speechAttemptTimeoutMs: c.PROVIDER_SPEECH_TIMEOUT_MS,
    circuit: { failureThreshold: c.CIRCUIT_FAILURE_THRESHOLD, cooldownMs: c.CIRCUIT_COOLDOWN_MS },
    sandboxTranslation: c.SANDBOX_TRANSLATION,
  };
}
