import type { RateLimitRule } from "@/lib/config/values";
import { ApiError } from "@/lib/kit/errors";
import { rateLimitHeaders } from "./decision";
import type { RateLimitDecision, RateLimitStore } from "./types";

/*
 * Failed authentication, throttled per client IP (docs/security.md).
 *
 * Each request whose key is refused spends one unit of the `auth_failures` bucket of its client IP (the address rule
 * of key issuance: lib/kit/client-ip.ts). Once the bucket refuses, the address is remembered as over budget until the
 * limiter's Retry-After, and until then a key from it is answered 429 RATE_LIMIT_EXCEEDED *before* any database
 * lookup — unless this instance verified that key recently (lib/keys/cache.ts), so the callers of a shared NAT whose
 * neighbour floods bad keys keep working. The request that crosses the budget is answered 429 too.
 *
 * The 429 carries what every 429 of the API carries (docs/guide.md "Rate limits"): Retry-After and X-RateLimit-Limit,
 * -Remaining (0) and -Reset, here of the address's failed-authentication budget.
 *
 * The over-budget memory is per instance: with a shared limiter store each instance pays at most one more lookup per
 * address after the shared budget is spent, then refuses on its own until the window frees a unit.
 */
export class FailedAuthThrottle {
  /** Client IP → the refusal that blocked it: until `until` (epoch ms) unverified keys from it are refused without a lookup. */
  private readonly blockedUntil = new Map<string, { until: number; limit: number; resetAt: number }>();

  constructor(
    private readonly store: RateLimitStore,
    /** RATE_LIMIT_AUTH_FAILURES. */
    private readonly rule: RateLimitRule,
    private readonly now: () => number = Date.now,
    private readonly maxBlocked = 10_000,
  ) {}

  /** The refusal due to an unverified key from this address now (Retry-After counted from now); undefined when it may be looked up. */
  blocked(ip: string): RateLimitDecision | undefined {
    const entry = this.blockedUntil.get(ip);
    if (entry === undefined) return undefined;
    const left = entry.until - this.now();
    if (left > 0) return { allowed: false, limit: entry.limit, remaining: 0, resetAt: entry.resetAt, retryAfterSeconds: Math.ceil(left / 1000) };
    this.blockedUntil.delete(ip);
    return undefined;
  }

  /** Whole seconds this address must wait before an unverified key from it is looked up again; 0 when it may now. */
  waitSeconds(ip: string): number {
    return this.blocked(ip)?.retryAfterSeconds ?? 0;
  }

  /**
   * Counts one failed authentication. Returns the limiter's refusal when this failure found the budget spent, else
   * undefined. A limiter that cannot answer (fail-closed mode) leaves the answer a 401: the key was refused either way.
   */
  async recordFailure(ip: string): Promise<RateLimitDecision | undefined> {
    let decision: RateLimitDecision;
    try {
      decision = await this.store.check("auth_failures", ip, this.rule);
    } catch {
      return undefined;
    }
    if (decision.allowed) return undefined;
    this.blockedUntil.delete(ip); // re-insert at the end: Map order is the eviction order
    if (this.blockedUntil.size >= this.maxBlocked) {
      const oldest = this.blockedUntil.keys().next().value;
      if (oldest !== undefined) this.blockedUntil.delete(oldest);
    }
    this.blockedUntil.set(ip, { until: this.now() + decision.retryAfterSeconds * 1000, limit: decision.limit, resetAt: decision.resetAt });
    return decision;
  }
}

/**
 * Runs `authenticate` for a key sent from `ip` under the throttle: refuses it with 429 (no lookup) while the address
 * is over budget and the key was not verified here recently; counts a refused key (null) and answers 429 instead
 * of letting the caller answer 401 when that failure spent the budget. Returns what `authenticate` returned.
 */
export async function throttleFailedAuth<T>(
  ip: string,
  plainKey: string,
  authenticate: () => Promise<T | null>,
  throttle: FailedAuthThrottle,
  /** Whether this instance verified the key recently (KeyStore.isRecentlyVerifiedKey). */
  isVerified: (plainKey: string) => boolean,
): Promise<T | null> {
  const blocked = throttle.blocked(ip);
  if (blocked && !isVerified(plainKey)) throw tooManyFailures(blocked);
  const key = await authenticate();
  if (key) return key;
  const refusal = await throttle.recordFailure(ip);
  if (refusal) throw tooManyFailures(refusal);
  return null;
}

/** 429 RATE_LIMIT_EXCEEDED for an address over its failed-authentication budget, with the headers of every 429. */
export function tooManyFailures(decision: RateLimitDecision): ApiError {
  return new ApiError("RATE_LIMIT_EXCEEDED", `Too many failed authentications from this address. Retry after ${decision.retryAfterSeconds} s.`, {
    headers: rateLimitHeaders(decision),
  });
}
