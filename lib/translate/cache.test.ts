import { describe, expect, it, vi } from "vitest";
import { createTranslationCache, GuardedCacheStore, SingleFlight, TranslationCache } from "@/lib/cache";
import { loadConfig } from "@/lib/config";
import { processLog } from "@/lib/kit/log";
import { apiError } from "@/lib/kit/test-support";
import defaultModelMap from "@/lib/languages/hf-models.json";
import { resolveModelMap } from "@/lib/languages/models";
import { type ProviderClient, ProviderError, type ProviderId, type TranslateRequest } from "@/lib/providers/types";
import { cacheSettings } from "@/lib/server/settings";
import { translateBatch } from "./batch";
import { batchCached, bypassRequested, cacheStatus, type TranslationCaching, translationUsage } from "./cache";
import { type TranslateDeps, type TranslateInput, type TranslateOptions, translateText } from "./service";

/**
 * The translation cache and coalescing around the translate chain, with a real in-process cache (injected clock) and
 * provider clients that count their calls. Over HTTP against the built app: e2e/api/cache.test.ts.
 */

/** A provider client whose answer the test sets, counting every call; `hold` keeps calls pending until released. */
class CountingClient implements ProviderClient {
  readonly baseUrl: string;
  calls: TranslateRequest[] = [];
  answer: (req: TranslateRequest) => string = (req) => `${this.id}(${req.text})`;
  failing?: ProviderError["kind"];
  private held?: Promise<void>;
  private release?: () => void;

  constructor(
    readonly id: ProviderId,
    readonly mode: "live" | "sandbox" = "live",
  ) {
    this.baseUrl = `fake://${id}`;
  }

  hold() {
    this.held = new Promise((r) => (this.release = r));
  }

  unhold() {
    this.release?.();
    this.held = undefined;
  }

  async translate(req: TranslateRequest) {
    this.calls.push(req);
    if (this.held) await this.held;
    if (this.failing) throw new ProviderError(this.id, this.failing, `fake ${this.failing}`);
    return { translatedText: this.answer(req), model: req.hf?.model ?? `${this.id}-model` };
  }
}

function setup(env: Record<string, string> = {}, modes: Partial<Record<ProviderId, "live" | "sandbox">> = {}) {
  let now = 1_000_000;
  const clock = {
    advance: (ms: number) => {
      now += ms;
    },
  };
  const clients = {
    provider_a: new CountingClient("provider_a", modes.provider_a),
    provider_b: new CountingClient("provider_b", modes.provider_b),
    provider_c: new CountingClient("provider_c", modes.provider_c),
  };
  const caching: TranslationCaching = { cache: createTranslationCache(cacheSettings(loadConfig(env)), () => now), flights: new SingleFlight() };
  const deps: TranslateDeps = { providers: clients, deadlineMs: 5_000, caching };
  const run = (input: TranslateInput, apiKeyId = "key-1", bypass = false, options: TranslateOptions = {}) =>
    translateText(input, deps, { ...options, caller: { apiKeyId, bypass } });
  const upstreamCalls = () => Object.values(clients).reduce((n, c) => n + c.calls.length, 0);
  return { clients, caching, deps, run, clock, upstreamCalls };
}

const LUGANDA = { text: "Good morning", source_lang: "en", target_lang: "lug" } as const;

