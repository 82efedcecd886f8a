import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, startRedis } from "@/e2e/support/redis";
import { UpstreamBudgets } from "@/lib/budgets";
import { apiError } from "@/lib/kit/test-support";
import { HuggingFaceClient, KhayaClient, SunbirdClient, type UpstreamBudget } from "@/lib/providers";
import type { ProviderClient, ProviderId } from "@/lib/providers/types";
import type { RateLimitRule } from "@/lib/ratelimit";
import { MemoryRateLimitStore } from "@/lib/ratelimit/memory";
import { RedisRateLimitStore } from "@/lib/ratelimit/redis";
import { emulatorServersForFile } from "./emulators.test-support";
import { type TranslateDeps, translateText } from "./service";

/**
 * Upstream budgets in translation: real clients on loopback emulators, budgets in the in-process store or a real
 * Redis shared by two "instances" (each its own store connection, budgets and clients).
 */

const servers = emulatorServersForFile({}, { resetEach: true });

const minute = (limit: number): RateLimitRule[] => [{ limit, windowMs: 60_000 }];

function instance(budget: UpstreamBudget): TranslateDeps {
  const common = { budget, policy: { maxRetries: 0 }, circuit: { failureThreshold: 2, cooldownMs: 60_000 } };
  const providers: Record<ProviderId, ProviderClient> = {
    provider_a: new SunbirdClient({ baseUrl: servers.provider_a.url, ...common }),
    provider_b: new KhayaClient({ baseUrl: servers.provider_b.url, ...common }),
    provider_c: new HuggingFaceClient({ baseUrl: servers.provider_c.url, ...common }),
  };
  return { providers, deadlineMs: 5_000 };
}

const enLug = { text: "Good morning", source_lang: "en", target_lang: "lug" };

describe("upstream budgets in translation", () => {
  it("auto: a provider at its budget is skipped like an open circuit, the next provider serves, its circuit stays closed", async () => {
    const deps = instance(new UpstreamBudgets(new MemoryRateLimitStore(), { provider_a: minute(2), provider_b: [], provider_c: [] }));
    const served = [];
    for (let i = 0; i < 5; i++) served.push(await translateText(enLug, deps));
    expect(served.map((r) => r.provider)).toEqual(["provider_a", "provider_a", "provider_c", "provider_c", "provider_c"]);
    expect(served[2]).toMatchObject({ fallback_used: true, providers_tried: ["provider_a", "provider_c"] });
    expect(servers.provider_a.stats.translations.calls).toBe(2); // the upstream never saw a request over its budget
    expect((deps.providers.provider_a as SunbirdClient).circuitState).toBe("closed");
  });

  it("forced: a provider at its budget answers 503 PROVIDER_ERROR with Retry-After, and never falls back", async () => {
    const deps = instance(new UpstreamBudgets(new MemoryRateLimitStore(), { provider_a: minute(1), provider_b: [], provider_c: [] }));
    await translateText({ ...enLug, provider: "provider_a" }, deps);
    const e = await apiError(translateText({ ...enLug, provider: "provider_a" }, deps));
    expect(e.code).toBe("PROVIDER_ERROR");
    expect(e.status).toBe(503);
    expect(e.message).toContain("budget");
    const retryAfter = Number(e.options.headers?.["Retry-After"]);
    expect(retryAfter).toBeGreaterThanOrEqual(59);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(servers.provider_c.stats.requests).toBe(0);
  });

  describe("on a real Redis", () => {
    let redis: RedisServer;
    const stores: RedisRateLimitStore[] = [];
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await Promise.all(stores.map((s) => s.close()));
      await redis?.stop();
    });

    it("two instances share one budget: together they send provider_a exactly its budget, then both fall back", async () => {
      const prefix = `budget-${randomUUID()}`;
      const rules = { provider_a: minute(3), provider_b: [], provider_c: [] };
      const [one, two] = [0, 1].map(() => {
        const store = new RedisRateLimitStore({ url: redis.url, timeoutMs: 1_000, prefix });
        stores.push(store);
        return instance(new UpstreamBudgets(store, rules));
      });
      const served = [];
      for (let i = 0; i < 6; i++) served.push((await translateText(enLug, i % 2 ? one : two)).provider);
      expect(served).toEqual(["provider_a", "provider_a", "provider_a", "provider_c", "provider_c", "provider_c"]);
      expect(servers.provider_a.stats.translations.calls).toBe(3);
    });
  });
});
