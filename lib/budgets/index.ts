import type { RateLimitRule } from "@/lib/config/values";
import type { ProviderId } from "@/lib/providers/types";
import { PROVIDER_IDS } from "@/lib/providers/types";
import type { RateLimitStore } from "@/lib/ratelimit";

/** The variable that sets a provider's budget (the configuration schema has one per provider, with its default). */
export const budgetVariable = (provider: ProviderId) => `UPSTREAM_BUDGET_${provider.toUpperCase()}`;

/*
 * Upstream budgets: how many requests each provider receives from the whole gateway, whichever key asked and whichever
 * instance sent them. Counted in the rate-limit store (bucket "upstream", identified by provider id and window), so a
 * fleet sharing Redis or Upstash shares one budget, and a store outage follows RATE_LIMIT_FAIL_MODE like every limit
 * (open: each instance enforces the budget on its own; closed: RateLimiterUnavailableError).
 *
 * Configured per provider with UPSTREAM_BUDGET_<PROVIDER>="N/W[,N/W...]" (e.g. "50/60s,500/24h") or "unlimited";
 * the defaults, in the configuration schema, are the providers' published limits:
 *   provider_a  Sunbird's free tier: 50 requests a minute, 500 a day, 5,000 a month. The month is a sliding 31 days
 *               (744 h), which never admits more than 5,000 in a calendar month.
 *   provider_b  unlimited: GhanaNLP publishes no request limit for its subscriptions (its gateway answers 429 with
 *   provider_c  Retry-After, which the circuit handles), and Hugging Face bills per call without a fixed request
 *               rate; an invented number would refuse requests the provider would serve. Set the variable to match
 *               your plan.
 * Windows are checked shortest first, so a request refused by the minute budget never spends a day's or a month's.
 */

export interface BudgetDecision {
  allowed: boolean;
  /** Whole seconds until the binding window admits one more; 0 when allowed. */
  retryAfterSeconds: number;
  /** Requests left in the tightest window after this one; null when unlimited. */
  remaining: number | null;
  /** That window's limit; null when unlimited. */
  limit: number | null;
}

export interface BudgetWindowSnapshot {
  limit: number;
  window_seconds: number;
  /** Left in this window as this instance last saw it (the whole limit once the window has passed). */
  remaining: number;
  /** When the window is entirely free again, as last seen (ISO 8601); null when nothing was sent in it. */
  resets_at: string | null;
}

export interface BudgetSnapshot {
  provider: ProviderId;
  unlimited: boolean;
  windows: BudgetWindowSnapshot[];
}

interface Seen {
  remaining: number;
  resetAt: number;
}

/** How long a provider without a budget is held after a bare 429: a minute, the usual rate window. */
export const DEFAULT_HOLD_MS = 60_000;

export class UpstreamBudgets {
  /** Last decision per (provider, window): what snapshot() reports without spending a request to find out. */
  private readonly seen = new Map<string, Seen>();
  /** Holds of providers without a budget (this instance only): until when. */
  private readonly holds = new Map<ProviderId, number>();

  constructor(
    private readonly store: RateLimitStore,
    readonly rules: Readonly<Record<ProviderId, readonly RateLimitRule[]>>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes one request from `provider`'s budget if every window has room. A refusal takes nothing from the windows
   * after the refusing one (checked shortest first). Throws RateLimiterUnavailableError only in fail-closed mode.
   */
  async tryAcquire(provider: ProviderId): Promise<BudgetDecision> {
    const rules = this.rules[provider] ?? []; // a provider without an entry (added in a test) is unmetered
    const heldUntil = this.holds.get(provider);
    if (heldUntil !== undefined && heldUntil > this.now())
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((heldUntil - this.now()) / 1000)), remaining: 0, limit: null };
    if (rules.length === 0) return { allowed: true, retryAfterSeconds: 0, remaining: null, limit: null };
    let tightest: BudgetDecision | undefined;
    for (const rule of rules) {
      const decision = await this.store.check("upstream", `${provider}:${rule.windowMs}`, rule);
      this.seen.set(`${provider}:${rule.windowMs}`, { remaining: decision.remaining, resetAt: decision.resetAt });
      if (!decision.allowed) return { allowed: false, retryAfterSeconds: decision.retryAfterSeconds, remaining: 0, limit: rule.limit };
      if (!tightest || decision.remaining < tightest.remaining!) {
        tightest = { allowed: true, retryAfterSeconds: 0, remaining: decision.remaining, limit: rule.limit };
      }
    }
    return tightest!;
  }

  /**
   * The provider refused a request with a bare 429 (no Retry-After): its own window is spent, so this budget's
   * shortest window is filled, in the shared store, and every instance refuses the provider's requests until that
   * window has passed — the provider's window resets within it. A provider without a budget is held for
   * DEFAULT_HOLD_MS on this instance.
   */
  async hold(provider: ProviderId): Promise<void> {
    const rule = (this.rules[provider] ?? [])[0];
    if (!rule) {
      this.holds.set(provider, this.now() + DEFAULT_HOLD_MS);
      return;
    }
    for (let i = 0; i < rule.limit; i++) {
      const decision = await this.store.check("upstream", `${provider}:${rule.windowMs}`, rule);
      this.seen.set(`${provider}:${rule.windowMs}`, { remaining: decision.remaining, resetAt: decision.resetAt });
      if (!decision.allowed) return;
    }
  }

  /** For /health: every provider's windows as this instance last saw them (other instances may have spent more). */
  snapshot(): BudgetSnapshot[] {
    const now = this.now();
    return PROVIDER_IDS.map((provider) => ({
      provider,
      unlimited: this.rules[provider].length === 0,
      windows: this.rules[provider].map((rule) => {
        const seen = this.seen.get(`${provider}:${rule.windowMs}`);
        const current = seen && seen.resetAt > now;
        return {
          limit: rule.limit,
          window_seconds: rule.windowMs / 1000,
          remaining: current ? seen.remaining : rule.limit,
          resets_at: current ? new Date(seen.resetAt).toISOString() : null,
        };
      }),
    }));
  }
}

/**
 * /health's view (checks.upstream_budgets): each provider's windows as this instance last saw them, for the providers
 * that draw on a budget (`metered`: live ones; a sandbox emulator has no quota, so sandbox calls are not counted). A
 * budget in use, or reached, is capacity at work rather than a fault: the check stays "ok", and auto routing passes
 * the requests on to the next provider meanwhile.
 */
export function budgetsCheck(metered: (provider: ProviderId) => boolean, budgets: UpstreamBudgets) {
  const check: Record<string, unknown> = { status: "ok" };
  for (const { provider, unlimited, windows } of budgets.snapshot()) check[provider] = { metered: metered(provider), unlimited, windows };
  return check as { status: "ok" } & Record<string, unknown>;
}
