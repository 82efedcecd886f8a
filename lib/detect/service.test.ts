import { describe, expect, it } from "vitest";
import { loadCatalogFormats } from "@/lib/catalog";
import { apiError } from "@/lib/kit/test-support";
import { DEFAULT_CONFIDENCE, detectLanguage } from "@/lib/languages/detect";
import { DETECTION_SAMPLES, SHORT_SAMPLES } from "@/lib/languages/detect.samples";
import { catalogUiStrings, writtenUiStrings } from "@/lib/languages/detect.test-support";
import { detectableLanguages } from "@/lib/languages/detectable";
import { listLanguages } from "@/lib/languages/listing";
import { DetectResponse } from "./schemas";
import { detectOne, detectTexts, RELIABLE_CONFIDENCE } from "./service";
import { emulatedIdentification as sunbird, UNDECIDED_SENTENCES as UNDECIDED } from "./test-support";

// The real catalogs are read with lib/catalog, which loads a format's module before reading its files.
await loadCatalogFormats();

const sentences = DETECTION_SAMPLES.flatMap((set) => set.sentences.map((text) => ({ code: set.code, text })));

describe("POST /detect on every language with samples (detect.samples.ts)", () => {
  it("answers exactly what translate's detection takes: same language, same confidence", async () => {
    for (const { text } of [...sentences, ...SHORT_SAMPLES]) {
      const r = await detectOne(text);
      const d = await detectLanguage(text);
      expect({ language: r.language, confidence: r.confidence }, text).toEqual({ language: d.code, confidence: d.confidence });
      expect(r.candidates[0], text).toEqual({ language: r.language, confidence: r.confidence });
    }
  });

  it("every sampled language is detectable, found as the answer, and among the candidates for most of its sentences", async () => {
    const detectable = detectableLanguages();
    for (const set of DETECTION_SAMPLES) {
      expect(detectable.has(set.code), set.code).toBe(true);
      const results = await Promise.all(set.sentences.map((t) => detectOne(t)));
      expect(
        results.some((r) => r.language === set.code),
        set.code,
      ).toBe(true);
      expect(results.filter((r) => r.candidates.some((c) => c.language === set.code)).length, set.code).toBeGreaterThanOrEqual(
        set.sentences.length * 0.8,
      );
    }
  });

  it("reliable means right: on the samples, ≥ 95 % of the reliable answers are right, and most answers are reliable", async () => {
    const results = await Promise.all(sentences.map(async ({ code, text }) => ({ code, r: await detectOne(text) })));
    const reliable = results.filter(({ r }) => r.reliable);
    const right = reliable.filter(({ code, r }) => r.language === code);
    console.log(`/detect on ${results.length} sample sentences: ${reliable.length} reliable, ${right.length} of them right`);
    expect(right.length / reliable.length).toBeGreaterThanOrEqual(0.95);
    expect(reliable.length / results.length).toBeGreaterThanOrEqual(0.7);
    for (const { r } of results) {
      if (r.reliable) expect(r.reason).toBeNull();
      else expect(r.reason).not.toBeNull();
      expect(r.candidates.length).toBeLessThanOrEqual(3);
      for (const [i, c] of r.candidates.entries()) {
        expect(detectableLanguages().has(c.language)).toBe(true);
        if (i > 0) expect(c.confidence).toBeLessThanOrEqual(r.candidates[i - 1].confidence);
      }
    }
  });

  it("every greeting in the short set is answered reliably", async () => {
    for (const { code, text } of SHORT_SAMPLES) expect(await detectOne(text), text).toMatchObject({ language: code, reliable: true, reason: null });
  });
});

