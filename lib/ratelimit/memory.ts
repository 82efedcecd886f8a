import { allowedDecision, deniedDecision } from "./decision";
import type { RateLimitDecision, RateLimitRule, RateLimitStore, StoreBucket } from "./types";

/** Admitted-request timestamps of one (bucket, identifier), oldest first, plus the window they were admitted under. */
interface HitLog {
  hits: number[];
  windowMs: number;
}

const SWEEP_EVERY_MS = 60_000;

/**
 * In-process sliding-window log: exact, for one instance (the zero-config default, and the local fallback when a
 * shared store is down in fail-open mode).
 *
 * A hit at time t counts while now < t + windowMs. Rejected requests are not recorded, so a client that keeps
 * retrying is never locked out longer than the window.
 * A log never holds more than `limit` entries, so each check is O(limit) at worst.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly name = "memory" as const;
  private readonly logs = new Map<string, HitLog>();
  private lastSweep: number;

  /**
   * `now` is injectable so unit tests can drive the clock to the millisecond. The default is monotonic (epoch-based
   * so resetAt stays a timestamp): a wall clock stepped back by NTP would otherwise keep old hits "in the future"
   * and lock clients out for the size of the step.
   */
  constructor(private readonly now: () => number = () => performance.timeOrigin + performance.now()) {
    this.lastSweep = now();
  }

  async check(bucket: StoreBucket, identifier: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const key = `${bucket}:${identifier}`;
    const log = this.logs.get(key) ?? { hits: [], windowMs: rule.windowMs };
    log.windowMs = rule.windowMs;
    const hits = log.hits;
    const now = this.now();
    this.sweep(now);

    let expired = 0;
    while (expired < hits.length && hits[expired] <= now - rule.windowMs) expired++;
    if (expired) hits.splice(0, expired);

    if (hits.length >= rule.limit) {
      // One more fits once the oldest of the newest `limit` hits leaves the window.
      const freedBy = hits[hits.length - rule.limit] + rule.windowMs;
      this.logs.set(key, log);
      return deniedDecision(rule, freedBy - now, hits[hits.length - 1] + rule.windowMs);
    }
    hits.push(now);
    this.logs.set(key, log);
    return allowedDecision(rule, hits.length, now + rule.windowMs);
  }

  async health() {
    return { ok: true, detail: "memory (per instance)" };
  }

  /** Now and then drop logs whose every hit has left its window, so memory does not grow with every key or IP seen. */
  private sweep(now: number) {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const [key, log] of this.logs) {
      if (log.hits.length === 0 || log.hits[log.hits.length - 1] <= now - log.windowMs) this.logs.delete(key);
    }
  }

  /** Number of (bucket, identifier) logs held; for tests of the sweep. */
  get size(): number {
    return this.logs.size;
  }
}
