import { type FailMode, GuardedRateLimitStore } from "./guard";
import { MemoryRateLimitStore } from "./memory";
import { RedisRateLimitStore } from "./redis";
import type { RateLimitBucket, RateLimitRule, RateLimitStore } from "./types";
import { UpstashRateLimitStore } from "./upstash";

export { type FailMode, RateLimiterUnavailableError } from "./guard";
export type { RateLimitBucket, RateLimitDecision, RateLimitRule, RateLimitStore, StoreBucket } from "./types";

/** Defaults: the published per-minute limits (docs/guide.md#limits). Override with RATE_LIMIT_<BUCKET>=N/Ws. */
const DEFAULT_RULES: Record<RateLimitBucket, string> = {
  translate: "60/60s",
  batch: "10/60s",
  stt: "20/60s",
  tts: "20/60s",
  default: "120/60s",
  // A generous burst (a test suite minting one key per test passes) with a low sustained rate (~1.7/min per IP).
  issuance: "100/3600s",
  // Failed authentications per client IP; past it, only keys verified before are looked up (lib/http/auth-throttle.ts).
  auth_failures: "30/60s",
};

const DEFAULT_TIMEOUT_MS = 300;
const DEFAULT_FAIL_MODE: FailMode = "open"; // why: see the comment block at the top of guard.ts

/** Parses "N/Ws" (also "N/Wms", "N/Wm", "N/Wh"). Returns undefined for anything else. */
export function parseRule(text: string): RateLimitRule | undefined {
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) return undefined;
  const limit = Number(m[1]);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[3] ?? "s") as "ms" | "s" | "m" | "h"];
  const windowMs = Math.round(Number(m[2]) * unit);
  if (!Number.isSafeInteger(limit) || limit < 1 || windowMs < 1) return undefined;
  return { limit, windowMs };
}

const ruleCache = new Map<RateLimitBucket, RateLimitRule>();

export function ruleFor(bucket: RateLimitBucket): RateLimitRule {
  let rule = ruleCache.get(bucket);
  if (!rule) {
    const configured = process.env[`RATE_LIMIT_${bucket.toUpperCase()}`];
    rule = (configured && parseRule(configured)) || parseRule(DEFAULT_RULES[bucket])!;
    if (configured && !parseRule(configured)) {
      console.warn(`RATE_LIMIT_${bucket.toUpperCase()}=${JSON.stringify(configured)} is not "N/Ws"; using ${DEFAULT_RULES[bucket]}`);
    }
    ruleCache.set(bucket, rule);
  }
  return rule;
}

type Env = Record<string, string | undefined>;

export interface RateLimiterConfig {
  backend: RateLimitStore["name"];
  timeoutMs: number;
  failMode: FailMode;
}

/** Reads the store settings; a malformed value is reported and replaced by its default rather than crashing. */
export function rateLimiterConfig(env: Env = process.env): RateLimiterConfig {
  const upstash = Boolean(env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN);
  if (!upstash && (env.UPSTASH_REDIS_REST_URL || env.UPSTASH_REDIS_REST_TOKEN)) {
    console.warn("[ratelimit] only one of UPSTASH_REDIS_REST_URL / UPSTASH_REDIS_REST_TOKEN is set; Upstash not used");
  }

  let timeoutMs = DEFAULT_TIMEOUT_MS;
  if (env.RATE_LIMIT_TIMEOUT_MS !== undefined && env.RATE_LIMIT_TIMEOUT_MS !== "") {
    const n = Number(env.RATE_LIMIT_TIMEOUT_MS);
    if (Number.isInteger(n) && n >= 1 && n <= 60_000) timeoutMs = n;
    else console.warn(`[ratelimit] RATE_LIMIT_TIMEOUT_MS=${JSON.stringify(env.RATE_LIMIT_TIMEOUT_MS)} is not 1-60000; using ${DEFAULT_TIMEOUT_MS}`);
  }

  let failMode = DEFAULT_FAIL_MODE;
  const mode = env.RATE_LIMIT_FAIL_MODE?.trim().toLowerCase();
  if (mode === "open" || mode === "closed") failMode = mode;
  else if (mode)
    console.warn(`[ratelimit] RATE_LIMIT_FAIL_MODE=${JSON.stringify(env.RATE_LIMIT_FAIL_MODE)} is not open|closed; using ${DEFAULT_FAIL_MODE}`);

  return { backend: upstash ? "upstash" : env.REDIS_URL ? "redis" : "memory", timeoutMs, failMode };
}

/** Builds the store the environment selects: Upstash when its URL and token are set, else REDIS_URL, else memory. */
export function createRateLimiter(env: Env = process.env): GuardedRateLimitStore {
  const config = rateLimiterConfig(env);
  const { backend, timeoutMs } = config;
  if (backend === "memory" && env.VERCEL) {
    console.warn(
      "[ratelimit] on Vercel without UPSTASH_REDIS_REST_URL/TOKEN: limits are per serverless instance only (the documented " +
        "fail-open behaviour), so the fleet admits up to N x limit per key. Set the Upstash variables.",
    );
  }
  let inner: RateLimitStore;
  try {
    inner =
      backend === "upstash"
        ? new UpstashRateLimitStore({ url: env.UPSTASH_REDIS_REST_URL!, token: env.UPSTASH_REDIS_REST_TOKEN!, timeoutMs })
        : backend === "redis"
          ? new RedisRateLimitStore({ url: env.REDIS_URL!, timeoutMs })
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
  return new GuardedRateLimitStore(inner, config);
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
