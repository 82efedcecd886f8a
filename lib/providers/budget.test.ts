import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UpstreamBudgets } from "@/lib/budgets";
import { MemoryRateLimitStore } from "@/lib/ratelimit/memory";
import { thrown } from "@/lib/routing/hostile.test-support";
import { BUDGET_REFUSED } from "./client";
import { KhayaClient } from "./khaya";
import { type EmulatorServer, startEmulatorServer } from "./sandbox";
import { SunbirdClient } from "./sunbird";
import { ProviderError } from "./types";

/** The upstream budgets as the clients apply them: one token per request sent, refusals before the circuit. */

let sunbird: EmulatorServer;
let khaya: EmulatorServer;
beforeAll(async () => {
  [sunbird, khaya] = await Promise.all([startEmulatorServer("sunbird"), startEmulatorServer("khaya")]);
});
afterAll(async () => Promise.all([sunbird.close(), khaya.close()]));
beforeEach(() => {
  sunbird.reset();
  khaya.reset();
});

const FAST = { backoffBaseMs: 5, backoffMaxMs: 10 };
const budgetOf = (limit: number, windowMs = 60_000) =>
  new UpstreamBudgets(new MemoryRateLimitStore(), { provider_a: [{ limit, windowMs }], provider_b: [{ limit, windowMs }], provider_c: [] });
const translation = { text: "Good morning", source: "en", target: "lug", deadline: 0 };
const request = () => ({ ...translation, deadline: Date.now() + 5_000 });

async function refusal(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await thrown(() => promise);
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe("a client with an upstream budget", () => {
  it("sends up to the budget, then refuses without calling the upstream, with the wait until the window frees", async () => {
    const client = new SunbirdClient({ baseUrl: sunbird.url, budget: budgetOf(3), policy: FAST });
    for (let i = 0; i < 3; i++) expect((await client.translate(request())).translatedText).toMatch(/^\[sandbox:/);
    const err = await refusal(client.translate(request()));
    expect(err).toMatchObject({ provider: "provider_a", kind: "rate_limited", upstreamCode: BUDGET_REFUSED });
    expect(err.retryAfterMs).toBeGreaterThanOrEqual(59_000);
    expect(err.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(sunbird.stats.translations.calls).toBe(3);
  });

  it("never counts a refusal against the provider's circuit", async () => {
    const client = new SunbirdClient({
      baseUrl: sunbird.url,
      budget: budgetOf(1),
      policy: FAST,
      circuit: { failureThreshold: 2, cooldownMs: 60_000 },
    });
    await client.translate(request());
    for (let i = 0; i < 10; i++) expect((await refusal(client.translate(request()))).upstreamCode).toBe(BUDGET_REFUSED);
    expect(client.circuitState).toBe("closed");
  });

  it("takes one token per request sent, retries included: a retry past the budget is never sent", async () => {
    // Sunbird's quota refusal with Retry-After: the one failure it retries (it was refused before any work).
    const refused = { failMode: "rate_limited", variant: "quota", retryAfterSeconds: 0.05, failNext: 1 } as const;
    sunbird.setControls(refused);
    const client = new SunbirdClient({ baseUrl: sunbird.url, budget: budgetOf(1), policy: { ...FAST, maxRetries: 2 } });
    const err = await refusal(client.translate(request()));
    expect(err.upstreamCode).toBe(BUDGET_REFUSED);
    expect(sunbird.stats.requests).toBe(1);

    // With room for the retry, the same failure is retried and served.
    sunbird.setControls(refused);
    sunbird.resetStats();
    const roomy = new SunbirdClient({ baseUrl: sunbird.url, budget: budgetOf(2), policy: { ...FAST, maxRetries: 2 } });
    expect((await roomy.translate(request())).translatedText).toMatch(/^\[sandbox:/);
    expect(sunbird.stats.requests).toBe(2);
  });

  it("a bare 429 holds the provider for its window, on every client sharing the budget; a 429 with Retry-After does not", async () => {
    const budget = budgetOf(50);
    sunbird.setControls({ failMode: "rate_limited", failNext: 1 });
    const one = new SunbirdClient({ baseUrl: sunbird.url, budget, policy: FAST });
    const other = new SunbirdClient({ baseUrl: sunbird.url, budget, policy: FAST });
    expect(await refusal(one.translate(request()))).toMatchObject({ kind: "rate_limited", status: 429 });
    for (const client of [one, other, one, other, one]) {
      const err = await refusal(client.translate(request()));
      expect(err.upstreamCode).toBe(BUDGET_REFUSED);
      expect(err.retryAfterMs).toBeGreaterThanOrEqual(59_000);
    }
    expect(sunbird.stats.requests).toBe(1);

    const khayaBudget = budgetOf(50);
    khaya.setControls({ failMode: "rate_limited", retryAfterSeconds: 30, failNext: 1 });
    const k = new KhayaClient({ baseUrl: khaya.url, budget: khayaBudget, policy: { ...FAST, maxRetries: 0 } });
    expect(await refusal(k.translate({ ...request(), target: "tw" }))).toMatchObject({ status: 429, retryAfterMs: 30_000 });
    expect((await k.translate({ ...request(), target: "tw" })).translatedText).toMatch(/^\[sandbox:/);
  });

  it("a provider without a budget is held by this instance after a bare 429", async () => {
    const budgets = new UpstreamBudgets(new MemoryRateLimitStore(), { provider_a: [], provider_b: [], provider_c: [] });
    await budgets.hold("provider_c");
    expect(await budgets.tryAcquire("provider_c")).toMatchObject({ allowed: false });
    expect((await budgets.tryAcquire("provider_c")).retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(await budgets.tryAcquire("provider_b")).toMatchObject({ allowed: true });
  });

  it("spends nothing while the circuit is open: the call fails fast as circuit_open", async () => {
    const budget = budgetOf(5);
    khaya.setControls({ failMode: "status", status: 500 });
    const client = new KhayaClient({
      baseUrl: khaya.url,
      budget,
      policy: { ...FAST, maxRetries: 0 },
      circuit: { failureThreshold: 1, cooldownMs: 60_000 },
    });
    await refusal(client.translate({ ...request(), target: "tw" }));
    expect(client.circuitState).toBe("open");
    expect((await refusal(client.translate({ ...request(), target: "tw" }))).kind).toBe("circuit_open");
    expect(budget.snapshot().find((b) => b.provider === "provider_b")!.windows[0].remaining).toBe(4);
  });

  it("counts Sunbird's speech call but not the download of the signed audio link (another host's quota)", async () => {
    const client = new SunbirdClient({ baseUrl: sunbird.url, budget: budgetOf(1), policy: FAST });
    const speech = await client.synthesize({ text: "Oli otya", language: "lug", deadline: Date.now() + 5_000 });
    expect(speech.audio.byteLength).toBeGreaterThan(0);
    expect((await refusal(client.synthesize({ text: "Oli otya", language: "lug", deadline: Date.now() + 5_000 }))).upstreamCode).toBe(BUDGET_REFUSED);
  });

  it("a client without a budget (sandbox, tests) is never metered", async () => {
    const client = new SunbirdClient({ baseUrl: sunbird.url, policy: FAST });
    for (let i = 0; i < 5; i++) await client.translate(request());
    expect(sunbird.stats.translations.calls).toBe(5);
  });
});
