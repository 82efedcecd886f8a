import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { loadConfig, parseBudget } from "@/lib/config";
import { budgetRules } from "@/lib/server/settings";
import { type RedisServer, startRedis } from "../../e2e/support/redis";
import { MemoryRateLimitStore } from "../ratelimit/memory";
import { RedisRateLimitStore } from "../ratelimit/redis";
import { budgetsCheck, UpstreamBudgets } from "./index";

const upstreamBudgetConfig = (env: Record<string, string>) => budgetRules(loadConfig(env));

afterEach(() => vi.restoreAllMocks());

const unlimited = { provider_a: [], provider_b: [], provider_c: [] };

describe("budget rules from the configuration", () => {
  test("defaults: Sunbird's free tier for provider_a (minute, day, month), the others unlimited", () => {
    expect(upstreamBudgetConfig({})).toEqual({
      provider_a: [
        { limit: 50, windowMs: 60_000 },
        { limit: 500, windowMs: 86_400_000 },
        { limit: 5_000, windowMs: 744 * 3_600_000 },
      ],
      provider_b: [],
      provider_c: [],
    });
  });

  test("UPSTREAM_BUDGET_<PROVIDER> overrides; windows are ordered shortest first; 'unlimited' lifts a budget", () => {
    const config = upstreamBudgetConfig({
      UPSTREAM_BUDGET_PROVIDER_A: "unlimited",
      UPSTREAM_BUDGET_PROVIDER_B: "1000/1h, 30/60s",
      UPSTREAM_BUDGET_PROVIDER_C: "5/1s",
    });
    expect(config).toEqual({
      provider_a: [],
      provider_b: [
        { limit: 30, windowMs: 60_000 },
        { limit: 1_000, windowMs: 3_600_000 },
      ],
      provider_c: [{ limit: 5, windowMs: 1_000 }],
    });
  });

  test("a malformed value stops start-up", () => {
    expect(() => upstreamBudgetConfig({ UPSTREAM_BUDGET_PROVIDER_A: "fifty a minute" })).toThrow(/UPSTREAM_BUDGET_PROVIDER_A must be "N\/W/);
    expect(parseBudget("50/60s,")).toBeUndefined();
    expect(parseBudget("0/60s")).toBeUndefined();
  });
});

describe("UpstreamBudgets on the in-process store", () => {
  test("provider_a's default: 50 a minute, the 51st refused with a Retry-After within the minute", async () => {
    let now = 1_000_000;
    const budgets = new UpstreamBudgets(new MemoryRateLimitStore(() => now), upstreamBudgetConfig({}), () => now);
    const decisions = [];
    for (let i = 0; i < 51; i++) {
      decisions.push(await budgets.tryAcquire("provider_a"));
      now += 100;
    }
    expect(decisions.slice(0, 50).every((d) => d.allowed)).toBe(true);
    expect(decisions[0]).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 49, limit: 50 });
    expect(decisions[49]).toMatchObject({ allowed: true, remaining: 0, limit: 50 });
    expect(decisions[50]).toMatchObject({ allowed: false, remaining: 0, limit: 50 });
    // The first of the 50 leaves the window 60 s after it was sent, 5.1 s ago.
    expect(decisions[50].retryAfterSeconds).toBe(55);
    now += 55_000;
    expect((await budgets.tryAcquire("provider_a")).allowed).toBe(true);
  });

  test("unlimited providers are always admitted and report no limit", async () => {
    const budgets = new UpstreamBudgets(new MemoryRateLimitStore(), upstreamBudgetConfig({}));
    for (let i = 0; i < 200; i++)
      expect(await budgets.tryAcquire("provider_b")).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: null, limit: null });
  });

  test("a refusal by the short window spends nothing from the long one; the long one binds later", async () => {
    let now = 1_000_000;
    const rules = {
      ...unlimited,
      provider_c: [
        { limit: 3, windowMs: 60_000 },
        { limit: 5, windowMs: 3_600_000 },
      ],
    };
    const budgets = new UpstreamBudgets(new MemoryRateLimitStore(() => now), rules, () => now);
    for (let i = 0; i < 3; i++) expect((await budgets.tryAcquire("provider_c")).allowed).toBe(true);
    for (let i = 0; i < 10; i++) expect((await budgets.tryAcquire("provider_c")).allowed).toBe(false);
    expect(
      budgets
        .snapshot()
        .find((s) => s.provider === "provider_c")!
        .windows.map((w) => w.remaining),
    ).toEqual([0, 2]);

    now += 60_000;
    expect(await budgets.tryAcquire("provider_c")).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 1, limit: 5 });
    expect((await budgets.tryAcquire("provider_c")).allowed).toBe(true);
    const refused = await budgets.tryAcquire("provider_c");
    expect(refused).toMatchObject({ allowed: false, limit: 5 });
    expect(refused.retryAfterSeconds).toBe(3_600 - 60);
  });

  test("providers never share a budget", async () => {
    const rules = { provider_a: [{ limit: 1, windowMs: 60_000 }], provider_b: [{ limit: 1, windowMs: 60_000 }], provider_c: [] };
    const budgets = new UpstreamBudgets(new MemoryRateLimitStore(), rules);
    expect((await budgets.tryAcquire("provider_a")).allowed).toBe(true);
    expect((await budgets.tryAcquire("provider_a")).allowed).toBe(false);
    expect((await budgets.tryAcquire("provider_b")).allowed).toBe(true);
  });

  test("snapshot: each provider's windows, use as last seen, full again once the window has passed", async () => {
    let now = 1_000_000;
    const budgets = new UpstreamBudgets(new MemoryRateLimitStore(() => now), upstreamBudgetConfig({}), () => now);
    expect(budgets.snapshot()).toEqual([
      {
        provider: "provider_a",
        unlimited: false,
        windows: [
          { limit: 50, window_seconds: 60, remaining: 50, resets_at: null },
          { limit: 500, window_seconds: 86_400, remaining: 500, resets_at: null },
          { limit: 5_000, window_seconds: 2_678_400, remaining: 5_000, resets_at: null },
        ],
      },
      { provider: "provider_b", unlimited: true, windows: [] },
      { provider: "provider_c", unlimited: true, windows: [] },
    ]);
    for (let i = 0; i < 3; i++) await budgets.tryAcquire("provider_a");
    const [minute, day] = budgets.snapshot()[0].windows;
    expect(minute).toEqual({ limit: 50, window_seconds: 60, remaining: 47, resets_at: new Date(now + 60_000).toISOString() });
    expect(day.remaining).toBe(497);
    now += 60_001;
    expect(budgets.snapshot()[0].windows.map((w) => w.remaining)).toEqual([50, 497, 4_997]);
  });
});

