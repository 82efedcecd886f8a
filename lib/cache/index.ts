import { inSpan, tracingOn } from "@/lib/kit/telemetry";
import { sharedBackend } from "@/lib/store";
import type { TranslationCacheConfig } from "./config";
import { GuardedCacheStore } from "./guard";
import { type CacheKeyInput, cacheKey, cacheScope } from "./key";
import { MemoryCacheStore } from "./memory";
import type { CacheStatus, CacheStore, CacheValue } from "./types";

export { SingleFlight } from "./coalesce";
export type { TranslationCacheConfig } from "./config";
export { GuardedCacheStore } from "./guard";
export { type CacheKeyInput, cacheKey, cacheScope } from "./key";
export type { CacheStatus, CacheStore, CacheValue } from "./types";

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
    const store = this.store;
    if (!store) return Promise.resolve(undefined);
    if (!tracingOn()) return store.get<T>(key);
    return inSpan("cache get", { "lugha.store": store.name }, async (span) => {
      const value = await store.get<T>(key);
      span?.setAttribute("lugha.cache.hit", value !== undefined);
      return value;
    });
  }

  /** Stores a successful result for the configured TTL; never rejects. Errors must never be passed here. */
  set(key: string, value: CacheValue): Promise<void> {
    const store = this.store;
    if (!store) return Promise.resolve();
    if (!tracingOn()) return store.set(key, value, this.config.ttlMs);
    return inSpan("cache set", { "lugha.store": store.name }, () => store.set(key, value, this.config.ttlMs));
  }

  async status(): Promise<CacheStatus & { scope: string; ttl_seconds: number }> {
    const common = { scope: this.config.scope, ttl_seconds: this.config.ttlMs / 1000 };
    if (!this.store) return { enabled: false, backend: this.config.store.backend, ok: true, degraded: false, ...common };
    return { ...(await this.store.status()), ...common };
  }
}

/** Builds the cache on its store. A malformed store URL degrades to "no cache", shown in /health. */
export function createTranslationCache(config: TranslationCacheConfig, now?: () => number): TranslationCache {
  if (!config.enabled) return new TranslationCache(config, undefined);
  const { store } = config;
  const inner = store.backend === "memory" ? new MemoryCacheStore({ maxBytes: config.maxBytes, now }) : sharedStore(config);
  return new TranslationCache(config, new GuardedCacheStore(inner, { timeoutMs: store.timeoutMs }));
}

/** Upstash or Redis, its client library loaded in the background (lib/store). */
function sharedStore(config: TranslationCacheConfig): CacheStore {
  const shared = sharedBackend<CacheStore>("cache", config.store, {
    upstash: async (url, token, timeoutMs) => new (await import("./upstash")).UpstashCacheStore({ url, token, timeoutMs }),
    redis: async (url, timeoutMs) => new (await import("./redis")).RedisCacheStore({ url, timeoutMs }),
  });
  return {
    name: config.store.backend as CacheStore["name"],
    get: async (key) => (await shared.get()).get(key),
    set: async (key, value, ttlMs) => (await shared.get()).set(key, value, ttlMs),
    health: () => shared.get().then((store) => store.health(), shared.misconfigured),
  };
}
