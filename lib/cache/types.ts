/**
 * A cached translation: a JSON-serialisable object (the translation result without its per-request fields).
 * Stores keep it serialised, so every read returns a fresh copy a caller may change freely.
 */
export type CacheValue = object;

/** One backend. `get` and `set` may throw or hang; GuardedCacheStore turns that into "no cache". */
export interface CacheStore {
  readonly name: "memory" | "redis" | "upstash";
  /** The stored value, or undefined when absent or expired. */
  get(key: string): Promise<CacheValue | undefined>;
  /** Stores `value` for `ttlMs` milliseconds, replacing any earlier value. */
  set(key: string, value: CacheValue, ttlMs: number): Promise<void>;
  health(): Promise<{ ok: boolean; detail?: string }>;
}

/** What /health shows about the cache. Never contains keys, values or host names. */
export interface CacheStatus {
  enabled: boolean;
  backend: CacheStore["name"];
  /** The store answered its last health probe (the memory store always does). */
  ok: boolean;
  /** The last get/set failed or timed out: requests are being served uncached until the store answers again. */
  degraded: boolean;
  /** Public-safe kind of the last failure (an error code or "timed out"), when there was one. */
  last_error?: string;
  /** When the last failure happened (ISO 8601). */
  last_error_at?: string;
  detail?: string;
}
