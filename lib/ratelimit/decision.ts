import { ApiError } from "@/lib/kit/errors";
import type { RateLimitBucket, RateLimitDecision, RateLimitRule } from "./types";

/*
 * The two shapes a decision can take, shared by every backend so the headers the wrapper derives from them
 * (X-RateLimit-*, Retry-After) mean the same thing whichever store answered.
 */

/** An admitted request. `used` counts this request; `resetAt` is when the whole budget is free again (epoch ms). */
export function allowedDecision(rule: RateLimitRule, used: number, resetAt: number): RateLimitDecision {
  return {
    allowed: true,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - used),
    resetAt,
    retryAfterSeconds: 0,
  };
}

/**
 * A refused request. `waitMs` is how long until one more request would be admitted (nothing else being admitted
 * meanwhile). Retry-After is whole seconds, rounded up so a client that waits exactly that long succeeds, and at
 * least 1 so `Retry-After: 0` never invites an immediate retry loop.
 */
export function deniedDecision(rule: RateLimitRule, waitMs: number, resetAt: number): RateLimitDecision {
  return {
    allowed: false,
    limit: rule.limit,
    remaining: 0,
    resetAt,
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  };
}

/**
 * The headers a decision gives a response: X-RateLimit-Limit, -Remaining and -Reset (Unix seconds at which the window has
 * fully refilled, as GitHub and most APIs report it), and Retry-After when it refuses.
 */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(d.limit),
    "X-RateLimit-Remaining": String(Math.max(0, d.remaining)),
    "X-RateLimit-Reset": String(Math.ceil(d.resetAt / 1000)),
    ...(d.allowed ? {} : { "Retry-After": String(d.retryAfterSeconds) }),
  };
}

/** 429 RATE_LIMIT_EXCEEDED for a refused decision of `bucket`, with its headers. */
export function rateLimitExceeded(bucket: RateLimitBucket, d: RateLimitDecision): ApiError {
  const what = bucket === "issuance" ? "Too many keys issued from this address" : `Rate limit of ${d.limit} ${bucket} requests exceeded`;
  return new ApiError("RATE_LIMIT_EXCEEDED", `${what}. Retry after ${d.retryAfterSeconds} s.`, { headers: rateLimitHeaders(d) });
}
