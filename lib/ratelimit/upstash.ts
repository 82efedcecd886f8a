import { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "@upstash/redis";
import { pingHealth, withTimeout } from "@/lib/store";
import { createUpstashClient } from "@/lib/store/upstash";
import { allowedDecision, deniedDecision } from "./decision";
import type { RateLimitDecision, RateLimitRule, RateLimitStore, StoreBucket } from "./types";

/**
 * Earliest time at which the weighted count of @upstash/ratelimit's sliding window drops below `below`, assuming
 * nothing else is admitted meanwhile.
 *
 * Its slidingWindow is a sliding-window *counter*: two fixed windows, and at fraction f of the current window the
 * count is current + floor((1 - f) * previous). Its `reset` is the end of the current fixed window, which is not
 * when a refused client may come back: the previous window's weight can free a slot much earlier, and when the
 * current window is full the next slot opens only 1 ms into the next window. So Retry-After and X-RateLimit-Reset
 * are computed here from the two counters.
 */
export function counterWindowFreeAt(windowStart: number, windowMs: number, current: number, previous: number, below: number): number {
  if (current < below) {
    // Still in this window: need floor((1 - f) * previous) < below - current, i.e. f > 1 - (below - current) / previous.
    if (previous <= 0) return windowStart;
    return windowStart + Math.max(0, Math.floor(windowMs * (1 - (below - current) / previous)) + 1);
  }
  // Next window: this window's hits become the weighted previous; need f > 1 - below / current.
  return windowStart + windowMs + Math.floor(windowMs * (1 - below / current)) + 1;
}

export interface UpstashStoreOptions {
  url: string;
  token: string;
  /** Bound on every REST call and on the limiter (RATE_LIMIT_TIMEOUT_MS). */
  timeoutMs: number;
  prefix?: string;
}

/** Upstash Redis over REST (UPSTASH_REDIS_REST_URL/TOKEN), the store for Vercel and other serverless hosts. */
export class UpstashRateLimitStore implements RateLimitStore {
  readonly name = "upstash" as const;
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  /** One Ratelimit per (bucket, rule): the rule is fixed at construction in @upstash/ratelimit. */
  private readonly limiters = new Map<string, Ratelimit>();

  constructor(options: UpstashStoreOptions) {
    this.prefix = options.prefix ?? "lugha:rl";
    this.timeoutMs = options.timeoutMs;
    this.redis = createUpstashClient(options);
  }

  async check(bucket: StoreBucket, identifier: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    // The guard's timeout covers this whole call; the counters read below must end before it does, or a slow read
    // would discard a refusal Upstash already made and the fail-open fallback would admit the request.
    const deadline = Date.now() + this.timeoutMs;
    const res = await this.limiterFor(bucket, rule).limit(identifier);
    // The library admits on its own timeout ("timeout" reason, success: true); the fail mode is the guard's call.
    if (res.reason === "timeout") throw new Error(`upstash: no answer within ${this.timeoutMs} ms`);
    const windowStart = res.reset - rule.windowMs;
    if (res.success) {
      // Hits of the current window are at most `used` (the rest is previous-window weight, gone by the window end),
      // so this bound is exact for a key with no earlier traffic and never too early otherwise.
      const used = rule.limit - res.remaining;
      return allowedDecision(rule, used, counterWindowFreeAt(windowStart, rule.windowMs, used, 0, 1));
    }
    const { current, previous } = await this.counters(bucket, identifier, rule, windowStart, deadline);
    const now = Date.now();
    return deniedDecision(
      rule,
      counterWindowFreeAt(windowStart, rule.windowMs, current, previous, rule.limit) - now,
      counterWindowFreeAt(windowStart, rule.windowMs, current, previous, 1),
    );
  }

  health() {
    return pingHealth("upstash", () => this.redis.ping());
  }

  private limiterFor(bucket: StoreBucket, rule: RateLimitRule): Ratelimit {
    const id = `${bucket}:${rule.limit}:${rule.windowMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new Ratelimit({
        redis: this.redis,
        limiter: Ratelimit.slidingWindow(rule.limit, `${rule.windowMs} ms`),
        prefix: this.keyPrefix(bucket),
        timeout: this.timeoutMs,
        // The in-process block cache holds a refused identifier until the end of the fixed window, which is later
        // than the sliding window frees it: it would refuse requests the Retry-After we sent told the client to make.
        ephemeralCache: false,
        analytics: false,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  private keyPrefix(bucket: StoreBucket) {
    return `${this.prefix}:${bucket}`;
  }

  /**
   * The two counters behind a refusal (one extra round trip, on refusals only). Keys follow @upstash/ratelimit 2.x:
   * `${prefix}:${identifier}:${windowIndex}`. If they cannot be read, assume the worst case the algorithm allows
   * (a full current window), which gives a wait that is never too short.
   */
  private async counters(bucket: StoreBucket, identifier: string, rule: RateLimitRule, windowStart: number, deadline: number) {
    const fullWindow = { current: rule.limit, previous: 0 };
    const index = Math.round(windowStart / rule.windowMs);
    const key = `${this.keyPrefix(bucket)}:${identifier}`;
    try {
      // Leave a little of the guard's budget unused so the refusal (with a conservative wait) always gets out.
      const budget = Math.max(1, deadline - Date.now() - 50);
      const values = await withTimeout(this.redis.mget<(number | null)[]>(`${key}:${index}`, `${key}:${index - 1}`), budget);
      const [current, previous] = values.map((v) => Number(v ?? 0));
      return current + previous > 0 ? { current, previous } : fullWindow;
    } catch {
      return fullWindow;
    }
  }
}
