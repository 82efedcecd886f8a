import { processLog } from "@/lib/kit/log";
import { type StoreSettings, sharedBackend } from "@/lib/store";
import { type FailMode, GuardedRateLimitStore } from "./guard";
import { MemoryRateLimitStore } from "./memory";
import type { RateLimitStore } from "./types";

export type { RateLimitRule } from "@/lib/config/values";
export { FailedAuthThrottle, throttleFailedAuth, tooManyFailures } from "./auth-throttle";
export { rateLimitExceeded, rateLimitHeaders } from "./decision";
export { type FailMode, GuardedRateLimitStore, RateLimiterUnavailableError } from "./guard";
export type { RateLimitBucket, RateLimitDecision, RateLimitStore, StoreBucket } from "./types";

export interface RateLimiterSettings {
  store: StoreSettings;
  failMode: FailMode;
  /** On Vercel an in-process store limits each serverless instance alone: worth a warning at start-up. */
  onVercel?: boolean;
}

/** Builds the limiter on the configured store (Upstash, Redis or in process), with its timeout and fail mode. */
export function createRateLimiter(settings: RateLimiterSettings): GuardedRateLimitStore {
  const { store } = settings;
  if (store.backend === "memory" && settings.onVercel) {
    processLog().warn(
      { event: "ratelimit_per_instance", component: "ratelimit" },
      "on Vercel without an Upstash store (UPSTASH_REDIS_REST_URL/TOKEN or KV_REST_API_URL/TOKEN): limits are per " +
        "serverless instance only (the documented fail-open behaviour), so the fleet admits up to N x limit per key.",
    );
  }
  const inner = store.backend === "memory" ? new MemoryRateLimitStore() : sharedStore(store);
  return new GuardedRateLimitStore(inner, { timeoutMs: store.timeoutMs, failMode: settings.failMode });
}

/** Upstash or Redis, its client library loaded in the background (lib/store). */
function sharedStore(settings: StoreSettings): RateLimitStore {
  const shared = sharedBackend<RateLimitStore>("ratelimit", settings, {
    upstash: async (url, token, timeoutMs) => new (await import("./upstash")).UpstashRateLimitStore({ url, token, timeoutMs }),
    redis: async (url, timeoutMs) => new (await import("./redis")).RedisRateLimitStore({ url, timeoutMs }),
  });
  return {
    name: settings.backend as RateLimitStore["name"],
    check: async (bucket, identifier, rule) => (await shared.get()).check(bucket, identifier, rule),
    health: () => shared.get().then((store) => store.health(), shared.misconfigured),
  };
}

/** For /health: which store, whether it answers, and what happens when it does not. Never throws. */
export async function rateLimiterStatus(
  store: GuardedRateLimitStore,
): Promise<{ backend: string; ok: boolean; fail_mode: FailMode; detail?: string }> {
  const { ok, detail } = await store.health();
  return { backend: store.name, ok, fail_mode: store.failMode, ...(detail ? { detail } : {}) };
}
