import { describe, expect, it } from "vitest";
import { getLanguage } from "@/lib/languages/registry";
import { KHAYA_ASR_LANGUAGES, KHAYA_TTS_LANGUAGES, SUNBIRD_STT_LANGUAGES, toIso3 } from "@/lib/providers/codes";
import { findVoice, resolveSpeechLanguage, STT_LANGUAGES, speechCapabilities, speechLanguageCodes, sttOptions, ttsOptions, VOICES } from "./speech";

describe("speech catalog: speech-to-text", () => {
  it("provider_a transcribes exactly Sunbird's eleven languages (its enum plus Rutooro)", () => {
    expect([...STT_LANGUAGES.provider_a].sort()).toEqual(["ach", "en", "lgg", "lug", "myx", "nyn", "rw", "sw", "teo", "ttj", "xog"]);
  });

  it("provider_b covers Khaya's ASR catalogue where this API knows the language, and nothing else", () => {
    expect(STT_LANGUAGES.provider_b).toEqual(
      expect.arrayContaining(["tw", "ee", "gaa", "fat", "yo", "dag", "ki", "gur", "luo", "mer", "kus", "en", "sw", "ha"]),
    );
    for (const code of STT_LANGUAGES.provider_b) expect(KHAYA_ASR_LANGUAGES, code).toContain(toIso3(code));
    expect(STT_LANGUAGES.provider_b).not.toContain("lug");
  });

  it("every code the catalogue routes reaches the client with a wire code the provider lists", () => {
    for (const code of STT_LANGUAGES.provider_a) expect(SUNBIRD_STT_LANGUAGES, code).toContain(toIso3(code));
    for (const v of VOICES.filter((x) => x.provider === "provider_b"))
      for (const code of v.languages) expect(KHAYA_TTS_LANGUAGES, code).toContain(toIso3(code));
  });

  it("orders providers a → b → c and filters by language; formats per provider", () => {
    expect(sttOptions("en").map((o) => o.provider)).toEqual(["provider_a", "provider_b", "provider_c"]);
    expect(sttOptions("lug").map((o) => o.provider)).toEqual(["provider_a"]);
    expect(sttOptions("tw").map((o) => o.provider)).toEqual(["provider_b"]);
    expect(sttOptions("ln").map((o) => o.provider)).toEqual(["provider_c"]);
    expect(sttOptions("zu")).toEqual([]);
    const [a] = sttOptions("lug");
    expect(a).toMatchObject({ model: "sunbird-stt", formats: ["wav", "mp3", "ogg", "m4a", "webm", "flac"] });
    expect(sttOptions("tw")[0].formats).toEqual(["wav", "mp3", "flac", "ogg", "webm"]);
    expect(sttOptions("ln")[0]).toMatchObject({ model: "openai/whisper-large-v3-turbo" });
  });

  it("resolves the registry's spellings and the speech-only languages (Lusoga, Lumasaba)", () => {
    expect(resolveSpeechLanguage(" LUG ")).toBe("lug");
    expect(resolveSpeechLanguage("swa")).toBe("sw");
    expect(resolveSpeechLanguage("xog")).toBe("xog");
    expect(resolveSpeechLanguage("Lusoga")).toBe("xog");
    expect(resolveSpeechLanguage("myx")).toBe("myx");
    expect(resolveSpeechLanguage(" Lugisu ")).toBe("myx");
    expect(resolveSpeechLanguage("zz")).toBeUndefined();
  });
});

describe("speech catalog: text-to-speech voices", () => {
  it("voice ids are unique and each names one provider", () => {
    expect(new Set(VOICES.map((v) => v.id)).size).toBe(VOICES.length);
  });

  it("has Sunbird's spark-tts speakers 241–248 for their languages", () => {
    const expected = { "241": "ach", "242": "teo", "243": "nyn", "245": "lgg", "246": "sw", "248": "lug" };
    for (const [id, code] of Object.entries(expected))
      expect(findVoice(id)).toMatchObject({ provider: "provider_a", model: "spark-tts", languages: [code] });
  });

  it("makes the spark speaker the default where there is one, else the first Orpheus voice", () => {
    expect(ttsOptions("lug")[0]).toMatchObject({ provider: "provider_a", defaultVoice: { id: "248" } });
    expect(ttsOptions("sw")[0].defaultVoice.id).toBe("246");
    expect(ttsOptions("en")[0].defaultVoice.id).toBe("salt_eng_0001");
  });

  it("gives Khaya's three multilingual speakers to every Khaya TTS language, 'female' by default", () => {
    const [b] = ttsOptions("tw");
    expect(b.provider).toBe("provider_b");
    expect(b.voices.map((v) => v.id)).toEqual(["female", "male_low", "male_high"]);
    expect(b.defaultVoice.id).toBe("female");
  });

  it("uses the MMS-TTS model as provider_c's voice", () => {
    const c = ttsOptions("sw").find((o) => o.provider === "provider_c");
    expect(c?.defaultVoice).toMatchObject({ id: "facebook/mms-tts-swh", model: "facebook/mms-tts-swh" });
    expect(ttsOptions("lug").map((o) => o.provider)).toEqual(["provider_a", "provider_c"]);
  });

  it("has no TTS for a language nobody speaks (Lugbara has spark 245 only; Zulu none)", () => {
    expect(ttsOptions("lgg").map((o) => o.voices.map((v) => v.id))).toEqual([["245"]]);
    expect(ttsOptions("zu")).toEqual([]);
  });
});

describe("speechCapabilities (what /languages reports)", () => {
  it("lists STT models and formats, and TTS voices with the default marked, in routing order", () => {
    const lug = speechCapabilities("lug");
    expect(lug.stt).toEqual([{ provider: "provider_a", model: "sunbird-stt", formats: ["wav", "mp3", "ogg", "m4a", "webm", "flac"] }]);
    expect(lug.tts[0].voices[0]).toEqual({ id: "248", name: "Luganda (female)", gender: "female", model: "spark-tts", default: true });
    expect(lug.tts.flatMap((p) => p.voices.filter((v) => v.default))).toHaveLength(2); // one per provider
  });

  it("is empty for a language without speech", () => {
    expect(speechCapabilities("zu")).toEqual({ stt: [], tts: [] });
  });

  it("every speech language is a registry language (Lusoga and Lumasaba included), under its canonical code", () => {
    for (const code of speechLanguageCodes()) expect(getLanguage(code)?.code, code).toBe(code);
    expect(getLanguage("xog")?.name).toBe("Lusoga");
    expect(getLanguage("myx")?.name).toBe("Lumasaba");
  });
});

describe("HF_ASR_MODEL", () => {
  it("defaults to Whisper large-v3-turbo; HF_ASR_MODEL overrides with a valid model id only; routing uses it", async () => {
    const { loadConfig } = await import("@/lib/config");
    const { catalogueSettings, setCatalogueSettings } = await import("@/lib/providers/deployment");
    expect(loadConfig({}).HF_ASR_MODEL).toBe("openai/whisper-large-v3-turbo");
    expect(loadConfig({ HF_ASR_MODEL: " openai/whisper-small " }).HF_ASR_MODEL).toBe("openai/whisper-small");
    expect(() => loadConfig({ HF_ASR_MODEL: "../../etc" })).toThrow(/HF_ASR_MODEL must be a model id/);
    const before = catalogueSettings();
    try {
      setCatalogueSettings({ ...before, hfAsrModel: "openai/whisper-small" });
      expect(sttOptions("pt").find((o) => o.provider === "provider_c")?.model).toBe("openai/whisper-small");
    } finally {
      setCatalogueSettings(before);
    }
  });
});
