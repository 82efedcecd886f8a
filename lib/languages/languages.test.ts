import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/errors";
import { HuggingFaceClient, KhayaClient, SunbirdClient } from "@/lib/providers";
import { createEmulator, inProcessFetch } from "@/lib/providers/sandbox";
import { PROVIDER_IDS, type ProviderClient, type ProviderId } from "@/lib/providers/types";
import { translateText } from "@/lib/translate/service";
import { QUALITY } from "@/lib/translate/quality";
import { listLanguages } from "./listing";
import { hfModels, hfRoutesFor, ModelMapError, resetHfModels, resolveModelMap } from "./models";
import { allPairs, pairOptions, PROVIDER_A_LANGUAGES, PROVIDER_B_LANGUAGES } from "./pairs";
import { LANGUAGES, normalizeLanguageCode } from "./registry";

afterEach(() => {
  delete process.env.HF_MODEL_MAP;
  resetHfModels();
});

describe("registry", () => {
  it("normalises ISO 639-3 codes and aliases in any case to the canonical code", () => {
    expect(normalizeLanguageCode("eng")).toBe("en");
    expect(normalizeLanguageCode(" LUG ")).toBe("lug");
    expect(normalizeLanguageCode("lg")).toBe("lug");
    expect(normalizeLanguageCode("Twi")).toBe("tw");
    expect(normalizeLanguageCode("yor")).toBe("yo");
    expect(normalizeLanguageCode("swa")).toBe("sw");
    expect(normalizeLanguageCode("swh")).toBe("sw");
    expect(normalizeLanguageCode("kin")).toBe("rw");
    expect(normalizeLanguageCode("xx")).toBeUndefined();
    expect(normalizeLanguageCode("")).toBeUndefined();
  });

  it("has every language of the provider_a and provider_b sets, with names and regions", () => {
    for (const code of [...PROVIDER_A_LANGUAGES, ...PROVIDER_B_LANGUAGES]) {
      const lang = LANGUAGES.find((l) => l.code === code);
      expect(lang, code).toBeDefined();
      expect(lang!.name && lang!.nativeName && lang!.region).toBeTruthy();
    }
  });

  it("every language is served by at least one pair (no dead entries)", () => {
    const served = new Set(allPairs().flatMap((p) => [p.source, p.target]));
    for (const l of LANGUAGES) expect(served.has(l.code), l.code).toBe(true);
  });
});

describe("pair tables", () => {
  it("provider_a serves exactly every ordered pair within {en, lug, ach, teo, nyn, lgg}", () => {
    const a = allPairs().filter((p) => p.options.some((o) => o.provider === "provider_a"));
    expect(a).toHaveLength(30);
    for (const p of a) expect(PROVIDER_A_LANGUAGES.includes(p.source) && PROVIDER_A_LANGUAGES.includes(p.target)).toBe(true);
  });

  it("provider_b serves exactly en ↔ its 11 languages", () => {
    const b = allPairs().filter((p) => p.options.some((o) => o.provider === "provider_b"));
    expect(b).toHaveLength(22);
    for (const p of b) expect(p.source === "en" || p.target === "en").toBe(true);
  });

  it("lists providers in the auto order a → b → c", () => {
    expect(pairOptions("en", "lug").map((o) => o.provider)).toEqual(["provider_a", "provider_c"]);
    expect(pairOptions("en", "yo").map((o) => o.provider)).toEqual(["provider_b", "provider_c"]);
    expect(pairOptions("en", "sw").map((o) => o.provider)).toEqual(["provider_c"]);
  });

  it("claims only pairs a model can produce: no NLLB for languages NLLB lacks", () => {
    for (const code of ["lgg", "ach", "teo", "nyn", "gaa", "dag", "fat", "gur", "mer", "kus"]) {
      expect(hfRoutesFor("en", code).some((r) => r.tier === "general"), code).toBe(false);
    }
    expect(pairOptions("en", "lgg").map((o) => o.provider)).toEqual(["provider_a"]);
    expect(pairOptions("ach", "yo")).toEqual([]);
    // the multilingual fallback only where it has a target token / source
    expect(hfRoutesFor("en", "dag")).toEqual([]);
    expect(hfRoutesFor("en", "zu").map((r) => r.tier)).toEqual(["general", "fallback"]);
    expect(hfRoutesFor("en", "zu")[1].inputPrefix).toBe(">>zul<< ");
  });

  it("quality per tier is within its spec band", () => {
    const band = (q: number, lo: number, hi: number) => expect(q >= lo && q <= hi).toBe(true);
    band(QUALITY.provider_a, 0.9, 1);
    band(QUALITY.provider_b, 0.9, 1);
    band(QUALITY.dedicated, 0.8, 0.89);
    band(QUALITY.general, 0.7, 0.79);
    band(QUALITY.fallback, 0.6, 0.69);
  });
});

