import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeLanguageCode } from "@/lib/languages/registry";
import type { LanguageEntry } from "@/lib/languages/schemas";
import { SUNBIRD_TRANSLATE_LANGUAGES } from "@/lib/providers/codes";
import { makeWav } from "@/lib/providers/sandbox";
import { call, expectEnvelope, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";

/** GET /api/v1/languages over HTTP: shape, filters, caching, and agreement with translate, STT and TTS. */

let app: RunningApp;
let key: string;

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_STT: "1000/60s", RATE_LIMIT_TTS: "1000/60s" } });
  key = await mintKey(app.url, "languages tests");
});
afterAll(stopAllApps);

const list = (query = "", headers: Record<string, string> = {}) => call(app.url, "GET", `/api/v1/languages${query}`, { key, headers });

describe("GET /api/v1/languages", () => {
  it("lists the languages with names, regions, per-pair providers and quality, and speech providers and voices", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(res.body.languages.length);
    const codes = res.body.languages.map((l: { code: string }) => l.code);
    for (const c of ["en", "lug", "ach", "teo", "nyn", "lgg", "tw", "ee", "gaa", "fat", "yo", "dag", "ki", "gur", "luo", "mer", "kus", "sw"])
      expect(codes).toContain(c);
    const yo = res.body.languages.find((l: { code: string }) => l.code === "yo");
    expect(yo).toMatchObject({ name: "Yoruba", native_name: "Yorùbá", region: "West Africa", stt: { supported: true }, tts: { supported: true } });
    expect(yo.translation.targets.find((t: { code: string }) => t.code === "en")).toEqual({
      code: "en",
      provider: "provider_b",
      model: "khaya-v1",
      quality_score: 0.9,
      quality_band: "excellent",
    });
    expect(yo.stt.providers).toContainEqual({ provider: "provider_b", model: "khaya-asr-v3", formats: ["wav", "mp3", "flac", "ogg", "webm"] });
    expect(yo.tts.providers.find((p: { provider: string }) => p.provider === "provider_b").voices[0]).toEqual({
      id: "female",
      name: "Female",
      gender: "female",
      model: "khaya-tts-v1",
      default: true,
    });
    const lug = res.body.languages.find((l: { code: string }) => l.code === "lug");
    expect(lug.stt.providers).toEqual([{ provider: "provider_a", model: "sunbird-stt", formats: ["wav", "mp3", "ogg", "m4a", "webm", "flac"] }]);
    expect(lug.tts.providers[0].voices[0]).toEqual({ id: "248", name: "Luganda (female)", gender: "female", model: "spark-tts", default: true });
    expect(res.headers.get("etag")).toBeTruthy();
    expect(res.headers.get("x-ratelimit-limit")).toBe("120");
  });

  it("filters by provider, source and capability", async () => {
    const bTranslation = await list("?provider=provider_b&capability=translation");
    expect(bTranslation.body.languages.map((l: { code: string }) => l.code).sort()).toEqual([
      "dag",
      "ee",
      "en",
      "fat",
      "gaa",
      "gur",
      "ki",
      "kus",
      "luo",
      "mer",
      "tw",
      "yo",
    ]);
    const b = await list("?provider=provider_b");
    const bCodes = b.body.languages.map((l: { code: string }) => l.code);
    expect(bCodes).toEqual(expect.arrayContaining(["tw", "yo", "ha", "sw", "fr"])); // Hausa, Swahili, French: provider_b speech only
    expect(bCodes).not.toContain("lug");
    for (const l of b.body.languages as LanguageEntry[]) {
      expect(
        [...l.stt.providers, ...l.tts.providers].every((p) => p.provider === "provider_b"),
        l.code,
      ).toBe(true);
    }
    // Acholi reaches Sunflower's 31 other languages through provider_a: rule (a)'s set at 0.92, the rest at 0.80.
    const fromAch = (await list("?source=ach")).body.languages as LanguageEntry[];
    const sunflower = Object.keys(SUNBIRD_TRANSLATE_LANGUAGES).map((iso3) => normalizeLanguageCode(iso3)!);
    expect(fromAch.map((l) => l.code).sort()).toEqual(sunflower.filter((c) => c !== "ach").sort());
    expect(fromAch.find((l) => l.code === "lug")?.from_source).toEqual({
      source: "ach",
      provider: "provider_a",
      model: "sunflower",
      quality_score: 0.92,
      quality_band: "excellent",
    });
    expect(fromAch.find((l) => l.code === "cgg")?.from_source).toEqual({
      source: "ach",
      provider: "provider_a",
      model: "sunflower",
      quality_score: 0.8,
      quality_band: "good",
    });
    const tr = await list("?capability=translation");
    expect(tr.body.total).toBeGreaterThan(40);
  });

  it("capability=stt / tts list exactly the languages with speech; Krio, Dagaare and Nzema are speech-only, Lusoga and Lumasaba now translated", async () => {
    const stt = (await list("?capability=stt")).body.languages as LanguageEntry[];
    expect(stt.every((l) => l.stt.supported && l.stt.providers.length > 0)).toBe(true);
    const codes = stt.map((l) => l.code);
    expect(codes).toEqual(expect.arrayContaining(["lug", "en", "tw", "sw", "ln", "xog", "myx", "ttj", "kri", "dga", "nzi"]));
    expect(codes).not.toContain("zu");
    for (const code of ["xog", "myx", "ttj"]) {
      expect(stt.find((l) => l.code === code)).toMatchObject({
        translation: { supported: true },
        stt: { providers: [{ provider: "provider_a" }] },
      });
    }
    for (const code of ["kri", "dga", "nzi"]) {
      expect(stt.find((l) => l.code === code)).toMatchObject({
        translation: { supported: false, targets: [], sources: [] },
        stt: { providers: [{ provider: "provider_b" }] },
      });
    }
    const tts = (await list("?capability=tts")).body.languages as LanguageEntry[];
    expect(tts.every((l) => l.tts.supported && l.tts.providers.every((p) => p.voices.filter((v) => v.default).length === 1))).toBe(true);
    expect(tts.map((l) => l.code)).not.toContain("xog");
    const bTts = (await list("?capability=tts&provider=provider_b")).body.languages as LanguageEntry[];
    expect(bTts.length).toBeGreaterThan(10);
    expect(bTts.every((l) => l.tts.providers.length === 1 && l.tts.providers[0].provider === "provider_b")).toBe(true);
  });

  it("translate knows the speech-only languages but no provider translates them: 422 UNSUPPORTED_LANGUAGE_PAIR; Lusoga it translates", async () => {
    for (const json of [
      { text: "Good morning", source_lang: "en", target_lang: "kri" },
      { text: "Good morning", source_lang: "dga", target_lang: "en" },
      { text: "Good morning", source_lang: "en", target_lang: "naija", provider: "provider_a" },
    ]) {
      const res = await call(app.url, "POST", "/api/v1/translate", { key, json });
      expect(expectEnvelope(res, 422, "UNSUPPORTED_LANGUAGE_PAIR").errors?.[0].loc, JSON.stringify(json)).toEqual(["body", "target_lang"]);
    }
    // Lusoga is translated now: provider_a's Sunflower, as the last (and here only) candidate.
    const lusoga = await call(app.url, "POST", "/api/v1/translate", {
      key,
      json: { text: "Good morning", source_lang: "en", target_lang: "Lusoga" },
    });
    expect(lusoga.status).toBe(200);
    expect(lusoga.body).toMatchObject({ provider: "provider_a", model_used: "provider_a/sunflower", quality_score: 0.8, target_lang: "Lusoga" });
  });

  it("what it lists for speech, STT and TTS serve with the listed provider, model and voice (sample over HTTP)", async () => {
    const wav = makeWav({ durationSeconds: 0.5, seed: 11 });
    const stt = (await list("?capability=stt")).body.languages as LanguageEntry[];
    for (const code of ["lug", "xog", "tw", "ln"]) {
      const lang = stt.find((l) => l.code === code)!;
      for (const p of lang.stt.providers) {
        const form = new FormData();
        form.set("audio", new Blob([wav as Uint8Array<ArrayBuffer>], { type: "audio/wav" }), "clip.wav");
        form.set("language", code);
        form.set("provider", p.provider);
        const res = await call(app.url, "POST", "/api/v1/speech/stt", { key, body: form });
        expect(res.status, `${code} ${p.provider}: ${res.text}`).toBe(200);
        expect(res.body).toMatchObject({ language: code, provider: p.provider, model_used: `${p.provider}/${p.model}` });
      }
    }
    const tts = (await list("?capability=tts")).body.languages as LanguageEntry[];
    for (const code of ["lug", "tw", "sw"]) {
      for (const p of tts.find((l) => l.code === code)!.tts.providers) {
        for (const v of [p.voices[0], p.voices.at(-1)!]) {
          const res = await call(app.url, "POST", "/api/v1/speech/tts", { key, json: { text: "Good morning", language: code, voice: v.id } });
          expect(res.status, `${code} ${v.id}: ${res.text}`).toBe(200);
          expect(res.body).toMatchObject({ language: code, voice: v.id, provider: p.provider, model_used: `${p.provider}/${v.model}` });
        }
      }
    }
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

  it("every response carries the whole listing, the same bytes each time, many at once and compressed alike", async () => {
    // The body is one memoised buffer handed to every response (app/api/v1/languages/route.ts): no response may see it
    // changed, cut or emptied by another.
    const first = await list();
    expect(first.status).toBe(200);
    const reads = await Promise.all(Array.from({ length: 40 }, (_, i) => list("", i % 2 ? { "accept-encoding": "gzip" } : {})));
    for (const res of reads) {
      expect(res.status).toBe(200);
      expect(res.headers.get("etag")).toBe(first.headers.get("etag"));
      expect(res.text).toBe(first.text);
    }
    expect(first.text.length).toBeGreaterThan(10_000);
  });

  it("requires a key", async () => {
    expectEnvelope(await call(app.url, "GET", "/api/v1/languages"), 401, "MISSING_API_KEY");
  });

  it("what it lists, translate serves with the listed provider (sample over HTTP)", async () => {
    const res = await list("?source=en");
    for (const lang of res.body.languages.slice(0, 12)) {
      const t = await call(app.url, "POST", "/api/v1/translate", {
        key,
        json: { text: "Good morning", source_lang: "en", target_lang: lang.code, provider: lang.from_source.provider },
      });
      expect(t.status, lang.code).toBe(200);
      expect(t.body.model_used).toBe(`${lang.from_source.provider}/${lang.from_source.model}`);
      expect(t.body.quality_score).toBe(lang.from_source.quality_score);
    }
  });
});
