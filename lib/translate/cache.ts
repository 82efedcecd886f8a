import { createHash } from "node:crypto";
import type { CacheValue, SingleFlight, TranslationCache } from "@/lib/cache";
import type { CacheKeyInput } from "@/lib/cache/key";
import { ApiError } from "@/lib/kit/errors";
import type { TranslationRoute } from "@/lib/providers/descriptor";
import type { ProviderClient, ProviderId } from "@/lib/providers/types";
import { type BatchTranslateResponse, CACHE_HEADER, type TranslateResponse } from "./schemas";

/*
 * The translation cache and request coalescing around the translate chain (docs/decisions.md "Cache and coalescing").
 *
 *  - Key: the calling key (or "global"), the provider mode, the provider as requested, the resolved source and target,
 *    the serving model map and the trimmed text (lib/cache/key.ts hashes them). "Provider mode" is the mode (live or
 *    sandbox) of every provider that could serve the request, in routing order, e.g. "provider_a:live,provider_c:live":
 *    with PROVIDER_MODE=auto a deployment can run some providers live and others on their emulators, and a sandbox
 *    answer must never be served as a live one. "Serving model map" is a hash of the routes the request could take
 *    (provider, model, tier, model parameters, input limit, in order), so a changed model map, model or routing
 *    order reaches only the pairs it changes. Plus localisation (./localised.ts): the format, the version of the
 *    protection rules, the do-not-translate terms (as a set: order and repeats do not matter) and the glossary id
 *    (a glossary never changes, so its id is its version).
 *  - Stored: only an answer of the request's first-choice route (no fallback to another provider or model), so a
 *    degraded answer given during an outage is never served again for the TTL.
 *  - Coalescing: requests with the same key in flight share one chain run. Callers that joined a run made no upstream
 *    call of their own and are answered as hits. A request that bypasses the cache neither reads it nor joins a run.
 */

/** The process's cache and the calls in flight (lib/server builds them once). */
export interface TranslationCaching {
  cache: TranslationCache;
  flights: SingleFlight<unknown>;
}

/** Who asks, and whether they want a stored answer. Without it (tests, internal callers) nothing is cached. */
export interface CacheCaller {
  apiKeyId: string;
  /** Cache-Control: no-cache, or `"cache": false` in the body. */
  bypass: boolean;
}

/** What the chain produced for one request. */
export interface Fresh<V extends CacheValue> {
  value: V;
  /** Served by the request's first-choice route: worth keeping for later requests. */
  storable: boolean;
}

export type Looked<V extends CacheValue, F extends Fresh<V>> = { outcome: "hit"; value: V } | { outcome: "miss" | "bypass"; fresh: F };

/** The plan of one request, as far as the key needs it. */
export interface KeyedPlan {
  text: string;
  source: string;
  target: string;
  requested: string;
  routes: readonly TranslationRoute[];
}

export function translationCacheKey(
  cache: TranslationCache,
  apiKeyId: string,
  plan: KeyedPlan,
  providers: Record<ProviderId, Pick<ProviderClient, "mode">>,
  /** What else changes the output: format, protection rules, do-not-translate terms, glossary id (./localised.ts). */
  extra?: CacheKeyInput["extra"],
): string {
  const candidates = [...new Set(plan.routes.map((r) => r.provider))];
  return cache.keyFor(apiKeyId, {
    mode: candidates.map((p) => `${p}:${providers[p].mode}`).join(","),
    requestedProvider: plan.requested,
    source: plan.source,
    target: plan.target,
    modelMapVersion: routesVersion(plan.routes),
    text: plan.text,
    extra,
  });
}

/** A short, stable hash of the routes a request could take: changes whenever what could serve it changes. */
export function routesVersion(routes: readonly TranslationRoute[]): string {
  if (routes.length === 1) return routeDigest(routes[0]);
  return createHash("sha256").update(routes.map(routeDigest).join(",")).digest("hex").slice(0, 16);
}

/**
 * Each route's own hash, once per route object: the routes of a pair are built once per model map and availability
 * (lib/languages/pairs.ts) and never modified, so every request for the pair hands in the same objects. A changed
 * route is a new object, with a hash of its own.
 */
