import { config, loadConfig } from "@/lib/config";
import { type FailMode, GuardedRateLimitStore } from "./guard";
import { MemoryRateLimitStore } from "./memory";
import { RedisRateLimitStore } from "./redis";
import type { RateLimitBucket, RateLimitRule, RateLimitStore } from "./types";

export { DEFAULT_RULES, parseRule } from "./rules";

import { UpstashRateLimitStore } from "./upstash";

export { type FailMode, RateLimiterUnavailableError } from "./guard";
export type { RateLimitBucket, RateLimitDecision, RateLimitRule, RateLimitStore, StoreBucket } from "./types";

/** The rule of a bucket: RATE_LIMIT_<BUCKET>, else the default (lib/config). */
export function ruleFor(bucket: RateLimitBucket): RateLimitRule {
  return config()[`RATE_LIMIT_${bucket.toUpperCase() as Uppercase<RateLimitBucket>}`];
}

type Env = Record<string, string | undefined>;

export interface RateLimiterConfig {
  backend: RateLimitStore["name"];
  timeoutMs: number;
  failMode: FailMode;
}

/** The store settings, from the process's configuration or (tests) an explicit environment. */
export function rateLimiterConfig(env?: Env): RateLimiterConfig {
  const c = env ? loadConfig(env) : config();
  const backend = c.UPSTASH_REDIS_REST_URL && c.UPSTASH_REDIS_REST_TOKEN ? "upstash" : c.REDIS_URL ? "redis" : "memory";
  return { backend, timeoutMs: c.RATE_LIMIT_TIMEOUT_MS, failMode: c.RATE_LIMIT_FAIL_MODE };
}

/** Builds the store the environment selects: Upstash when its URL and token are set, else REDIS_URL, else memory. */
export function createRateLimiter(env?: Env): GuardedRateLimitStore {
  const c = env ? loadConfig(env) : config();
  const settings = rateLimiterConfig(env);
  const { backend, timeoutMs } = settings;
  if (backend === "memory" && c.VERCEL) {
    console.warn(
      "[ratelimit] on Vercel without UPSTASH_REDIS_REST_URL/TOKEN: limits are per serverless instance only (the documented " +
        "fail-open behaviour), so the fleet admits up to N x limit per key. Set the Upstash variables.",
    );
  }
  let inner: RateLimitStore;
  try {
    inner =
      backend === "upstash"
        ? new UpstashRateLimitStore({ url: c.UPSTASH_REDIS_REST_URL!, token: c.UPSTASH_REDIS_REST_TOKEN!, timeoutMs })
        : backend === "redis"
          ? new RedisRateLimitStore({ url: c.REDIS_URL!, timeoutMs })
          : new MemoryRateLimitStore();
  } catch (err) {
    // A malformed URL: treat it like a store that never answers, so the fail mode (not a 500 on every request)
    // decides, and /health says why.
    console.error(`[ratelimit] cannot configure the ${backend} store`, err);
    const name = err instanceof Error ? err.name : "error";
    inner = {
      name: backend,
      check: () => Promise.reject(err),
      health: async () => ({ ok: false, detail: `${backend} misconfigured (${name})` }),
    };
  }
  return new GuardedRateLimitStore(inner, settings);
}

// On globalThis, not in a module variable: Next.js can evaluate this module once per route bundle (and again on
// dev reloads), and an in-process store split per route would split the budgets with it.
const STORE = Symbol.for("lugha.ratelimit.store");
type WithStore = typeof globalThis & { [STORE]?: GuardedRateLimitStore };

function currentStore(): GuardedRateLimitStore {
  const g = globalThis as WithStore;
  return (g[STORE] ??= createRateLimiter());
}

/** The process-wide limiter. Identify callers by API key id (never by key name) or, for the per-IP buckets, by client IP. */
export function getRateLimiter(): RateLimitStore {
  return currentStore();
}

/** For /health: which store, whether it answers, and what happens when it does not. Never throws. */
export async function rateLimiterStatus(): Promise<{ backend: string; ok: boolean; fail_mode: FailMode; detail?: string }> {
  const store = currentStore();
  const { ok, detail } = await store.health();
  return { backend: store.name, ok, fail_mode: store.failMode, ...(detail ? { detail } : {}) };
}