describe("translation cache around the chain", () => {
  it("a miss goes upstream and is stored; the same request then hits without an upstream call", async () => {
    const { run, clients } = setup();
    const miss = await run(LUGANDA);
    expect(miss).toMatchObject({ cached: false, provider: "provider_a", fallback_used: false, providers_tried: ["provider_a"] });
    const hit = await run(LUGANDA);
    expect(clients.provider_a.calls).toHaveLength(1);
    expect(hit).toMatchObject({
      cached: true,
      translated_text: miss.translated_text,
      provider: "provider_a",
      model_used: miss.model_used,
      quality_score: miss.quality_score,
      providers_tried: [],
      fallback_used: false,
      requested_provider: "auto",
      characters_translated: 12,
      sandbox: false,
    });
    expect(Number.isInteger(hit.latency_ms)).toBe(true);
  });

  it("a hit reports this request's own fields: latency from its start, target as sent, detection", async () => {
    const { run } = setup();
    await run({ text: "Good morning", target_lang: "lug" });
    const startedAt = performance.now() - 40;
    const hit = await run({ text: "  Good morning\n", target_lang: "LUG", source_lang: null }, "key-1", false, { startedAt });
    expect(hit).toMatchObject({ cached: true, target_lang: "LUG", detected_source_lang: "en" });
    expect(hit.detected_source_confidence).toBeGreaterThan(0.5);
    expect(hit.latency_ms).toBeGreaterThanOrEqual(40);
  });

  it("the key separates everything that changes the answer: text, languages, the provider as requested", async () => {
    const { run, upstreamCalls } = setup();
    const requests: TranslateInput[] = [
      LUGANDA,
      { ...LUGANDA, text: "Good evening" },
      { ...LUGANDA, target_lang: "ach" },
      { ...LUGANDA, source_lang: "ach", target_lang: "lug" },
      { ...LUGANDA, provider: "provider_a" },
      { ...LUGANDA, provider: "provider_c" },
    ];
    for (const r of requests) expect((await run(r)).cached).toBe(false);
    expect(upstreamCalls()).toBe(requests.length);
    for (const r of requests) expect((await run(r)).cached).toBe(true);
    expect(upstreamCalls()).toBe(requests.length);
  });

  it("scope key (default): a second key never hits the first key's entry; scope global shares it", async () => {
    const perKey = setup();
    await perKey.run(LUGANDA, "key-1");
    expect((await perKey.run(LUGANDA, "key-2")).cached).toBe(false);
    expect((await perKey.run(LUGANDA, "key-2")).cached).toBe(true);
    expect(perKey.upstreamCalls()).toBe(2);

    const shared = setup({ TRANSLATION_CACHE_SCOPE: "global" });
    await shared.run(LUGANDA, "key-1");
    expect((await shared.run(LUGANDA, "key-2")).cached).toBe(true);
    expect(shared.upstreamCalls()).toBe(1);
  });

  it("an entry lives for TRANSLATION_CACHE_TTL_SECONDS and not longer", async () => {
    const { run, clock, upstreamCalls } = setup({ TRANSLATION_CACHE_TTL_SECONDS: "60" });
    await run(LUGANDA);
    clock.advance(59_000);
    expect((await run(LUGANDA)).cached).toBe(true);
    clock.advance(2_000);
    expect((await run(LUGANDA)).cached).toBe(false);
    expect(upstreamCalls()).toBe(2);
  });

  it("bypass: no read, a fresh upstream call, and the fresh answer replaces the stored one", async () => {
    const { run, clients } = setup();
    await run(LUGANDA);
    clients.provider_a.answer = () => "Wasuze otya nno";
    const fresh = await run(LUGANDA, "key-1", true);
    expect(fresh).toMatchObject({ cached: false, translated_text: "Wasuze otya nno", providers_tried: ["provider_a"] });
    expect(clients.provider_a.calls).toHaveLength(2);
    expect(await run(LUGANDA)).toMatchObject({ cached: true, translated_text: "Wasuze otya nno" });
    expect(clients.provider_a.calls).toHaveLength(2);
  });

  it("errors are never cached: after a 503 the next request goes upstream again", async () => {
    const { run, clients } = setup();
    clients.provider_a.failing = "unavailable";
    clients.provider_c.failing = "unavailable";
    expect((await apiError(run(LUGANDA))).code).toBe("PROVIDER_ERROR");
    clients.provider_a.failing = undefined;
    expect((await run(LUGANDA)).cached).toBe(false);
    expect((await run(LUGANDA)).cached).toBe(true);
    expect(clients.provider_a.calls).toHaveLength(2); // the 503 and the miss; the hit made no call
  });

  it("a fallback answer is served but not stored, so an outage's answer does not outlive the outage", async () => {
    const { run, clients } = setup();
    clients.provider_a.failing = "timeout";
    expect(await run(LUGANDA)).toMatchObject({ cached: false, provider: "provider_c", fallback_used: true });
    clients.provider_a.failing = undefined;
    expect(await run(LUGANDA)).toMatchObject({ cached: false, provider: "provider_a", fallback_used: false });
    expect(await run(LUGANDA)).toMatchObject({ cached: true, provider: "provider_a" });
  });

  it("live and sandbox answers never mix: the provider mode is part of the key", async () => {
    const live = setup();
    const sandbox = setup({}, { provider_a: "sandbox" });
    const store = live.caching.cache;
    sandbox.deps.caching = { cache: store, flights: new SingleFlight() }; // one store, as two deployments sharing Redis
    await live.run(LUGANDA);
    expect(await sandbox.run(LUGANDA)).toMatchObject({ cached: false, sandbox: true });
    expect(await sandbox.run(LUGANDA)).toMatchObject({ cached: true, sandbox: true });
  });

  it("a change of the model map reaches the pairs it changes, not the others", async () => {
    const before = setup();
    await before.run({ text: "Good morning", source_lang: "en", target_lang: "sw" });
    await before.run(LUGANDA);
    const models = resolveModelMap({ dedicated: { ...defaultModelMap.dedicated, "en-sw": "Helsinki-NLP/opus-mt-en-swc" } });
    const after = { ...before.deps, models };
    const swahili = await translateText({ text: "Good morning", source_lang: "en", target_lang: "sw" }, after, {
      caller: { apiKeyId: "key-1", bypass: false },
    });
    expect(swahili).toMatchObject({ cached: false, model_used: "provider_c/Helsinki-NLP/opus-mt-en-swc" });
    expect((await translateText(LUGANDA, after, { caller: { apiKeyId: "key-1", bypass: false } })).cached).toBe(true);
  });

  it("TRANSLATION_CACHE=off: nothing is stored and nothing is shared", async () => {
    const { run, clients } = setup({ TRANSLATION_CACHE: "off" });
    clients.provider_a.hold();
    const pending = [run(LUGANDA), run(LUGANDA)];
    await vi.waitFor(() => expect(clients.provider_a.calls).toHaveLength(2));
    clients.provider_a.unhold();
    for (const r of await Promise.all(pending)) expect(r.cached).toBe(false);
    expect((await run(LUGANDA)).cached).toBe(false);
    expect(clients.provider_a.calls).toHaveLength(3);
  });

  it("a request without a caller (internal use) is neither cached nor coalesced", async () => {
    const { deps, clients } = setup();
    await translateText(LUGANDA, deps);
    expect((await translateText(LUGANDA, deps)).cached).toBe(false);
    expect(clients.provider_a.calls).toHaveLength(2);
  });
});

