import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { type EmulatorServer, startEmulatorServer } from "@/lib/providers/sandbox";
import { call, expectEnvelope, type JsonResponse, mintKey } from "../support/api";
import { OPERATOR_HEADERS, type RunningApp, startApp, stopAllApps } from "../support/app";
import { sql } from "../support/db";
import { liveEnv as emulatorEnv } from "../support/emulators";
import { type RedisServer, startRedis } from "../support/redis";

/*
 * The translation cache and coalescing over HTTP against the built app: live provider clients on loopback emulators,
 * so every upstream call is counted where it lands (stats.translations.calls). Unit tests: lib/translate/cache.test.ts.
 */

let emulators: [EmulatorServer, EmulatorServer, EmulatorServer];
let sunbird: EmulatorServer;

const liveEnv = (extra: Record<string, string> = {}) => emulatorEnv(emulators, extra);
const upstreamCalls = () => emulators.reduce((n, e) => n + e.stats.translations.calls, 0);
const luganda = (text: string) => ({ text, target_lang: "lug", source_lang: "en" });

beforeAll(async () => {
  emulators = await Promise.all([startEmulatorServer("sunbird"), startEmulatorServer("khaya"), startEmulatorServer("hf")]);
  sunbird = emulators[0];
});
afterAll(async () => {
  await stopAllApps();
  await Promise.all((emulators ?? []).map((e) => e.close()));
});
beforeEach(() => {
  for (const e of emulators) e.reset();
});