describe("budgetsCheck (/health)", () => {
  test("each provider's windows as last seen, metered only when live; reaching a budget is not a fault", async () => {
    const budgets = new UpstreamBudgets(new MemoryRateLimitStore(), { ...unlimited, provider_a: [{ limit: 1, windowMs: 60_000 }] });
    await budgets.tryAcquire("provider_a");
    expect((await budgets.tryAcquire("provider_a")).allowed).toBe(false);
    const check = budgetsCheck((id) => id !== "provider_c", budgets);
    expect(check).toMatchObject({
      status: "ok",
      provider_a: { metered: true, unlimited: false, windows: [{ limit: 1, window_seconds: 60, remaining: 0 }] },
      provider_b: { metered: true, unlimited: true, windows: [] },
      provider_c: { metered: false, unlimited: true, windows: [] },
    });
  });
});

describe("UpstreamBudgets on a real Redis", () => {
  let server: RedisServer;
  const stores: RedisRateLimitStore[] = [];
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await server?.stop();
  });
  /** One app instance: its own connection, the shared server, a key prefix unique to the test. */
  const instance = (prefix: string, rules: ConstructorParameters<typeof UpstreamBudgets>[1]) => {
    const store = new RedisRateLimitStore({ url: server.url, timeoutMs: 1_000, prefix });
    stores.push(store);
    return new UpstreamBudgets(store, rules);
  };

  test("two instances sharing one Redis enforce one combined budget", async () => {
    const prefix = `budget-${randomUUID()}`;
    const rules = { ...unlimited, provider_a: [{ limit: 20, windowMs: 60_000 }] };
    const [one, two] = [instance(prefix, rules), instance(prefix, rules)];
    const decisions = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? one : two).tryAcquire("provider_a")));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
    // Each admitted request saw its own count, across both instances.
    expect(
      decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((a, b) => a! - b!),
    ).toEqual(Array.from({ length: 20 }, (_, i) => i));
    for (const refused of decisions.filter((d) => !d.allowed)) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
  });

  test("every sender draws on the one budget, which frees again after Retry-After", async () => {
    const prefix = `budget-${randomUUID()}`;
    const rules = { ...unlimited, provider_b: [{ limit: 2, windowMs: 2_000 }] };
    const budgets = instance(prefix, rules);
    expect((await budgets.tryAcquire("provider_b")).allowed).toBe(true);
    expect((await instance(prefix, rules).tryAcquire("provider_b")).allowed).toBe(true);
    const refused = await budgets.tryAcquire("provider_b");
    expect(refused).toMatchObject({ allowed: false, limit: 2 });
    await new Promise((r) => setTimeout(r, refused.retryAfterSeconds * 1000));
    expect((await budgets.tryAcquire("provider_b")).allowed).toBe(true);
  });
});
