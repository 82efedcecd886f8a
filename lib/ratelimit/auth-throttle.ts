import type { RateLimitRule } from "@/lib/config/values";
import { ApiError } from "@/lib/kit/errors";
import type { RateLimitStore } from "./types";

/*
 * Failed authentication, throttled per client IP (docs/security.md).
 *
 * Each request whose key is refused spends one unit of the `auth_failures` bucket of its client IP (the address rule
 * of key issuance: lib/http/client-ip.ts). Once the bucket refuses, the address is remembered as over budget until the
 * limiter's Retry-After, and until then a key from it is answered 429 RATE_LIMIT_EXCEEDED *before* any database
 * lookup — unless this instance verified that key recently (lib/keys/cache.ts), so the callers of a shared NAT whose
 * neighbour floods bad keys keep working. The request that crosses the budget is answered 429 too.
 *
 * The over-budget memory is per instance: with a shared limiter store each instance pays at most one more lookup per
 * address after the shared budget is spent, then refuses on its own until the window frees a unit.
 */
export class FailedAuthThrottle {
  /** Client IP → epoch ms until which unverified keys from it are refused without a lookup. */
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly store: RateLimitStore,
    /** RATE_LIMIT_AUTH_FAILURES. */
    private readonly rule: RateLimitRule,
    private readonly now: () => number = Date.now,
    private readonly maxBlocked = 10_000,
  ) {}

  /** Whole seconds this address must wait before an unverified key from it is looked up again; 0 when it may now. */
  waitSeconds(ip: string): number {
    const until = this.blockedUntil.get(ip);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left > 0) return Math.ceil(left / 1000);
    this.blockedUntil.delete(ip);
    return 0;
  }

  /**
   * Counts one failed authentication. Returns the seconds to wait when this failure found the budget spent, else 0.
   * A limiter that cannot answer (fail-closed mode) leaves the answer a 401: the key was refused either way.
   */
  async recordFailure(ip: string): Promise<number> {
    let decision: Awaited<ReturnType<RateLimitStore["check"]>>;
    try {
      decision = await this.store.check("auth_failures", ip, this.rule);
    } catch {
      return 0;
    }
    if (decision.allowed) return 0;
    this.blockedUntil.delete(ip); // re-insert at the end: Map order is the eviction order
    if (this.blockedUntil.size >= this.maxBlocked) {
      const oldest = this.blockedUntil.keys().next().value;
      if (oldest !== undefined) this.blockedUntil.delete(oldest);
    }
    this.blockedUntil.set(ip, this.now() + decision.retryAfterSeconds * 1000);
    return decision.retryAfterSeconds;
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
  const wait = throttle.waitSeconds(ip);
  if (wait > 0 && !isVerified(plainKey)) throw tooManyFailures(wait);
  const key = await authenticate();
  if (key) return key;
  const retryAfter = await throttle.recordFailure(ip);
  if (retryAfter > 0) throw tooManyFailures(retryAfter);
  return null;
}

function tooManyFailures(retryAfterSeconds: number): ApiError {
  return new ApiError("RATE_LIMIT_EXCEEDED", `Too many failed authentications from this address. Retry after ${retryAfterSeconds} s.`, {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}
