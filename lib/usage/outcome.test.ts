import { describe, expect, it } from "vitest";
import { requestLogEntry, requestOutcome } from "./outcome";

const translation = { detected_source_lang: "en", target_lang: "lug", provider: "provider_a", characters_translated: 12, cached: false, error: null };

describe("requestOutcome", () => {
  it("a translation: its pair, provider and the characters sent upstream; a cache hit counts as a hit", () => {
    expect(requestOutcome("POST /api/v1/translate", 200, translation, true, { provider_a: 1 })).toEqual({
      endpoint: "POST /api/v1/translate",
      status: 200,
      languagePair: "en-lug",
      provider: "provider_a",
      characters: 12,
      cacheHits: 0,
      upstreamCalls: { provider_a: 1 },
    });
    expect(requestOutcome("POST /api/v1/translate", 200, { ...translation, cached: true }, true)).toMatchObject({ characters: 0, cacheHits: 1 });
  });

  it("a batch: the pair and provider its served items share, else none; failed items count nothing", () => {
    const failed = {
      ...translation,
      provider: null,
      detected_source_lang: null,
      target_lang: null,
      error: "x",
      characters_translated: null,
      cached: null,
    };
    const same = requestOutcome("POST /api/v1/translate/batch", 200, { results: [translation, { ...translation, cached: true }, failed] }, true);
    expect(same).toMatchObject({ languagePair: "en-lug", provider: "provider_a", characters: 12, cacheHits: 1 });
    const mixed = requestOutcome(
      "POST /api/v1/translate/batch",
      200,
      { results: [translation, { ...translation, target_lang: "yo", provider: "provider_b" }] },
      true,
    );
    expect(mixed).toMatchObject({ languagePair: "", provider: "", characters: 24 });
  });

  it("speech: the provider only; an error or a plain Response: nothing but endpoint and status", () => {
    expect(requestOutcome("POST /api/v1/speech/tts", 200, { provider: "provider_c" })).toMatchObject({ languagePair: "", provider: "provider_c" });
    expect(requestOutcome("POST /api/v1/translate", 429, undefined, true)).toEqual({
      endpoint: "POST /api/v1/translate",
      status: 429,
      languagePair: "",
      provider: "",
      characters: 0,
      cacheHits: 0,
      upstreamCalls: {},
    });
    expect(requestOutcome("GET /api/v1/languages", 304, new Response(null, { status: 304 }))).toMatchObject({ provider: "", languagePair: "" });
  });
});

describe("requestLogEntry", () => {
  const request = { requestId: "req_1", endpoint: "POST /api/v1/translate", status: 200, latencyMs: 12.6, at: 1, upstreamCalls: 1 };

  const translation = (cached: boolean) => ({ provider: "provider_a", model_used: "provider_a/sunflower", cached, translated_text: "x" });

  it("a translation: provider, model and the cache outcome X-Lugha-Cache gave; the latency in whole ms", () => {
    expect(requestLogEntry({ ...request, cache: "hit" }, translation(true))).toEqual({
      ...request,
      latencyMs: 13,
      provider: "provider_a",
      model: "provider_a/sunflower",
      cache: "hit",
    });
    expect(requestLogEntry({ ...request, cache: "miss" }, translation(false))).toMatchObject({ cache: "miss" });
    // Cache-Control: no-cache or "cache": false: a provider translated it, and the line says it was asked to.
    expect(requestLogEntry({ ...request, cache: "bypass" }, translation(false))).toMatchObject({ cache: "bypass" });
    // TRANSLATION_CACHE=off: no header, no cache outcome (not a "miss": nothing was looked up).
    expect(requestLogEntry({ ...request, cache: null }, translation(false))).toMatchObject({ cache: "" });
  });

  it("a batch: what every served item shares, and a partial cache", () => {
    const item = (cached: boolean, provider = "provider_b") => ({ provider, model_used: `${provider}/m`, cached, error: null });
    const failed = { provider: null, model_used: null, cached: false, error: "x" };
    const batch = { ...request, cache: "miss" };
    expect(requestLogEntry(batch, { results: [item(true), item(false), failed] })).toMatchObject({ provider: "provider_b", cache: "partial" });
    expect(requestLogEntry(batch, { results: [item(false), item(false)] })).toMatchObject({ cache: "miss" });
    expect(requestLogEntry({ ...request, cache: "hit" }, { results: [item(true), item(true, "provider_c")] })).toMatchObject({
      provider: "",
      model: "",
      cache: "hit",
    });
    expect(requestLogEntry({ ...request, cache: "bypass" }, { results: [item(false)] })).toMatchObject({ cache: "bypass" });
    expect(requestLogEntry(request, { results: [item(false)] })).toMatchObject({ cache: "" });
  });

  it("an error names nothing; raw audio takes what the handler said", () => {
    expect(requestLogEntry({ ...request, status: 422 }, { provider: "provider_a" })).toMatchObject({ provider: "", model: "", cache: "" });
    expect(requestLogEntry(request, undefined, { provider: "provider_b", model: "provider_b/tts" })).toMatchObject({
      provider: "provider_b",
      model: "provider_b/tts",
      cache: "",
    });
  });
});
