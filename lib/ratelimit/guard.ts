import { processLog } from "@/lib/kit/log";
import { inSpan, tracingOn } from "@/lib/kit/telemetry";
import { describeFailure, withTimeout } from "@/lib/store";
import { MemoryRateLimitStore } from "./memory";
import type { RateLimitDecision, RateLimitRule, RateLimitStore, StoreBucket } from "./types";

/*
 * What happens when the shared rate-limit store (Upstash or Redis) is slow or down
 * ------------------------------------------------------------------------------
 * Every call to the store is bounded by RATE_LIMIT_TIMEOUT_MS (default 300 ms): a limiter that hangs must not hang
 * the API with it (@upstash/ratelimit would otherwise wait 5 s; ioredis would queue commands until reconnected).
 * A call that fails or times out is then handled by RATE_LIMIT_FAIL_MODE:
 *
 *   open (default)  The request is served. Limits fall back to this instance's in-process sliding window, so each
 *                   instance still enforces the configured limit on its own: a fleet of N instances admits at most
 *                   N x limit per key during the outage instead of no limit at all, and the X-RateLimit-* headers stay
 *                   real numbers. Chosen as default because the limiter protects the service, it is not the service:
 *                   an outage of a cache must not turn into an outage of the translation API.
 *   closed          The request is refused with RateLimiterUnavailableError, which the HTTP layer maps to 503
 *                   (with Retry-After). For deployments that must never exceed upstream provider quotas or
 *                   contractual per-key limits, where refusing is cheaper than overspending.
 *
 * The store is retried on every request (never "disabled after one failure": one blip would otherwise turn limits off until a restart): the first call
 * after the store recovers uses it again. Transitions are logged once each way, not once per request.
 */

export type FailMode = "open" | "closed";

/** The shared store could not answer and RATE_LIMIT_FAIL_MODE=closed: the HTTP layer answers 503. */
export class RateLimiterUnavailableError extends Error {
  readonly code = "RATE_LIMITER_UNAVAILABLE";
  constructor(
    readonly backend: string,
    options?: { cause?: unknown },
  ) {
    super(`rate limiter (${backend}) is unavailable`, options);
    this.name = "RateLimiterUnavailableError";
  }
}

export interface GuardOptions {
  timeoutMs: number;
  failMode: FailMode;
}

/** Wraps a store with the timeout and the fail-open / fail-closed policy described above. */
export class GuardedRateLimitStore implements RateLimitStore {
  readonly name: RateLimitStore["name"];
  readonly timeoutMs: number;
  readonly failMode: FailMode;
  private readonly fallback = new MemoryRateLimitStore();
  private failing = false;

  constructor(
    private readonly inner: RateLimitStore,
    options: GuardOptions,
  ) {
    this.name = inner.name;
    this.timeoutMs = options.timeoutMs;
    this.failMode = options.failMode;
  }

  check(bucket: StoreBucket, identifier: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    if (tracingOn())
      return inSpan("ratelimit check", { "lugha.store": this.name, "lugha.ratelimit.bucket": bucket }, () => this.decide(bucket, identifier, rule));
    return this.decide(bucket, identifier, rule);
  }

  private decide(bucket: StoreBucket, identifier: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    // The in-process store cannot hang or fail: no timer and no race on every request.
    if (this.inner.name === "memory") return this.inner.check(bucket, identifier, rule);
    return this.checkShared(bucket, identifier, rule);
  }

  private async checkShared(bucket: StoreBucket, identifier: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    let decision: RateLimitDecision;
    try {
      decision = await withTimeout(this.inner.check(bucket, identifier, rule), this.timeoutMs);
    } catch (err) {
      this.noteFailure(err);
      if (this.failMode === "closed") throw new RateLimiterUnavailableError(this.name, { cause: err });
      return this.fallback.check(bucket, identifier, rule);
    }
    this.noteSuccess();
    return decision;
  }

  async health(): Promise<{ ok: boolean; detail?: string }> {
    try {
      return await withTimeout(this.inner.health(), this.timeoutMs);
    } catch (err) {
      return { ok: false, detail: `${this.name} ${describeFailure(err)}` };
    }
  }

  private noteFailure(err: unknown) {
    if (this.failing) return;
    this.failing = true;
    const then = this.failMode === "open" ? "serving with per-instance limits" : "refusing requests with 503";
    processLog().warn(
      { event: "store_failed", component: "ratelimit", store: this.name, failure: describeFailure(err) },
      `rate-limit store failed; ${then} until it answers again`,
    );
  }

  private noteSuccess() {
    if (!this.failing) return;
    this.failing = false;
    processLog().warn({ event: "store_recovered", component: "ratelimit", store: this.name }, "rate-limit store answers again");
  }
}
