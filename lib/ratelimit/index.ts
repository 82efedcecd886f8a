import { type Config, config, loadConfig } from "@/lib/config";
import { deferredBackend } from "./deferred";
import { type FailMode, GuardedRateLimitStore } from "./guard";
import { MemoryRateLimitStore } from "./memory";
import type { RateLimitBucket, RateLimitRule, RateLimitStore } from "./types";

export { type FailMode, RateLimiterUnavailableError } from "./guard";
export { DEFAULT_RULES, parseRule } from "./rules";
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
  const inner = backend === "memory" ? new MemoryRateLimitStore() : sharedStore(backend, c, timeoutMs);
  return new GuardedRateLimitStore(inner, settings);
}

/** Upstash or Redis, its client library loaded in the background (deferred.ts). */
function sharedStore(backend: "redis" | "upstash", c: Config, timeoutMs: number): RateLimitStore {
  const shared = deferredBackend(
    "ratelimit",
    backend,
    async (): Promise<RateLimitStore> =>
      backend === "upstash"
        ? new (await import("./upstash")).UpstashRateLimitStore({ url: c.UPSTASH_REDIS_REST_URL!, token: c.UPSTASH_REDIS_REST_TOKEN!, timeoutMs })
        : new (await import("./redis")).RedisRateLimitStore({ url: c.REDIS_URL!, timeoutMs }),
  );
  return {
    name: backend,
    check: async (bucket, identifier, rule) => (await shared.get()).check(bucket, identifier, rule),
    health: () => shared.get().then((store) => store.health(), shared.misconfigured),
  };
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