const routeDigests = new WeakMap<TranslationRoute, string>();

function routeDigest(route: TranslationRoute): string {
  let digest = routeDigests.get(route);
  if (digest === undefined) {
    digest = createHash("sha256").update(JSON.stringify(route)).digest("hex").slice(0, 16);
    routeDigests.set(route, digest);
  }
  return digest;
}

/**
 * A hit from the cache, a share of an identical request in flight (reported as a hit), or a fresh run of `serve`,
 * stored when storable. Never throws because of the cache: a store outage is a miss (lib/cache/guard.ts). A caller
 * that joined another request's run stops waiting at its own `deadline` (503 PROVIDER_ERROR).
 */
export async function throughCache<V extends CacheValue, F extends Fresh<V>>(
  caching: TranslationCaching | undefined,
  key: string | undefined,
  caller: CacheCaller | undefined,
  deadline: number,
  serve: () => Promise<F>,
  /** Called when the request waits for an identical request's run instead of serving (a packed batch's item). */
  joining?: () => void,
): Promise<Looked<V, F>> {
  if (!caching?.cache.enabled || key === undefined || !caller) return { outcome: "miss", fresh: await serve() };
  const { cache } = caching;
  const serveAndStore = async () => {
    const fresh = await serve();
    // Awaited (at most TRANSLATION_CACHE_TIMEOUT_MS) so that a request sent after this answer finds it.
    if (fresh.storable) await cache.set(key, fresh.value);
    return fresh;
  };
  if (caller.bypass) return { outcome: "bypass", fresh: await serveAndStore() };

  const hit = await cache.get<V>(key);
  if (hit) return { outcome: "hit", value: hit };
  const flights = caching.flights as SingleFlight<F>;
  // Only a joiner needs its own bound: a run ends at the deadline of the request that started it.
  const wait = flights.has(key) ? AbortSignal.timeout(Math.max(0, deadline - Date.now())) : undefined;
  if (wait) joining?.();
  try {
    const { value, shared } = await flights.run(key, serveAndStore, wait);
    return shared ? { outcome: "hit", value: value.value } : { outcome: "miss", fresh: value };
  } catch (err) {
    if (wait === undefined || err !== wait.reason) throw err;
    throw new ApiError(
      "PROVIDER_ERROR",
      "The request deadline was reached while waiting for the answer to an identical request in flight. Retry shortly.",
    );
  }
}

/** The value of X-Lugha-Cache for a request; undefined (no header) when TRANSLATION_CACHE=off. */
export function cacheStatus(caching: TranslationCaching | undefined, bypass: boolean, cached: boolean): "hit" | "miss" | "bypass" | undefined {
  if (!caching?.cache.enabled) return undefined;
  return bypass ? "bypass" : cached ? "hit" : "miss";
}

/** Sets X-Lugha-Cache on a response's headers (nothing when the cache is off). */
export function setCacheHeader(headers: Headers, status: ReturnType<typeof cacheStatus>): void {
  if (status) headers.set(CACHE_HEADER, status);
}

/** A batch is a hit when every item that succeeded was answered from the cache (and at least one did). */
export function batchCached(result: BatchTranslateResponse): boolean {
  const served = result.results.filter((r) => r.error === null);
  return served.length > 0 && served.every((r) => r.cached === true);
}

/** Cache-Control: no-cache (any case, among other directives) or `"cache": false` in the body. */
export function bypassRequested(headers: Headers, flag: boolean | undefined): boolean {
  if (flag === false) return true;
  const directives = (headers.get("cache-control") ?? "").split(",").map((d) => d.trim().toLowerCase());
  return directives.includes("no-cache");
}

/** What the per-day usage row gains: characters sent upstream (hits send none) and cache hits. */
export function translationUsage(result: TranslateResponse | BatchTranslateResponse): { characters: number; cacheHits: number } {
  const served = "results" in result ? result.results.filter((r) => r.error === null) : [result];
  let characters = 0;
  let cacheHits = 0;
  for (const r of served) {
    if (r.cached) cacheHits++;
    else characters += r.characters_translated ?? 0;
  }
  return { characters, cacheHits };
}
