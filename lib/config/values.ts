/**
 * The syntax of the configuration's compound values — rate limits ("60/60s"), upstream budgets ("50/60s,500/24h" or
 * "unlimited") and sizes ("64MB") — parsed here, at the bottom of the app, so the schema can check them and every
 * feature that uses one receives it parsed.
 */

/** A limit of `limit` requests in any `windowMs` (a sliding window). */
export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

/** Parses "N/Ws" (also "N/Wms", "N/Wm", "N/Wh"; a bare W is seconds). Returns undefined for anything else. */
export function parseRule(text: string): RateLimitRule | undefined {
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) return undefined;
  const limit = Number(m[1]);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[3] ?? "s") as "ms" | "s" | "m" | "h"];
  const windowMs = Math.round(Number(m[2]) * unit);
  if (!Number.isSafeInteger(limit) || limit < 1 || windowMs < 1) return undefined;
  return { limit, windowMs };
}

const UNLIMITED = new Set(["unlimited", "off", "none"]);

/** "unlimited" → []; "N/W[,N/W...]" → rules, shortest window first; undefined when malformed. */
export function parseBudget(text: string): RateLimitRule[] | undefined {
  const value = text.trim().toLowerCase();
  if (UNLIMITED.has(value)) return [];
  const rules = value.split(",").map(parseRule);
  if (rules.length === 0 || rules.some((r) => r === undefined)) return undefined;
  return (rules as RateLimitRule[]).sort((a, b) => a.windowMs - b.windowMs);
}

/** "67108864", "64MB", "64 MiB", "512k": bytes. Undefined for anything else. */
export function parseBytes(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:([kmg])i?)?b?\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m[2] ?? "").toLowerCase() as "" | "k" | "m" | "g"];
  const bytes = Math.floor(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) && bytes >= 1 ? bytes : undefined;
}