describe("store outage", () => {
  it("a store that fails is a miss: the request is served uncached, and the cache reports itself degraded", async () => {
    const warn = vi.spyOn(processLog(), "warn").mockImplementation(() => {});
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });
    const down = new GuardedCacheStore(
      { name: "redis", get: () => Promise.reject(refused), set: () => Promise.reject(refused), health: async () => ({ ok: false }) },
      { timeoutMs: 50 },
    );
    const { deps, clients } = setup();
    deps.caching = {
      cache: new TranslationCache(cacheSettings(loadConfig({ REDIS_URL: "redis://127.0.0.1:1" })), down),
      flights: new SingleFlight(),
    };
    const caller = { apiKeyId: "key-1", bypass: false };
    expect(await translateText(LUGANDA, deps, { caller })).toMatchObject({ cached: false, provider: "provider_a" });
    expect(await translateText(LUGANDA, deps, { caller })).toMatchObject({ cached: false, provider: "provider_a" });
    expect(clients.provider_a.calls).toHaveLength(2);
    expect(await deps.caching.cache.status()).toMatchObject({
      enabled: true,
      backend: "redis",
      degraded: true,
      last_error: "unreachable (ECONNREFUSED)",
    });
    warn.mockRestore();
  });
});

describe("coalescing", () => {
  it("100 concurrent identical requests make 1 upstream call; one miss and 99 hits, all with its answer", async () => {
    const { run, clients } = setup();
    clients.provider_a.hold();
    const pending = Array.from({ length: 100 }, () => run(LUGANDA));
    await vi.waitFor(() => expect(clients.provider_a.calls).toHaveLength(1));
    clients.provider_a.unhold();
    const results = await Promise.all(pending);
    expect(clients.provider_a.calls).toHaveLength(1);
    expect(results.filter((r) => !r.cached)).toHaveLength(1);
    expect(new Set(results.map((r) => r.translated_text)).size).toBe(1);
    for (const r of results.filter((x) => x.cached)) expect(r).toMatchObject({ providers_tried: [], fallback_used: false, provider: "provider_a" });
  });

  it("never across keys in the default scope", async () => {
    const { run, clients } = setup();
    clients.provider_a.hold();
    const pending = [run(LUGANDA, "key-1"), run(LUGANDA, "key-2"), run(LUGANDA, "key-1")];
    await vi.waitFor(() => expect(clients.provider_a.calls).toHaveLength(2));
    clients.provider_a.unhold();
    expect((await Promise.all(pending)).map((r) => r.cached)).toEqual([false, false, true]);
  });

  it("a failure reaches every request in flight and is not remembered", async () => {
    const { run, clients } = setup();
    clients.provider_a.failing = "unavailable";
    clients.provider_c.failing = "unavailable";
    clients.provider_a.hold();
    const pending = Array.from({ length: 5 }, () => apiError(run(LUGANDA)));
    await vi.waitFor(() => expect(clients.provider_a.calls).toHaveLength(1));
    clients.provider_a.unhold();
    for (const e of await Promise.all(pending)) expect(e.code).toBe("PROVIDER_ERROR");
    clients.provider_a.failing = undefined;
    expect((await run(LUGANDA)).cached).toBe(false);
    expect(clients.provider_a.calls).toHaveLength(2);
  });

  it("a bypassing request makes its own call instead of joining one in flight", async () => {
    const { run, clients } = setup();
    clients.provider_a.hold();
    const pending = [run(LUGANDA), run(LUGANDA, "key-1", true)];
    await vi.waitFor(() => expect(clients.provider_a.calls).toHaveLength(2));
    clients.provider_a.unhold();
    expect((await Promise.all(pending)).map((r) => r.cached)).toEqual([false, false]);
  });

  it("a request that joined another's call stops waiting at its own deadline; the call goes on for the first", async () => {
    const { run, clients } = setup();
    clients.provider_a.hold();
    const first = run(LUGANDA);
    await vi.waitFor(() => expect(clients.provider_a.calls).toHaveLength(1));
    const late = await apiError(run(LUGANDA, "key-1", false, { deadline: Date.now() + 30 }));
    expect(late.code).toBe("PROVIDER_ERROR");
    expect(late.message).toMatch(/identical request/);
    clients.provider_a.unhold();
    expect((await first).cached).toBe(false);
  });
});

