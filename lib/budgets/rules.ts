import type { ProviderId } from "../providers/types";
import { parseRule } from "../ratelimit/rules";
import type { RateLimitRule } from "../ratelimit/types";

/** The budgets' syntax and defaults (./index.ts explains them); apart, so the configuration schema can check values. */

export const DEFAULT_UPSTREAM_BUDGETS: Readonly<Record<ProviderId, string>> = {
  provider_a: "50/60s,500/24h,5000/744h",
  provider_b: "unlimited",
  provider_c: "unlimited",
};

const UNLIMITED = new Set(["unlimited", "off", "none"]);

/** "unlimited" → []; "N/W[,N/W...]" → rules, shortest window first; undefined when malformed. */
export function parseBudget(text: string): RateLimitRule[] | undefined {
  const value = text.trim().toLowerCase();
  if (UNLIMITED.has(value)) return [];
  const rules = value.split(",").map(parseRule);
  if (rules.length === 0 || rules.some((r) => r === undefined)) return undefined;
  return (rules as RateLimitRule[]).sort((a, b) => a.windowMs - b.windowMs);
}

export const budgetVariable = (provider: ProviderId) => `UPSTREAM_BUDGET_${provider.toUpperCase()}`;