describe("short and ambiguous inputs", () => {
  it("no evidence → the documented default, English at 0.1, not reliable, reason default", async () => {
    for (const text of ["xyz", "12345 !!!", "🙂🙂"]) {
      expect(await detectOne(text), text).toEqual({
        language: "en",
        confidence: DEFAULT_CONFIDENCE,
        reliable: false,
        reason: "default",
        candidates: [{ language: "en", confidence: DEFAULT_CONFIDENCE }],
        method: "default",
      });
    }
  });

  it("a statistical answer on a few words is short_text, with the runners-up", async () => {
    const r = await detectOne("Abana bajya ku ishuri");
    expect(r).toMatchObject({ reliable: false, reason: "short_text" });
    expect(r.confidence).toBeLessThan(RELIABLE_CONFIDENCE);
    expect(r.candidates.length).toBe(3);
  });

  it("two languages in one text → mixed, whatever the confidence of the overall answer", async () => {
    const sentences = await detectOne("Watoto wanakwenda shuleni kila siku. The children go to school every day.");
    expect(sentences).toMatchObject({ reliable: false, reason: "mixed" });
    expect(sentences.candidates.map((c) => c.language)).toContain("en");
    expect(await detectOne("Good morning, webale nnyo ssebo, tugenda mu katale")).toMatchObject({ reliable: false, reason: "mixed" });
    expect(await detectOne("ልጆቹ በየቀኑ ወደ ትምህርት ቤት ይሄዳሉ። The children go to school every day.")).toMatchObject({ reliable: false, reason: "mixed" });
  });

  it("a language it cannot detect lands between close candidates, never reliably", async () => {
    // Swedish: no provider serves it, so detection has no samples of it (German, once such a language, is now served).
    const r = await detectOne("God morgon, hur mår du idag? Jag hoppas att du mår bra och har en fin dag.");
    expect(r.reliable).toBe(false);
    expect(["close_candidates", "mixed"]).toContain(r.reason);
    expect(r.candidates[1].confidence).toBeGreaterThan(r.candidates[0].confidence * 0.8);
  });
});

describe("request rules (translate's, with its codes)", () => {
  it("text → one result; texts → one per text, in order; the response matches its schema", async () => {
    expect((await detectTexts({ text: "  Good morning  " })).results).toHaveLength(1);
    const many = await detectTexts({ texts: ["Good morning", "Webale nnyo", "Asante sana"] });
    expect(many.results.map((r) => r.language)).toEqual(["en", "lug", "sw"]);
    expect(DetectResponse.safeParse(many).success).toBe(true);
  });

  it.each([
    ["neither text nor texts", {}, "VALIDATION_ERROR", ["body", "text"]],
    ["both", { text: "Hi", texts: ["Hi"] }, "VALIDATION_ERROR", ["body"]],
    ["no texts", { texts: [] }, "VALIDATION_ERROR", ["body", "texts"]],
    ["51 texts", { texts: Array(51).fill("Hi") }, "BATCH_TOO_LARGE", ["body", "texts"]],
    ["whitespace-only text", { text: " \n " }, "VALIDATION_ERROR", ["body", "text"]],
    ["a whitespace-only item", { texts: ["Hi", "  "] }, "VALIDATION_ERROR", ["body", "texts", 1]],
    ["over 5,000 characters", { text: "a".repeat(5_001) }, "TEXT_TOO_LONG", ["body", "text"]],
    ["an item over 5,000 characters", { texts: ["Hi", "Hi", "🙂".repeat(5_001)] }, "TEXT_TOO_LONG", ["body", "texts", 2]],
  ])("422 for %s", async (_name, body, code, loc) => {
    const e = await apiError(Promise.resolve().then(() => detectTexts(body as never)));
    expect(e.code).toBe(code);
    expect(e.options.errors?.[0].loc).toEqual(loc);
    expect(e.message).not.toContain("aaaaaaaaaa");
  });

  it("5,000 characters, counted in code points, are accepted", async () => {
    expect((await detectTexts({ texts: ["🙂".repeat(5_000), ` ${"a ".repeat(2_500)} `] })).results).toHaveLength(2);
  });
});

