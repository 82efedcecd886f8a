import { ApiError } from "@/lib/kit/errors";
import { ProviderError, type ProviderId } from "@/lib/providers/types";

/**
 * The fallback runner behind translate, batch, speech-to-text and text-to-speech. A service plans an ordered list of
 * routes (a provider, and for a provider with several models one route per model), runs them here, and answers with
 * `routingFields` or `chainFailure`.
 *
 *  - Turns. Consecutive routes of one provider form that provider's turn. On a failure, a route with a `label` (one of
 *    the provider's several models) hands over to the provider's next route only when the failure concerns that route
 *    (`concernsRouteOnly`: refused, unreadable, a 5xx or "loading" of that model); a failure of the provider itself
 *    (network, timeout, rate limit, credentials, open circuit) ends the provider's turn at once.
 *  - Fallback. Any ProviderError ends a turn and moves on to the next provider — also a refusal: the request passed our
 *    own checks, so a provider refusing it means its table disagrees with ours, and the next provider may well serve
 *    it. Anything that is not a ProviderError is a bug and is rethrown (a 500 with the cause logged), never hidden.
 *  - Deadline. One deadline for the whole chain. A turn that is not the last gets at most FALLBACK_SHARE of the time
 *    that remains when it starts, so a hanging provider always leaves time for the next; below MIN_CALL_MS a provider
 *    (or a provider's next route) is not called at all.
 *  - A route's `attempt` is one unit of work under one deadline: it may make several upstream calls (text cut into
 *    chunks, or masked, translated and checked) and succeeds or fails as a whole.
 *  - All failed → 503 PROVIDER_ERROR naming each provider tried and why, in our words (ProviderError messages are
 *    written by the clients, never copied from an upstream body); Retry-After when every failure carried a wait hint.
 */

export const FALLBACK_SHARE = 0.6;
/** Below this much remaining time a provider (or its next route) is not called at all. */
export const MIN_CALL_MS = 50;

export interface Route<T> {
  provider: ProviderId;
  /** Names the route in failure messages when its provider has several (a model id); see "Turns" above. */
  label?: string;
  attempt(deadline: number): Promise<T>;
}

export interface ChainFailure {
  provider: ProviderId;
  detail: string;
  retryAfterMs?: number;
}

/** What a route's attempt resolves to. */
export type RouteValue<R extends Route<unknown>> = Awaited<ReturnType<R["attempt"]>>;

export interface ChainSuccess<R extends Route<unknown>> {
  ok: true;
  value: RouteValue<R>;
  /** The route that served. */
  route: R;
  /** Each provider whose turn started, in order. */
  tried: ProviderId[];
  /** The providers that failed before the one that served. */
  failures: ChainFailure[];
}

export interface ChainFailed {
  ok: false;
  tried: ProviderId[];
  failures: ChainFailure[];
}

export async function runChain<R extends Route<unknown>>(routes: readonly R[], deadline: number): Promise<ChainSuccess<R> | ChainFailed> {
  const failures: ChainFailure[] = [];
  const tried: ProviderId[] = [];
  const turns = byProvider(routes);
  for (const [i, turn] of turns.entries()) {
    const provider = turn[0].provider;
    const remaining = deadline - Date.now();
    if (remaining < MIN_CALL_MS) {
      failures.push({ provider, detail: "not tried: request deadline reached" });
      continue;
    }
    const turnDeadline = i === turns.length - 1 ? deadline : Date.now() + Math.floor(remaining * FALLBACK_SHARE);
    tried.push(provider);
    const details: string[] = [];
    let retryAfterMs: number | undefined;
    for (const [j, route] of turn.entries()) {
      if (j > 0 && turnDeadline - Date.now() < MIN_CALL_MS) {
        details.push(`${route.label}: not tried, deadline reached`);
        break;
      }
      try {
        const value = (await route.attempt(turnDeadline)) as RouteValue<R>;
        return { ok: true, value, route, tried, failures };
      } catch (err) {
        if (!(err instanceof ProviderError)) throw err;
        retryAfterMs = err.retryAfterMs;
        const described = `${err.kind}: ${err.message}`;
        if (route.label === undefined || !concernsRouteOnly(err)) {
          details.push(described);
          break;
        }
        details.push(`${route.label}: ${described}`);
      }
    }
    failures.push({ provider, detail: details.join("; "), retryAfterMs });
  }
  return { ok: false, tried, failures };
}

/** A failure of one route (try the provider's next route), as opposed to a failure of the provider. */
export function concernsRouteOnly(e: ProviderError): boolean {
  if (e.kind === "rejected" || e.kind === "malformed") return true;
  return e.kind === "unavailable" && e.status !== undefined && e.status >= 500;
}

/** Consecutive routes of one provider, together; a route without a label stands alone in its provider's turn. */
function byProvider<R extends Route<unknown>>(routes: readonly R[]): R[][] {
  const turns: R[][] = [];
  for (const route of routes) {
    const last = turns.at(-1);
    if (last && last[0].provider === route.provider && route.label !== undefined && last[0].label !== undefined) last.push(route);
    else turns.push([route]);
  }
  return turns;
}

/** The routing fields every response carries, from a chain that served. */
export function routingFields(requested: "auto" | ProviderId, outcome: ChainSuccess<Route<unknown>>) {
  return {
    provider: outcome.route.provider,
    requested_provider: requested,
    fallback_used: outcome.failures.length > 0,
    providers_tried: outcome.tried,
  };
}

export interface FailureContext {
  /** What failed, after "failed": "for English (en) → Twi (tw)", "to transcribe Luganda (lug)". */
  what: string;
  /** The provider the chain was limited to, when it was; omitted for auto routing. */
  forced?: ProviderId;
  /** Why it was limited to one provider (default "requested explicitly"). */
  forcedBy?: string;
}

/** 503 PROVIDER_ERROR for a chain that produced nothing. */
export function chainFailure(outcome: ChainFailed, { what, forced, forcedBy = "requested explicitly" }: FailureContext): ApiError {
  const { failures } = outcome;
  const summary = failures.map((f) => `${f.provider} (${f.detail})`).join("; ");
  const message =
    forced === undefined
      ? `All providers failed ${what}: ${summary}. Retry shortly.`
      : `${forced} failed ${what}: ${failures[0]?.detail ?? "no answer"}. It was ${forcedBy}, so no other provider was tried; retry${forcedBy === "requested explicitly" ? ', or use provider "auto"' : ""}.`;
  const hints = failures.map((f) => f.retryAfterMs).filter((ms): ms is number => ms !== undefined && ms > 0);
  const headers: Record<string, string> =
    hints.length === failures.length && hints.length > 0 ? { "Retry-After": String(Math.max(1, Math.ceil(Math.min(...hints) / 1000))) } : {};
  return new ApiError("PROVIDER_ERROR", message, { headers });
}
