import { ApiError } from "@/lib/http/errors";
import { ProviderError, type ProviderId } from "@/lib/providers/types";

/**
 * The fallback loop shared by STT and TTS, the same policy as translation (lib/translate/service.ts):
 *
 *  - auto: the providers that can serve the request, in order; any ProviderError (network, timeout, 5xx, outage, open
 *    circuit, rate limit, credentials, an unreadable answer, or a refusal — our own checks already passed, so a refusal
 *    means the provider's table disagrees with ours) moves on to the next one.
 *  - a forced provider (or an explicit voice, which names one provider) is the whole chain: it never falls back.
 *  - one deadline for the whole request; a provider that is not last gets at most FALLBACK_SHARE of the time that
 *    remains when it starts, so a hanging provider always leaves time for the next.
 *  - all failed → 503 PROVIDER_ERROR naming each provider tried and why, in our words (ProviderError messages are
 *    written by the clients, never copied from an upstream body). Retry-After when every failure carried a wait hint.
 *
 * Anything that is not a ProviderError is a bug and is rethrown (a 500 with the cause logged), not hidden by a fallback.
 */

export const FALLBACK_SHARE = 0.6;
const MIN_CALL_MS = 50;

export interface ChainFailure {
  provider: ProviderId;
  detail: string;
  retryAfterMs?: number;
}

export interface ChainSuccess<T> {
  value: T;
  provider: ProviderId;
  tried: ProviderId[];
  failures: ChainFailure[];
}

export async function runChain<C extends { provider: ProviderId }, T>(
  chain: readonly C[],
  deadline: number,
  attempt: (candidate: C, callDeadline: number) => Promise<T>,
): Promise<ChainSuccess<T> | { failures: ChainFailure[]; tried: ProviderId[] }> {
  const failures: ChainFailure[] = [];
  const tried: ProviderId[] = [];
  for (let i = 0; i < chain.length; i++) {
    const candidate = chain[i];
    const remaining = deadline - Date.now();
    if (remaining < MIN_CALL_MS) {
      failures.push({ provider: candidate.provider, detail: "not tried: request deadline reached" });
      continue;
    }
    const isLast = i === chain.length - 1;
    const callDeadline = isLast ? deadline : Date.now() + Math.floor(remaining * FALLBACK_SHARE);
    tried.push(candidate.provider);
    try {
      const value = await attempt(candidate, callDeadline);
      return { value, provider: candidate.provider, tried, failures };
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      failures.push({ provider: candidate.provider, detail: `${err.kind}: ${err.message}`, retryAfterMs: err.retryAfterMs });
    }
  }
  return { failures, tried };
}

/** 503 PROVIDER_ERROR for a chain that produced nothing. `what` reads like "transcribe Luganda (lug)". */
export function providerFailure(requested: "auto" | ProviderId, what: string, failures: ChainFailure[], forcedBy = "requested explicitly"): ApiError {
  const summary = failures.map((f) => `${f.provider} (${f.detail})`).join("; ");
  const message =
    requested === "auto"
      ? `All providers failed to ${what}: ${summary}. Retry shortly.`
      : `${requested} failed to ${what}: ${failures[0]?.detail ?? "no answer"}. It was ${forcedBy}, so no other provider was tried; retry${forcedBy === "requested explicitly" ? ', or use provider "auto"' : ""}.`;
  const hints = failures.map((f) => f.retryAfterMs).filter((ms): ms is number => ms !== undefined && ms > 0);
  const headers: Record<string, string> =
    hints.length === failures.length && hints.length > 0 ? { "Retry-After": String(Math.max(1, Math.ceil(Math.min(...hints) / 1000))) } : {};
  return new ApiError("PROVIDER_ERROR", message, { headers });
}

/** Caller input quoted in a message: short, one line, no control characters. */
export function clip(value: string): string {
  const clean = value.replace(/[\p{Cc}\p{Cf}]/gu, "?");
  return clean.length > 32 ? `${clean.slice(0, 32)}…` : clean;
}

export const round3 = (n: number) => Math.round(n * 1000) / 1000;
