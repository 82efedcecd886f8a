import type { RateLimitBucket, RateLimitDecision, RateLimitRule, RateLimitStore } from "./types";

/**
 * In-process sliding-window log: exact, for one instance (the zero-config default).
 * Rejected requests are not recorded, so a client that keeps retrying is not locked out longer than the window.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly name = "memory" as const;
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async check(bucket: RateLimitBucket, identifier: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const now = this.now();
    this.sweep(now, rule.windowMs);
    const k = `${bucket}:${identifier}`;
    const windowStart = now - rule.windowMs;
    const log = (this.hits.get(k) ?? []).filter((t) => t > windowStart);
    if (log.length >= rule.limit) {
      const oldest = log[log.length - rule.limit];
      const waitMs = oldest + rule.windowMs - now;
      this.hits.set(k, log);
      return {
        allowed: false,
        limit: rule.limit,
        remaining: 0,
        resetAt: log[log.length - 1] + rule.windowMs,
        retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
      };
    }
    log.push(now);
    this.hits.set(k, log);
    return {
      allowed: true,
      limit: rule.limit,
      remaining: rule.limit - log.length,
      resetAt: now + rule.windowMs,
      retryAfterSeconds: 0,
    };
  }

  async health() {
    return { ok: true };
  }

  /** Drop idle identifiers now and then so memory does not grow with every key ever seen. */
  private sweep(now: number, windowMs: number) {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, log] of this.hits) {
      if (log.length === 0 || log[log.length - 1] <= now - Math.max(windowMs, 3_600_000)) this.hits.delete(k);
    }
  }
}
