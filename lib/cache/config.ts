import { getHeapStatistics } from "node:v8";
import { parseBytes } from "./bytes";
import type { CacheStore } from "./types";

export { parseBytes } from "./bytes";

type Env = Record<string, string | undefined>;

export interface TranslationCacheConfig {
  /** TRANSLATION_CACHE: on (default) | off. */
  enabled: boolean;
  /** TRANSLATION_CACHE_SCOPE: key (default; no key can see, or time, what another key translated) | global. */
  scope: "key" | "global";
  /** TRANSLATION_CACHE_TTL_SECONDS, default 7 days. */
  ttlMs: number;
  /** TRANSLATION_CACHE_MAX_BYTES: bound of the in-process store (ignored by Redis and Upstash). */
  maxBytes: number;
  /** TRANSLATION_CACHE_TIMEOUT_MS: bound on each store call (default 200 ms). */
  timeoutMs: number;
  /** Same selection as the rate limiter: Upstash when its URL and token are set, else REDIS_URL, else memory. */
  backend: CacheStore["name"];
}

export const DEFAULT_TTL_SECONDS = 7 * 24 * 3600;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 200;

/**
 * 64 MiB, or an eighth of the heap limit when the heap is capped lower (node --max-old-space-size), so a full cache
 * always leaves the heap most of its room.
 */
export function defaultMaxBytes(heapLimit = getHeapStatistics().heap_size_limit): number {
  return Math.min(DEFAULT_MAX_BYTES, Math.floor(heapLimit / 8));
}

/** Reads the cache settings; a malformed value is reported and replaced by its default rather than crashing. */
export function translationCacheConfig(env: Env = process.env): TranslationCacheConfig {
  const warn = (name: string, expected: string, fallback: string) =>
    console.warn(`[cache] ${name}=${JSON.stringify(env[name])} is not ${expected}; using ${fallback}`);
  const choice = <T extends string>(name: string, options: readonly T[], fallback: T): T => {
    const value = env[name]?.trim().toLowerCase();
    if (!value) return fallback;
    if ((options as readonly string[]).includes(value)) return value as T;
    warn(name, options.join("|"), fallback);
    return fallback;
  };
  const integer = (name: string, min: number, max: number, fallback: number): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const n = Number(raw);
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    warn(name, `an integer ${min}-${max}`, String(fallback));
    return fallback;
  };

  let maxBytes = defaultMaxBytes();
  const rawBytes = env.TRANSLATION_CACHE_MAX_BYTES?.trim();
  if (rawBytes) {
    const parsed = parseBytes(rawBytes);
    if (parsed) maxBytes = parsed;
    else warn("TRANSLATION_CACHE_MAX_BYTES", 'a size in bytes ("67108864", "64MB")', String(maxBytes));
  }

  const upstash = Boolean(env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN);
  return {
    enabled: choice("TRANSLATION_CACHE", ["on", "off"], "on") === "on",
    scope: choice("TRANSLATION_CACHE_SCOPE", ["key", "global"], "key"),
    ttlMs: integer("TRANSLATION_CACHE_TTL_SECONDS", 1, 365 * 24 * 3600, DEFAULT_TTL_SECONDS) * 1000,
    maxBytes,
    timeoutMs: integer("TRANSLATION_CACHE_TIMEOUT_MS", 1, 60_000, DEFAULT_TIMEOUT_MS),
    backend: upstash ? "upstash" : env.REDIS_URL ? "redis" : "memory",
  };
}
