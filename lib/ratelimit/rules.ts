import type { RateLimitBucket, RateLimitRule } from "./types";

/** Defaults: the published per-minute limits (docs/guide.md#limits). Override with RATE_LIMIT_<BUCKET>=N/Ws. */
export const DEFAULT_RULES: Record<RateLimitBucket, string> = {
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