describe("model map configuration (HF_MODEL_MAP)", () => {
  it("an override section replaces the default section; null disables it; others stay", () => {
    const m = resolveModelMap({ dedicated: { "en-zu": "Helsinki-NLP/opus-mt-en-zu" }, general: null });
    expect(hfRoutesFor("en", "zu", m).map((r) => r.model)).toEqual(["Helsinki-NLP/opus-mt-en-zu", "Helsinki-NLP/opus-mt-en-mul"]);
    expect(hfRoutesFor("en", "sw", m).map((r) => r.tier)).toEqual(["fallback"]); // default dedicated replaced, NLLB off
    expect(hfRoutesFor("sw", "yo", m)).toEqual([]);
  });

  it("is read from HF_MODEL_MAP as inline JSON or a file path", async () => {
    process.env.HF_MODEL_MAP = JSON.stringify({ fallback: null });
    resetHfModels();
    expect(hfRoutesFor("en", "zu", hfModels()).map((r) => r.tier)).toEqual(["general"]);
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const file = join(mkdtempSync(join(tmpdir(), "hfmap-")), "map.json");
    writeFileSync(file, JSON.stringify({ dedicated: { "en-ha": "Helsinki-NLP/opus-mt-en-ha" } }));
    process.env.HF_MODEL_MAP = file;
    resetHfModels();
    expect(hfModels().dedicated.size).toBe(1);
  });

  it("rejects unknown languages, bad model ids and bad FLORES codes loudly", () => {
    expect(() => resolveModelMap({ dedicated: { "en-xx": "Helsinki-NLP/opus-mt-en-xx" } })).toThrow(ModelMapError);
    expect(() => resolveModelMap({ dedicated: { "en-sw": "not a model" } })).toThrow(ModelMapError);
    expect(() => resolveModelMap({ general: { model: "facebook/nllb", codes: { en: "english" } } })).toThrow(ModelMapError);
  });
});

describe("GET /languages listing", () => {
  it("lists every registry language once, sorted by name, with the entry shape", () => {
    const r = listLanguages();
    expect(r.total).toBe(r.languages.length);
    expect(new Set(r.languages.map((l) => l.code)).size).toBe(r.total);
    expect(r.total).toBe(LANGUAGES.length);
    const names = r.languages.map((l) => l.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
    const lug = r.languages.find((l) => l.code === "lug")!;
    expect(lug).toMatchObject({ name: "Luganda", native_name: "Oluganda", region: "East Africa", stt: { supported: false }, tts: { supported: false } });
    expect(lug.translation.targets.find((t) => t.code === "en")).toEqual({ code: "en", provider: "provider_a", model: "sunflower", quality_score: QUALITY.provider_a });
    // Khaya-only languages are listed (fasiri omitted them)
    for (const code of ["ee", "gaa", "fat", "dag", "ki", "gur", "mer", "kus"]) expect(r.languages.some((l) => l.code === code), code).toBe(true);
  });

  it("filters by provider: only its languages, with its own model and quality", () => {
    const b = listLanguages({ provider: "provider_b" });
    expect(b.languages.map((l) => l.code).sort()).toEqual(["en", ...PROVIDER_B_LANGUAGES].sort());
    const en = b.languages.find((l) => l.code === "en")!;
    expect(en.translation.targets.every((t) => t.provider === "provider_b")).toBe(true);
    const c = listLanguages({ provider: "provider_c" });
    expect(c.languages.some((l) => l.code === "ach")).toBe(false);
    const cEn = c.languages.find((l) => l.code === "en")!;
    expect(cEn.translation.targets.find((t) => t.code === "lug")).toMatchObject({ provider: "provider_c", model: "Helsinki-NLP/opus-mt-en-lg" });
  });

  it("filters by source (aliases accepted) and tells how each target is served", () => {
    const r = listLanguages({ source: "ACH" });
    expect(r.languages.map((l) => l.code).sort()).toEqual(["en", "lgg", "lug", "nyn", "teo"]);
    expect(r.languages.every((l) => l.from_source?.source === "ach" && l.from_source.provider === "provider_a")).toBe(true);
    expect(() => listLanguages({ source: "xx" })).toThrow(ApiError);
  });

  it("capability filter: translation lists all; stt/tts list only languages with speech data", () => {
    expect(listLanguages({ capability: "translation" }).total).toBe(LANGUAGES.length);
    expect(listLanguages({ capability: "stt" }).total).toBe(0); // no speech data until the speech module fills it in
    const lug = LANGUAGES.find((l) => l.code === "lug")!;
    lug.speech = { stt: [{ provider: "provider_a" }], tts: [{ provider: "provider_a", voices: [{ id: "248", gender: "female" }] }] };
    try {
      const stt = listLanguages({ capability: "stt" });
      expect(stt.languages.map((l) => l.code)).toEqual(["lug"]);
      expect(stt.languages[0].stt).toEqual({ supported: true, providers: [{ provider: "provider_a" }] });
      expect(listLanguages({ capability: "tts", provider: "provider_b" }).total).toBe(0);
      expect(listLanguages({ capability: "tts", provider: "provider_a" }).languages[0].tts.providers[0].voices[0].id).toBe("248");
    } finally {
      delete lug.speech;
    }
  });

  it("is consistent with translate: every listed pair translates in the sandbox with the listed provider, model and quality", async () => {
    const providers = Object.fromEntries(
      PROVIDER_IDS.map((id) => {
        const kind = ({ provider_a: "sunbird", provider_b: "khaya", provider_c: "hf" } as const)[id];
        const fetch = inProcessFetch(createEmulator(kind).handler);
        const Cls = { provider_a: SunbirdClient, provider_b: KhayaClient, provider_c: HuggingFaceClient }[id];
        return [id, new Cls({ baseUrl: `http://${kind}.sandbox.invalid`, mode: "sandbox", fetch })];
      }),
    ) as unknown as Record<ProviderId, ProviderClient>;
    const deps = { providers, deadlineMs: 5_000 };
    let checked = 0;
    for (const provider of [undefined, ...PROVIDER_IDS]) {
      const listing = listLanguages(provider ? { provider } : {});
      for (const lang of listing.languages) {
        for (const t of lang.translation.targets) {
          const r = await translateText({ text: "Good morning to you all", source_lang: lang.code, target_lang: t.code, provider: provider ?? "auto" }, deps);
          expect(`${r.provider} ${r.model_used} ${r.quality_score}`, `${lang.code}→${t.code} ${provider ?? "auto"}`).toBe(`${t.provider} ${t.provider}/${t.model} ${t.quality_score}`);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1_000);
  }, 120_000);
});