describe("batch", () => {
  it("uses the cache item by item: hits and misses mixed, identical items share one call, failures uncached", async () => {
    const { deps, clients, upstreamCalls } = setup();
    const caller = { apiKeyId: "key-1", bypass: false };
    await translateText(LUGANDA, deps, { caller });
    const result = await translateBatch(
      [
        { id: "hit", ...LUGANDA },
        { id: "miss", text: "Thank you", source_lang: "en", target_lang: "tw" },
        { id: "twin-1", text: "Where is the market?", source_lang: "en", target_lang: "sw" },
        { id: "twin-2", text: "Where is the market?", source_lang: "en", target_lang: "sw" },
        { id: "bad", text: "Hello", source_lang: "en", target_lang: "xx" },
      ],
      undefined,
      deps,
      { caller },
    );
    expect(result.results.map((r) => [r.id, r.cached])).toEqual([
      ["hit", true],
      ["miss", false],
      ["twin-1", false],
      ["twin-2", true],
      ["bad", null],
    ]);
    expect(clients.provider_a.calls).toHaveLength(1);
    expect(upstreamCalls()).toBe(3);
    expect(batchCached(result)).toBe(false);
    // Characters count only what went upstream: "Thank you" and one "Where is the market?".
    expect(translationUsage(result)).toEqual({ characters: 9 + 20, cacheHits: 2 });

    const again = await translateBatch([{ id: "a", ...LUGANDA }], undefined, deps, { caller });
    expect(batchCached(again)).toBe(true);
    const bypassed = await translateBatch([{ id: "a", ...LUGANDA }], undefined, deps, { caller: { ...caller, bypass: true } });
    expect(bypassed.results[0].cached).toBe(false);
    expect(clients.provider_a.calls).toHaveLength(2);
  });
});

describe("request and response helpers", () => {
  it("bypass: Cache-Control no-cache among other directives, any case, or the body flag false", () => {
    const h = (v?: string) => new Headers(v === undefined ? {} : { "cache-control": v });
    expect(bypassRequested(h("no-cache"), undefined)).toBe(true);
    expect(bypassRequested(h("max-age=0, No-Cache"), undefined)).toBe(true);
    expect(bypassRequested(h(), false)).toBe(true);
    expect(bypassRequested(h(), true)).toBe(false);
    expect(bypassRequested(h("no-store"), undefined)).toBe(false);
    expect(bypassRequested(h("max-age=0"), undefined)).toBe(false);
  });

  it("X-Lugha-Cache is hit, miss or bypass, and absent when the cache is off", () => {
    const on = setup().caching;
    expect(cacheStatus(on, false, true)).toBe("hit");
    expect(cacheStatus(on, false, false)).toBe("miss");
    expect(cacheStatus(on, true, false)).toBe("bypass");
    expect(cacheStatus(setup({ TRANSLATION_CACHE: "off" }).caching, true, false)).toBeUndefined();
  });

  it("usage of a single translation: characters when sent upstream, a cache hit otherwise", async () => {
    const { run } = setup();
    expect(translationUsage(await run(LUGANDA))).toEqual({ characters: 12, cacheHits: 0 });
    expect(translationUsage(await run(LUGANDA))).toEqual({ characters: 0, cacheHits: 1 });
  });
});
