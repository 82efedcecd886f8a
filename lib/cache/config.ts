import type { StoreSettings } from "@/lib/store";

export interface TranslationCacheConfig {
  /** TRANSLATION_CACHE: on (default) | off. */
  enabled: boolean;
  /** TRANSLATION_CACHE_SCOPE: key (default; no key can see, or time, what another key translated) | global. */
  scope: "key" | "global";
  /** TRANSLATION_CACHE_TTL_SECONDS, default 7 days. */
  ttlMs: number;
  /** TRANSLATION_CACHE_MAX_BYTES: bound of the in-process store (ignored by Redis and Upstash). */
  maxBytes: number;
  /** The rate limiter's store (Upstash, Redis or in process), each call bounded by TRANSLATION_CACHE_TIMEOUT_MS. */
  store: StoreSettings;
}
