import type { RateLimitRule } from "@/lib/config/values";

/** Buckets with their own budget. Per API key id, except `issuance` and `auth_failures`, which are per client IP. */
export type RateLimitBucket = "translate" | "batch" | "stt" | "tts" | "default" | "issuance" | "auth_failures";

/**
 * Every counter a store keeps: the per-caller buckets, plus `upstream`, the per-provider budgets every key shares
 * (identified by provider id; see lib/budgets).
 */
export type StoreBucket = RateLimitBucket | "upstream";

export type { RateLimitRule } from "@/lib/config/values";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms at which the budget is fully available again (X-RateLimit-Reset is derived from it). */
  resetAt: number;
  /** Whole seconds to wait before the next request can succeed; at least 1 when !allowed, 0 when allowed. */
  retryAfterSeconds: number;
}

export interface RateLimitStore {
  readonly name: "memory" | "redis" | "upstash";
  check(bucket: StoreBucket, identifier: string, rule: RateLimitRule): Promise<RateLimitDecision>;
  health(): Promise<{ ok: boolean; detail?: string }>;
}
