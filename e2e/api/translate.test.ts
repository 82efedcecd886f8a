import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorServer, startEmulatorServer } from "@/lib/providers/sandbox";
import { call, expectEnvelope, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";

/** POST /api/v1/translate and /translate/batch over HTTP against the built app (sandbox providers, and live clients on loopback emulators). */

let app: RunningApp;
let key: string;

beforeAll(async () => {
  app = await startApp();
  key = await mintKey(app.url, "translate tests");
});
afterAll(stopAllApps);

const translate = (json: unknown, k = key) => call(app.url, "POST", "/api/v1/translate", { key: k, json });
const batch = (json: unknown) => call(app.url, "POST", "/api/v1/translate/batch", { key, json });

describe("POST /api/v1/translate (sandbox providers)", () => {
  it("translates with the documented response fields, visibly marked as sandbox in body and header", async () => {
    const res = await translate({ text: "  Good morning  ", target_lang: "LUG", source_lang: "en" });
    expect(res.status).toBe(200);
    const b = res.body;
    expect(b).toMatchObject({
      detected_source_lang: "en",
      target_lang: "LUG",
      provider: "provider_a",
      model_used: "provider_a/sunflower",
      quality_score: 0.92,
      characters_translated: 12,
      sandbox: true,
      fallback_used: false,
    });
    expect(b.translated_text).toMatch(/^\[sandbox:/);
    expect(Number.isInteger(b.latency_ms)).toBe(true);
    expect(res.headers.get("x-lugha-sandbox")).toBe("true");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
  });

  it("routes by the documented chain: provider_b for Khaya pairs, provider_c with a named model otherwise", async () => {
    const b = await translate({ text: "Good morning", target_lang: "tw", source_lang: "en" });
    expect(b.body).toMatchObject({ provider: "provider_b", quality_score: 0.9 });
    const c = await translate({ text: "Good morning", target_lang: "sw", source_lang: "en" });
    expect(c.body).toMatchObject({ provider: "provider_c", model_used: "provider_c/Helsinki-NLP/opus-mt-en-sw", quality_score: 0.85 });
  });

  it("detects the source when omitted; short greetings work", async () => {
    const res = await translate({ text: "Good morning", target_lang: "lug" });
    expect(res.status).toBe(200);
    expect(res.body.detected_source_lang).toBe("en");
    expect(res.body.detected_source_confidence).toBeGreaterThan(0.5);
  });

  it.each([
    ["missing text", { target_lang: "lug" }, "VALIDATION_ERROR", ["body", "text"]],
    ["text not a string", { text: 5, target_lang: "lug" }, "VALIDATION_ERROR", ["body", "text"]],
    ["missing target_lang", { text: "Hello" }, "VALIDATION_ERROR", ["body", "target_lang"]],
    ["whitespace-only text", { text: "  \n ", target_lang: "lug", source_lang: "en" }, "VALIDATION_ERROR", ["body", "text"]],
    ["unknown target", { text: "Hello", target_lang: "xx", source_lang: "en" }, "UNSUPPORTED_LANGUAGE", ["body", "target_lang"]],
    ["unknown source", { text: "Hello", target_lang: "lug", source_lang: "zz" }, "UNSUPPORTED_LANGUAGE", ["body", "source_lang"]],
    ["bad provider", { text: "Hello", target_lang: "lug", provider: "khaya" }, "VALIDATION_ERROR", ["body", "provider"]],
    ["same language (alias)", { text: "Hello", target_lang: "EN", source_lang: "eng" }, "SAME_LANGUAGE", undefined],
    ["pair nobody serves", { text: "Apwoyo", target_lang: "yo", source_lang: "ach" }, "UNSUPPORTED_LANGUAGE_PAIR", undefined],
    [
      "forced provider without the pair",
      { text: "Hello", target_lang: "lug", source_lang: "en", provider: "provider_b" },
      "PROVIDER_UNSUPPORTED_PAIR",
      undefined,
    ],
    ["over 5,000 characters", { text: "a".repeat(5_001), target_lang: "lug", source_lang: "en" }, "TEXT_TOO_LONG", ["body", "text"]],
    [
      "over provider_b's 1,000 characters, forced",
      { text: "a".repeat(1_001), target_lang: "tw", source_lang: "en", provider: "provider_b" },
      "TEXT_TOO_LONG",
      ["body", "text"],
    ],
  ])("422 for %s", async (_name, json, code, loc) => {
    const res = await translate(json);
    const d = expectEnvelope(res, 422, code as string);
    if (loc) expect(d.errors?.[0].loc).toEqual(loc);
    expect(res.text).not.toContain("aaaaaaaaaa"); // the input is never echoed
  });

  it("401 without a key, 405 for GET", async () => {
    expectEnvelope(await call(app.url, "POST", "/api/v1/translate", { json: { text: "Hi", target_lang: "lug" } }), 401, "MISSING_API_KEY");
    expectEnvelope(await call(app.url, "GET", "/api/v1/translate", { key }), 405, "METHOD_NOT_ALLOWED");
  });
});

describe("POST /api/v1/translate/batch (sandbox providers)", () => {
  it("translates items independently, in order, with per-item errors and HTTP 200", async () => {
    const res = await batch({
      items: [
        { id: "a", text: "Good morning", target_lang: "lug", source_lang: "en" },
        { id: "b", text: "Good morning", target_lang: "xx", source_lang: "en" },
        { id: "c", text: "Good morning", target_lang: "en", source_lang: "eng" },
        { id: "d", text: "Thank you", target_lang: "yo" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 4, succeeded: 2, failed: 2, sandbox: true });
    expect(res.body.results.map((r: { id: string }) => r.id)).toEqual(["a", "b", "c", "d"]);
    expect(res.body.results[0]).toMatchObject({ provider: "provider_a", error: null, error_code: null, target_lang: "lug" });
    expect(res.body.results[1]).toMatchObject({
      error_code: "UNSUPPORTED_LANGUAGE",
      translated_text: null,
      model_used: null,
      provider: null,
      quality_score: null,
      detected_source_lang: null,
      target_lang: null,
    });
    expect(res.body.results[2].error_code).toBe("SAME_LANGUAGE");
    expect(res.body.results[3]).toMatchObject({ provider: "provider_b", detected_source_lang: "en" });
    expect(Number.isInteger(res.body.total_latency_ms)).toBe(true);
    expect(res.headers.get("x-lugha-sandbox")).toBe("true");
  });

  it("51 items → 422 BATCH_TOO_LARGE; none → 422 VALIDATION_ERROR", async () => {
    const items = Array.from({ length: 51 }, (_, i) => ({ id: String(i), text: "Hi", target_lang: "lug" }));
    expectEnvelope(await batch({ items }), 422, "BATCH_TOO_LARGE");
    const d = expectEnvelope(await batch({ items: [] }), 422, "VALIDATION_ERROR");
    expect(d.errors?.[0].loc).toEqual(["body", "items"]);
    expectEnvelope(await batch({}), 422, "VALIDATION_ERROR");
    expectEnvelope(await batch({ items: "nope" }), 422, "VALIDATION_ERROR");
  });

  it("a malformed item or duplicate ids fail the whole request, located precisely", async () => {
    const bad = expectEnvelope(
      await batch({
        items: [
          { id: "1", text: "Hi", target_lang: "lug" },
          { id: "2", target_lang: "lug" },
        ],
      }),
      422,
      "VALIDATION_ERROR",
    );
    expect(bad.errors?.[0].loc).toEqual(["body", "items", 1, "text"]);
    const dup = expectEnvelope(
      await batch({
        items: [
          { id: "x", text: "Hi", target_lang: "lug" },
          { id: "x", text: "Yo", target_lang: "lug" },
        ],
      }),
      422,
      "VALIDATION_ERROR",
    );
    expect(dup.errors?.[0]).toMatchObject({ loc: ["body", "items", 1, "id"], type: "duplicate_id" });
  });
});

describe("live clients against loopback emulators (fallback over HTTP)", () => {
  let live: RunningApp;
  let liveKey: string;
  let emulators: EmulatorServer[];

  beforeAll(async () => {
    emulators = await Promise.all([startEmulatorServer("sunbird"), startEmulatorServer("khaya"), startEmulatorServer("hf")]);
    const [a, b, c] = emulators;
    live = await startApp({
      // The same request is sent while the upstreams fail in turn: each must reach them (cache.test.ts tests the cache).
      env: {
        PROVIDER_MODE: "live",
        SUNBIRD_API_URL: a.url,
        KHAYA_API_URL: b.url,
        HF_API_URL: c.url,
        TRANSLATE_DEADLINE_MS: "5000",
        TRANSLATION_CACHE: "off",
      },
    });
    liveKey = await mintKey(live.url, "live tests");
  });
  afterAll(async () => {
    await live?.stop();
    await Promise.all((emulators ?? []).map((e) => e.close()));
  });

  it("serves from the upstream without the sandbox marker header", async () => {
    const res = await call(live.url, "POST", "/api/v1/translate", {
      key: liveKey,
      json: { text: "Good morning", target_lang: "lug", source_lang: "en" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_a", sandbox: false });
    expect(res.headers.get("x-lugha-sandbox")).toBeNull();
    expect(emulators[0].stats.requests).toBeGreaterThan(0);
  });

  it("provider_a down → provider_c serves and the response says so", async () => {
    emulators[0].setControls({ failMode: "status", status: 503 });
    const res = await call(live.url, "POST", "/api/v1/translate", {
      key: liveKey,
      json: { text: "Good morning", target_lang: "lug", source_lang: "en" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_c", fallback_used: true, providers_tried: ["provider_a", "provider_c"] });
  });

  it("everything down → 503 PROVIDER_ERROR naming the providers", async () => {
    for (const e of emulators) e.setControls({ failMode: "status", status: 500 });
    const res = await call(live.url, "POST", "/api/v1/translate", {
      key: liveKey,
      json: { text: "Good morning", target_lang: "lug", source_lang: "en" },
    });
    const d = expectEnvelope(res, 503, "PROVIDER_ERROR");
    expect(d.message).toContain("provider_a");
    expect(d.message).toContain("provider_c");
    for (const e of emulators) e.reset();
  });
});
