import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectEnvelope, mintKey } from "../support/api";
import { startApp, stopAllApps, type RunningApp } from "../support/app";

/** GET /api/v1/languages over HTTP: shape, filters, caching, and agreement with translate. */

let app: RunningApp;
let key: string;

beforeAll(async () => {
  app = await startApp();
  key = await mintKey(app.url, "languages tests");
});
afterAll(stopAllApps);

const list = (query = "", headers: Record<string, string> = {}) => call(app.url, "GET", `/api/v1/languages${query}`, { key, headers });

describe("GET /api/v1/languages", () => {
  it("lists the languages with names, regions, per-pair providers and quality, and speech placeholders", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(res.body.languages.length);
    const codes = res.body.languages.map((l: { code: string }) => l.code);
    for (const c of ["en", "lug", "ach", "teo", "nyn", "lgg", "tw", "ee", "gaa", "fat", "yo", "dag", "ki", "gur", "luo", "mer", "kus", "sw"]) expect(codes).toContain(c);
    const yo = res.body.languages.find((l: { code: string }) => l.code === "yo");
    expect(yo).toMatchObject({ name: "Yoruba", native_name: "Yorùbá", region: "West Africa", stt: { supported: false, providers: [] }, tts: { supported: false, providers: [] } });
    expect(yo.translation.targets.find((t: { code: string }) => t.code === "en")).toEqual({ code: "en", provider: "provider_b", model: "khaya-v1", quality_score: 0.9 });
    expect(res.headers.get("etag")).toBeTruthy();
    expect(res.headers.get("x-ratelimit-limit")).toBe("120");
  });

  it("filters by provider, source and capability", async () => {
    const b = await list("?provider=provider_b");
    expect(b.body.languages.map((l: { code: string }) => l.code).sort()).toEqual(["dag", "ee", "en", "fat", "gaa", "gur", "ki", "kus", "luo", "mer", "tw", "yo"]);
    const fromAch = await list("?source=ach");
    expect(fromAch.body.languages.map((l: { code: string }) => l.code).sort()).toEqual(["en", "lgg", "lug", "nyn", "teo"]);
    expect(fromAch.body.languages[0].from_source).toMatchObject({ source: "ach", provider: "provider_a" });
    const tr = await list("?capability=translation");
    expect(tr.body.total).toBeGreaterThan(40);
  });

  it("422 for an invalid filter", async () => {
    expect(expectEnvelope(await list("?capability=telepathy"), 422, "VALIDATION_ERROR").errors?.[0].loc).toEqual(["query", "capability"]);
    expect(expectEnvelope(await list("?provider=khaya"), 422, "VALIDATION_ERROR").errors?.[0].loc).toEqual(["query", "provider"]);
    expect(expectEnvelope(await list("?source=xx"), 422, "UNSUPPORTED_LANGUAGE").errors?.[0].loc).toEqual(["query", "source"]);
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const first = await list();
    const again = await call(app.url, "GET", "/api/v1/languages", { key, headers: { "if-none-match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("requires a key", async () => {
    expectEnvelope(await call(app.url, "GET", "/api/v1/languages"), 401, "MISSING_API_KEY");
  });

  it("what it lists, translate serves with the listed provider (sample over HTTP)", async () => {
    const res = await list("?source=en");
    for (const lang of res.body.languages.slice(0, 12)) {
      const t = await call(app.url, "POST", "/api/v1/translate", { key, json: { text: "Good morning", source_lang: "en", target_lang: lang.code, provider: lang.from_source.provider } });
      expect(t.status, lang.code).toBe(200);
      expect(t.body.model_used).toBe(`${lang.from_source.provider}/${lang.from_source.model}`);
      expect(t.body.quality_score).toBe(lang.from_source.quality_score);
    }
  });
});