describe("in-process cache (default)", () => {
  let app: RunningApp;
  let key: string;
  const translate = (json: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
    call(app.url, "POST", "/api/v1/translate", { key: options.key ?? key, json, headers: options.headers });
  const batch = (json: unknown, headers?: Record<string, string>) => call(app.url, "POST", "/api/v1/translate/batch", { key, json, headers });

  // On PGlite a directory, so the last test can read the usage rows once the app has stopped.
  const dir = inject("database") === "pglite" ? mkdtempSync(path.join(tmpdir(), "lugha-cache-")) : undefined;

  beforeAll(async () => {
    // The limit is raised for the coalescing test's 100 requests.
    app = await startApp({ databaseUrl: dir && `pglite:${dir}`, env: liveEnv({ RATE_LIMIT_TRANSLATE: "1000/60s" }) });
    key = await mintKey(app.url, "cache tests");
  });
  afterAll(async () => {
    await app?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a miss goes upstream; the same request then hits with no upstream call, and still counts as a request", async () => {
    const miss = await translate(luganda("Good morning"));
    expect(miss.status).toBe(200);
    expect(miss.headers.get("x-lugha-cache")).toBe("miss");
    expect(miss.body).toMatchObject({ cached: false, provider: "provider_a", providers_tried: ["provider_a"] });
    expect(sunbird.stats.translations.calls).toBe(1);

    const hit = await translate({ ...luganda("  Good morning "), target_lang: "LUG" });
    expect(hit.status).toBe(200);
    expect(hit.headers.get("x-lugha-cache")).toBe("hit");
    expect(hit.body).toMatchObject({
      cached: true,
      translated_text: miss.body.translated_text,
      provider: "provider_a",
      model_used: miss.body.model_used,
      quality_score: miss.body.quality_score,
      providers_tried: [],
      fallback_used: false,
      target_lang: "LUG",
      characters_translated: 12,
      sandbox: false,
    });
    expect(Number.isInteger(hit.body.latency_ms)).toBe(true);
    expect(sunbird.stats.translations.calls).toBe(1);
    // A hit spends the rate limit like any request.
    expect(Number(hit.headers.get("x-ratelimit-remaining"))).toBe(Number(miss.headers.get("x-ratelimit-remaining")) - 1);
  });

  it('bypass with Cache-Control: no-cache or "cache": false: a fresh upstream call, whose result is stored', async () => {
    await translate(luganda("Thank you very much"));
    const byHeader = await translate(luganda("Thank you very much"), { headers: { "Cache-Control": "no-cache" } });
    expect(byHeader.headers.get("x-lugha-cache")).toBe("bypass");
    expect(byHeader.body).toMatchObject({ cached: false, providers_tried: ["provider_a"] });
    const byBody = await translate({ ...luganda("Thank you very much"), cache: false });
    expect(byBody.headers.get("x-lugha-cache")).toBe("bypass");
    expect(sunbird.stats.translations.calls).toBe(3);
    expect((await translate(luganda("Thank you very much"))).headers.get("x-lugha-cache")).toBe("hit");
    expect(sunbird.stats.translations.calls).toBe(3);
    expectEnvelope(await translate({ ...luganda("Thank you very much"), cache: "no" }), 422, "VALIDATION_ERROR");
  });

  it("scope: a second key does not hit the first key's entry", async () => {
    const other = await mintKey(app.url, "cache tests, second key");
    await translate(luganda("Good evening"));
    const first = await translate(luganda("Good evening"), { key: other });
    expect(first.headers.get("x-lugha-cache")).toBe("miss");
    expect(first.body.cached).toBe(false);
    expect((await translate(luganda("Good evening"), { key: other })).headers.get("x-lugha-cache")).toBe("hit");
    expect(sunbird.stats.translations.calls).toBe(2);
  });

  it("errors are never cached: after a 503 the same request goes upstream and is served", async () => {
    for (const e of emulators) e.setControls({ failMode: "status", status: 500 });
    expectEnvelope(await translate(luganda("See you tomorrow")), 503, "PROVIDER_ERROR");
    for (const e of emulators) e.reset();
    const served = await translate(luganda("See you tomorrow"));
    expect(served.headers.get("x-lugha-cache")).toBe("miss");
    expect(served.body).toMatchObject({ cached: false, provider: "provider_a" });
    expect((await translate(luganda("See you tomorrow"))).body.cached).toBe(true);
    expect(sunbird.stats.translations.calls).toBe(1);
  });

  it("100 concurrent identical requests make 1 upstream call", async () => {
    sunbird.setControls({ latencyMs: 1_000 }); // every request arrives while the first call is in flight
    const results = await Promise.all(Array.from({ length: 100 }, () => translate(luganda("Welcome to Kampala"))));
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(sunbird.stats.translations.calls).toBe(1);
    expect(upstreamCalls()).toBe(1);
    expect(results.filter((r) => r.headers.get("x-lugha-cache") === "miss")).toHaveLength(1);
    expect(results.filter((r) => r.body.cached === true && r.headers.get("x-lugha-cache") === "hit")).toHaveLength(99);
    expect(new Set(results.map((r) => r.body.translated_text)).size).toBe(1);
  });

  it("batch items use the cache one by one: hits and misses mixed in one batch", async () => {
    await translate(luganda("Good night"));
    const res = await batch({
      items: [
        { id: "hit", ...luganda("Good night") },
        { id: "miss", ...luganda("How are you?") },
        { id: "bad", ...luganda("Hello"), target_lang: "xx" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-lugha-cache")).toBe("miss");
    expect(res.body.results.map((r: { id: string; cached: boolean | null }) => [r.id, r.cached])).toEqual([
      ["hit", true],
      ["miss", false],
      ["bad", null],
    ]);
    expect(sunbird.stats.translations.calls).toBe(2);

    const allHits = await batch({ items: [{ id: "a", ...luganda("Good night") }] });
    expect(allHits.headers.get("x-lugha-cache")).toBe("hit");
    const bypassed = await batch({ items: [{ id: "a", ...luganda("Good night") }], cache: false });
    expect(bypassed.headers.get("x-lugha-cache")).toBe("bypass");
    expect(bypassed.body.results[0].cached).toBe(false);
    const byHeader = await batch({ items: [{ id: "a", ...luganda("Good night") }] }, { "cache-control": "no-cache" });
    expect(byHeader.headers.get("x-lugha-cache")).toBe("bypass");
    expect(sunbird.stats.translations.calls).toBe(4);
  });

  it("browsers may send Cache-Control and read X-Lugha-Cache (CORS)", async () => {
    const res = await fetch(`${app.url}/api/v1/translate`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://app.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, cache-control",
      },
    });
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("cache-control");
    expect(res.headers.get("access-control-expose-headers")?.toLowerCase()).toContain("x-lugha-cache");
  });

  it("/health shows the cache: its status to anyone, its backend and state to the operator", async () => {
    expect((await call(app.url, "GET", "/health")).body.checks.cache).toEqual({ status: "ok" });
    const health = await call(app.url, "GET", "/health", { headers: OPERATOR_HEADERS });
    expect(health.body.checks.cache).toMatchObject({ status: "ok", enabled: true, backend: "memory", ok: true, degraded: false, scope: "key" });
  });

  it("the per-day usage row counts cache hits beside the characters sent upstream (last: stops the app)", async () => {
    const counted = await mintKey(app.url, "usage");
    const as = (json: unknown) => call(app.url, "POST", "/api/v1/translate", { key: counted, json });
    await as(luganda("Good morning")); // miss for this key: 12 characters upstream
    await as(luganda("Good morning")); // hit
    await as(luganda("Good morning")); // hit
    await call(app.url, "POST", "/api/v1/translate/batch", {
      key: counted,
      json: {
        items: [
          { id: "1", ...luganda("Good morning") },
          { id: "2", ...luganda("Thanks") },
        ],
      }, // a hit and 6 characters
    });
    const me = await call(app.url, "GET", "/api/v1/auth/keys/me", { key: counted });
    expect(me.body.requests_total).toBe(5); // four translations, hits included, and this request
    await app.stop(); // writes the counts; a PGlite directory is readable once its process has gone
    const rows = await sql(
      app.databaseUrl,
      "SELECT u.requests::int AS requests, u.characters_translated::int AS characters, u.cache_hits::int AS cache_hits FROM usage_daily u JOIN api_keys k ON k.id = u.key_id WHERE k.name = 'usage'",
    );
    expect(rows).toEqual([{ requests: 5, characters: 12 + 6, cache_hits: 3 }]);
  });
});

describe("Redis store shared by two instances; a store outage is served uncached", () => {
  let redis: RedisServer;
  let apps: RunningApp[];
  let keys: string[];
  const translate = (i: number, text: string): Promise<JsonResponse> =>
    call(apps[i].url, "POST", "/api/v1/translate", { key: keys[i], json: luganda(text) });

  beforeAll(async () => {
    redis = await startRedis();
    // Scope global, so that the keys minted on each instance share entries whatever the database.
    const env = liveEnv({ REDIS_URL: redis.url, TRANSLATION_CACHE_SCOPE: "global", TRANSLATION_CACHE_TIMEOUT_MS: "300" });
    apps = await Promise.all([startApp({ env }), startApp({ env })]);
    keys = await Promise.all(apps.map((a) => mintKey(a.url, "shared cache")));
  });
  afterAll(async () => {
    await Promise.all((apps ?? []).map((a) => a.stop()));
    await redis?.stop();
  });

  it("an entry stored by one instance is a hit on the other", async () => {
    expect((await translate(0, "Good afternoon")).headers.get("x-lugha-cache")).toBe("miss");
    const other = await translate(1, "Good afternoon");
    expect(other.headers.get("x-lugha-cache")).toBe("hit");
    expect(other.body).toMatchObject({ cached: true, provider: "provider_a" });
    expect(sunbird.stats.translations.calls).toBe(1);
    const health = await call(apps[1].url, "GET", "/health", { headers: OPERATOR_HEADERS });
    expect(health.body.checks.cache).toMatchObject({ status: "ok", backend: "redis", scope: "global", degraded: false });
  });

  it("Redis down: requests are served uncached, never refused, and /health says degraded", async () => {
    await redis.stop();
    for (const text of ["Good afternoon", "Good afternoon"]) {
      const res = await translate(0, text);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-lugha-cache")).toBe("miss");
      expect(res.body).toMatchObject({ cached: false, provider: "provider_a" });
    }
    expect(sunbird.stats.translations.calls).toBe(2);
    expect((await call(apps[0].url, "GET", "/health")).body).toMatchObject({ status: "degraded", checks: { cache: { status: "degraded" } } });
    const health = await call(apps[0].url, "GET", "/health", { headers: OPERATOR_HEADERS });
    expect(health.status).toBe(200);
    expect(health.body.status).toBe("degraded");
    expect(health.body.checks.cache).toMatchObject({ status: "degraded", backend: "redis", degraded: true });
    expect(health.body.checks.cache.last_error).toEqual(expect.any(String));
    expect(JSON.stringify(health.body.checks.cache)).not.toContain("127.0.0.1");
  });
});
