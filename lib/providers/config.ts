/**
 * Provider configuration from the environment. Every variable is optional.
 *
 *   PROVIDER_MODE               auto (default) | live | sandbox.
 *                               auto: a provider is live when it is configured (below), otherwise it runs on its
 *                               in-process sandbox emulator. live: every provider is live; one that is not configured
 *                               fails fast with kind "auth" and never calls the public API without credentials.
 *                               sandbox: every provider runs on its in-process emulator.
 *                               "Configured" = its credential is set, or its base URL is not the public default (so
 *                               tests and benchmarks can point live clients at loopback emulators without credentials).
 *   SUNBIRD_API_URL             provider_a base URL (default https://api.sunbird.ai)
 *   SUNBIRD_API_TOKEN           provider_a Bearer JWT
 *   KHAYA_API_URL               provider_b base URL (default https://translation-api.ghananlp.org)
 *   KHAYA_API_KEY               provider_b APIM subscription key (Ocp-Apim-Subscription-Key)
 *   HF_API_URL                  provider_c base URL (default https://router.huggingface.co)
 *   HF_TOKEN                    provider_c Bearer token (hf_...)
 *   PROVIDER_TIMEOUT_MS         per-attempt timeout of a translation call (default 15000); every call also ends at the
 *                               request's deadline, retries included
 *   PROVIDER_SPEECH_TIMEOUT_MS  per-attempt timeout of a speech-to-text / text-to-speech call (default 60000)
 *   PROVIDER_MAX_RETRIES        retries after the first attempt, for retryable failures only (default 2)
 *   CIRCUIT_FAILURE_THRESHOLD   consecutive failed calls that open a provider's circuit (default 5)
 *   CIRCUIT_COOLDOWN_MS         how long an open circuit fails fast before letting one probe through (default 30000)
 */
import { type CircuitOptions, DEFAULT_CIRCUIT_OPTIONS } from "./circuit";
import { DEFAULT_SPEECH_ATTEMPT_TIMEOUT_MS } from "./client";
import type { ProviderDescriptor } from "./descriptor";
import { PROVIDERS } from "./descriptors";
import { DEFAULT_HTTP_POLICY, type HttpPolicy } from "./http";
import type { ProviderId, ProviderMode } from "./types";

type Env = Record<string, string | undefined>;

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
}

export class ProviderConfigError extends Error {
  override readonly name = "ProviderConfigError";
}

/** `descriptors`: whose settings to read (they name the variables and defaults). */
export function loadProvidersConfig(env: Env = process.env, descriptors: readonly ProviderDescriptor[] = PROVIDERS): ProvidersConfig {
  const modeSetting = (env.PROVIDER_MODE ?? "auto").trim().toLowerCase() || "auto";
  if (modeSetting !== "auto" && modeSetting !== "live" && modeSetting !== "sandbox")
    throw new ProviderConfigError(`PROVIDER_MODE must be auto, live or sandbox (got "${env.PROVIDER_MODE}")`);

  const providers = Object.fromEntries(
    descriptors.map(({ id, env: names }) => {
      const baseUrl = parseBaseUrl(names.url, env[names.url]) ?? names.defaultUrl;
      const credential = env[names.credential]?.trim() || undefined;
      const configured = credential !== undefined || baseUrl !== names.defaultUrl;
      const mode: ProviderMode = modeSetting === "sandbox" || (modeSetting === "auto" && !configured) ? "sandbox" : "live";
      return [id, { mode, configured: mode === "sandbox" || configured, baseUrl, credential }];
    }),
  ) as Record<ProviderId, ProviderSettings>;

  return {
    providers,
    policy: {
      attemptTimeoutMs: positiveInt(env, "PROVIDER_TIMEOUT_MS", DEFAULT_HTTP_POLICY.attemptTimeoutMs),
      maxRetries: positiveInt(env, "PROVIDER_MAX_RETRIES", DEFAULT_HTTP_POLICY.maxRetries, 0),
    },
    speechAttemptTimeoutMs: positiveInt(env, "PROVIDER_SPEECH_TIMEOUT_MS", DEFAULT_SPEECH_ATTEMPT_TIMEOUT_MS),
    circuit: {
      failureThreshold: positiveInt(env, "CIRCUIT_FAILURE_THRESHOLD", DEFAULT_CIRCUIT_OPTIONS.failureThreshold),
      cooldownMs: positiveInt(env, "CIRCUIT_COOLDOWN_MS", DEFAULT_CIRCUIT_OPTIONS.cooldownMs),
    },
  };
}

function parseBaseUrl(name: string, value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ProviderConfigError(`${name} is not a valid URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ProviderConfigError(`${name} must be an http(s) URL`);
  if (url.username || url.password) throw new ProviderConfigError(`${name} must not contain credentials`);
  return trimmed.replace(/\/+$/, "");
}

function positiveInt(env: Env, name: string, fallback: number, min = 1): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ProviderConfigError(`${name} must be an integer ≥ ${min} (got "${raw}")`);
  return value;
}