describe("detectable languages in GET /languages", () => {
  it("marks each listed language; those without any evidence (no model, word list or greeting) are not detectable", () => {
    const listed = listLanguages().languages;
    const byCode = new Map(listed.map((l) => [l.code, l]));
    for (const l of listed) expect(l.detectable, l.code).toBe(detectableLanguages().has(l.code));
    for (const code of ["en", "lug", "tw", "sw", "am", "ar"]) expect(byCode.get(code)?.detectable, code).toBe(true);
    for (const code of ["lgg", "gur", "mer", "kus"]) expect(byCode.get(code)?.detectable, code).toBe(false);
    // Speech-only languages are never a translate source, so never detected.
    for (const code of ["xog", "myx"]) expect(byCode.get(code)?.detectable, code).toBe(false);
    expect(listed.filter((l) => l.detectable).length).toBeGreaterThan(30);
  });
});

describe("short English UI strings (bench/detect.ts prints the figures)", () => {
  it("come back English at least 99 % of the time, and another language is never reliable on them", async () => {
    const sets = { written: writtenUiStrings(), catalogs: catalogUiStrings()?.strings ?? [] };
    expect(sets.written.length).toBeGreaterThanOrEqual(250);
    // The real catalogs are beside the checkout in CI; without them the written strings still hold the floor.
    if (process.env.CI === "true") expect(sets.catalogs.length).toBeGreaterThan(300);
    for (const [name, texts] of Object.entries(sets)) {
      if (texts.length === 0) continue;
      const results = await Promise.all(texts.map((t) => detectOne(t)));
      expect(results.filter((r) => r.language === "en").length / texts.length, name).toBeGreaterThanOrEqual(0.99);
      expect(
        texts.filter((_, i) => results[i].language !== "en" && results[i].reliable),
        name,
      ).toEqual([]);
    }
  });
});

describe("Sunbird's language identification when the local detector is not sure", () => {
  it("identifies Acholi and Ateso the local detector cannot decide, without drawing on the upstream budget", async () => {
    const { emulator, budget, deps } = sunbird();
    for (const { code, text } of UNDECIDED) {
      const local = await detectOne(text);
      expect(local.reliable, text).toBe(false);
      expect(
        local.candidates.map((c) => c.language),
        text,
      ).toContain(code);
      const identified = await detectOne(text, deps);
      expect(identified, text).toMatchObject({ language: code, reliable: true, reason: null, method: "language_id" });
      expect(identified.candidates[0]).toEqual({ language: code, confidence: identified.confidence });
    }
    expect(emulator.stats.byPath["/tasks/classify_language"]).toBe(UNDECIDED.length);
    expect(budget.acquired).toBe(0);
  });

  it("asks once per text, and not at all when the local answer is reliable or no candidate is a language it knows", async () => {
    const { emulator, deps } = sunbird();
    await detectOne(UNDECIDED[0].text, deps);
    await detectOne(UNDECIDED[0].text, deps);
    expect(emulator.stats.byPath["/tasks/classify_language"]).toBe(1);
    expect(await detectOne("Abaana bagenda ku ssomero buli lunaku.", deps)).toMatchObject({ language: "lug", method: "statistical" });
    expect(await detectOne("Bonjour", deps)).toMatchObject({ method: "greeting" });
    expect(emulator.stats.byPath["/tasks/classify_language"]).toBe(1);
  });

  it("keeps the local answer when Sunbird is not sure, fails, or its circuit is open", async () => {
    const { emulator, client, deps } = sunbird();
    // "language not detected": words its classifier does not know.
    const unsure = await detectOne("Wan wamito zorbl quix", deps);
    expect(unsure.method).not.toBe("language_id");
    emulator.setControls({ failMode: "status", status: 503 });
    const failed = await detectOne(UNDECIDED[1].text, deps);
    expect(failed).toMatchObject({ reliable: false, method: "statistical" });
    // A failing classifier opens its own circuit, never translation's.
    for (let i = 0; i < 10; i++) await detectOne(`${UNDECIDED[2].text} ${i}`, deps);
    expect(client.languageIdCircuit.getState()).toBe("open");
    expect(client.circuitState).toBe("closed");
  });
});
