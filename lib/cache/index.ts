import { deferredBackend } from "../ratelimit/deferred";
import { type TranslationCacheConfig, translationCacheConfig } from "./config";
import { GuardedCacheStore } from "./guard";
import { type CacheKeyInput, cacheKey, cacheScope } from "./key";
import { MemoryCacheStore } from "./memory";
import type { CacheStatus, CacheStore, CacheValue } from "./types";

export { SingleFlight } from "./coalesce";
export { type TranslationCacheConfig, translationCacheConfig } from "./config";
export { GuardedCacheStore } from "./guard";
export { type CacheKeyInput, cacheKey, cacheScope } from "./key";
export type { CacheStatus, CacheStore, CacheValue } from "./types";

type Env = Record<string, string | undefined>;

/** The translation cache as the translate service sees it: scoped keys, the configured TTL, never an error. */
export class TranslationCache {
  constructor(
    readonly config: TranslationCacheConfig,
    /** Undefined when TRANSLATION_CACHE=off. */
    private readonly store: GuardedCacheStore | undefined,
  ) {}

  get enabled(): boolean {
    return this.store !== undefined;
  }

  /** The key for a request made with `apiKeyId`, in the configured scope. */
  keyFor(apiKeyId: string, input: Omit<CacheKeyInput, "scope">): string {
    return cacheKey({ ...input, scope: cacheScope(this.config.scope, apiKeyId) });
  }

  /** A hit, or undefined on a miss, when the cache is off, or when the store is unavailable. */
  get<T extends CacheValue>(key: string): Promise<T | undefined> {
    return this.store ? this.store.get<T>(key) : Promise.resolve(undefined);
  }

  /** Stores a successful result for the configured TTL; never rejects. Errors must never be passed here. */
  set(key: string, value: CacheValue): Promise<void> {
    return this.store ? this.store.set(key, value, this.config.ttlMs) : Promise.resolve();
  }

  async status(): Promise<CacheStatus & { scope: string; ttl_seconds: number }> {
    const common = { scope: this.config.scope, ttl_seconds: this.config.ttlMs / 1000 };
    if (!this.store) return { enabled: false, backend: this.config.backend, ok: true, degraded: false, ...common };
    return { ...(await this.store.status()), ...common };
  }
}

/** Builds the cache the environment selects (see config.ts). A malformed store URL degrades to "no cache", shown in /health. */
export function createTranslationCache(env: Env = process.env, now?: () => number): TranslationCache {
  const config = translationCacheConfig(env);
  if (!config.enabled) return new TranslationCache(config, undefined);
  const { backend, timeoutMs } = config;
  const inner = backend === "memory" ? new MemoryCacheStore({ maxBytes: config.maxBytes, now }) : sharedStore(backend, env, timeoutMs);
  return new TranslationCache(config, new GuardedCacheStore(inner, { timeoutMs }));
}

/** Upstash or Redis, its client library loaded in the background (lib/ratelimit/deferred.ts). */
function sharedStore(backend: "redis" | "upstash", env: Env, timeoutMs: number): CacheStore {
  const shared = deferredBackend(
    "cache",
    backend,
    async (): Promise<CacheStore> =>
      backend === "upstash"
        ? new (await import("./upstash")).UpstashCacheStore({ url: env.UPSTASH_REDIS_REST_URL!, token: env.UPSTASH_REDIS_REST_TOKEN!, timeoutMs })
        : new (await import("./redis")).RedisCacheStore({ url: env.REDIS_URL!, timeoutMs }),
  );
  return {
    name: backend,
    get: async (key) => (await shared.get()).get(key),
    set: async (key, value, ttlMs) => (await shared.get()).set(key, value, ttlMs),
    health: () => shared.get().then((store) => store.health(), shared.misconfigured),
  };
}

// On globalThis, not in a module variable: Next.js can evaluate this module once per route bundle, and an in-process
// cache split per route would miss what another route stored.
const CACHE = Symbol.for("lugha.translation.cache");
type WithCache = typeof globalThis & { [CACHE]?: TranslationCache };

/** The process-wide translation cache. */
export function getTranslationCache(): TranslationCache {
  const g = globalThis as WithCache;
  return (g[CACHE] ??= createTranslationCache());
}
