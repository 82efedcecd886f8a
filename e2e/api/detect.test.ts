import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectOne as detectLocally } from "@/lib/detect";
import { emulatedIdentification } from "@/lib/detect/test-support";
import { DETECTION_SAMPLES } from "@/lib/languages/detect.samples";
import { call, expectEnvelope, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";

/** POST /api/v1/detect over HTTP against the built app, and the detectable flag of GET /api/v1/languages. */

let app: RunningApp;
let key: string;

beforeAll(async () => {
  app = await startApp();
  key = await mintKey(app.url, "detect tests");
});
afterAll(stopAllApps);

const detect = (json: unknown) => call(app.url, "POST", "/api/v1/detect", { key, json });
// What the sandbox app answers: the detector with its Sunbird emulator asked when the detector is not sure.
const { deps } = emulatedIdentification();
const detectOne = (text: string) => detectLocally(text, deps);

describe("POST /api/v1/detect", () => {
  it("one text: its language, confidence, reliability and candidates, in the default rate-limit bucket", async () => {
    const res = await detect({ text: "  Abaana bagenda ku ssomero buli lunaku.  " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ results: [await detectOne("Abaana bagenda ku ssomero buli lunaku.")] });
    expect(res.body.results[0]).toMatchObject({ language: "lug", reliable: true, reason: null });
    expect(res.headers.get("x-ratelimit-limit")).toBe("120");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("a sentence in every sampled language, in one request: one result each, in order, as the detector answers", async () => {
    const texts = DETECTION_SAMPLES.map((set) => set.sentences[0]);
    expect(texts.length).toBeLessThanOrEqual(50);
    const res = await detect({ texts });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual(await Promise.all(texts.map((t) => detectOne(t))));
    const right = res.body.results.filter((r: { language: string }, i: number) => r.language === DETECTION_SAMPLES[i].code).length;
    expect(right / texts.length).toBeGreaterThanOrEqual(0.85);
  });

  it("says when not to trust the answer: no evidence, a few words, two languages", async () => {
    const res = await detect({
      texts: ["xyz", "Abana bajya ku ishuri", "Watoto wanakwenda shuleni kila siku. The children go to school every day."],
    });
    expect(res.body.results.map((r: { reliable: boolean; reason: string | null }) => [r.reliable, r.reason])).toEqual([
      [false, "default"],
      [false, "short_text"],
      [false, "mixed"],
    ]);
    expect(res.body.results[0]).toMatchObject({ language: "en", confidence: 0.1, candidates: [{ language: "en", confidence: 0.1 }] });
  });

  it("answers what translate takes as the source when source_lang is omitted", async () => {
    const text = "Watoto wanakwenda shuleni kila siku na wanasoma vitabu vingi sana.";
    const [detected, translated] = await Promise.all([
      detect({ text }),
      call(app.url, "POST", "/api/v1/translate", { key, json: { text, target_lang: "en" } }),
    ]);
    expect(translated.status).toBe(200);
    expect(translated.body.detected_source_lang).toBe(detected.body.results[0].language);
    expect(translated.body.detected_source_confidence).toBe(detected.body.results[0].confidence);
  });

  it.each([
    ["neither text nor texts", {}, "VALIDATION_ERROR", ["body", "text"]],
    ["both text and texts", { text: "Hi", texts: ["Hi"] }, "VALIDATION_ERROR", ["body"]],
    ["text not a string", { text: 5 }, "VALIDATION_ERROR", ["body", "text"]],
    ["texts not an array", { texts: "Hi" }, "VALIDATION_ERROR", ["body", "texts"]],
    ["an item not a string", { texts: ["Hi", 5] }, "VALIDATION_ERROR", ["body", "texts", 1]],
    ["no texts", { texts: [] }, "VALIDATION_ERROR", ["body", "texts"]],
    ["whitespace-only text", { text: " \t\n" }, "VALIDATION_ERROR", ["body", "text"]],
    ["over 5,000 characters", { text: "a".repeat(5_001) }, "TEXT_TOO_LONG", ["body", "text"]],
    ["an item over 5,000 characters", { texts: ["Hi", "a".repeat(5_001)] }, "TEXT_TOO_LONG", ["body", "texts", 1]],
    ["51 texts", { texts: Array(51).fill("aaaaaaaaaaaa") }, "BATCH_TOO_LARGE", ["body", "texts"]],
  ])("422 for %s, never echoing the input", async (_name, json, code, loc) => {
    const res = await detect(json);
    const d = expectEnvelope(res, 422, code as string);
    expect(d.errors?.[0].loc).toEqual(loc);
    expect(res.text).not.toContain("aaaaaaaaaa");
  });
});

describe("GET /api/v1/languages: detectable", () => {
  it("says which languages detection can name", async () => {
    const res = await call(app.url, "GET", "/api/v1/languages", { key });
    const byCode = new Map<string, { detectable: boolean }>(res.body.languages.map((l: { code: string; detectable: boolean }) => [l.code, l]));
    for (const code of DETECTION_SAMPLES.map((s) => s.code)) expect(byCode.get(code)?.detectable, code).toBe(true);
    for (const code of ["lgg", "gur", "xog"]) expect(byCode.get(code)?.detectable, code).toBe(false);
  });
});
