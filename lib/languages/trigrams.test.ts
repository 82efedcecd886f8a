import { francAll } from "franc-all";
import { data } from "franc-all/data.js";
import { describe, expect, it } from "vitest";
import { DETECTION_SAMPLES, SHORT_SAMPLES } from "./detect.samples";
import { udhrCorpus } from "./detect.test-support";
import { ENGLISH_UI_SAMPLES } from "./detect.ui-samples";
import { LANGUAGES } from "./registry";
import profiles from "./trigram-profiles.json";
import { francOnly, selectProfiles } from "./trigrams";

const ONLY = LANGUAGES.flatMap((l) => (l.franc ? [l.franc] : []));

describe("francOnly: franc-all's scores for the languages asked about, without franc-all's tables of 400+", () => {
  const corpus = udhrCorpus();
  const texts = [
    ...DETECTION_SAMPLES.flatMap((s) => s.sentences),
    ...SHORT_SAMPLES.map((s) => s.text),
    ...ENGLISH_UI_SAMPLES,
    ...corpus.paragraphs.map((p) => p.text),
    ...corpus.prefixes.map((p) => p.text),
    // Other scripts: one franc-all ties to a single language, one with no language of ours, digits only, empty.
    "ሰላም ለዓለም ሁሉ። እንዴት ነህ?",
    "مرحبا بالعالم، كيف حالك اليوم؟",
    "こんにちは世界",
    "안녕하세요 세계",
    "12345 67890",
    "",
  ];

  it(`answers what francAll(text, { only, minLength: 1 }) answers, scores and order, on ${texts.length} texts`, () => {
    expect(texts.length).toBeGreaterThan(500);
    for (const text of texts) expect(francOnly(text, ONLY), text).toEqual(francAll(text, { only: ONLY, minLength: 1 }));
  });

  it("restricted further (the candidate pool of one request), it still agrees", () => {
    const pools = [["eng", "fra"], ["lug", "swh", "kin"], ["yor", "ibo", "hau"], ["amh"], ["kor", "eng"]];
    for (const only of pools)
      for (const text of texts.slice(0, 200).concat(["안녕하세요 세계", "ሰላም ለዓለም ሁሉ።"]))
        expect(francOnly(text, only), `${only} ${text}`).toEqual(francAll(text, { only, minLength: 1 }));
  });
});

describe("the trigram profiles shipped with the detector (./trigram-profiles.json)", () => {
  it("are franc-all's, for exactly the registry's languages with a franc code: `npm run detector:data` rewrites them", () => {
    expect(profiles).toEqual(selectProfiles(data, ONLY));
    const shipped = Object.values(profiles).flatMap((languages) => Object.keys(languages));
    expect(new Set(shipped)).toEqual(new Set(ONLY));
    // Every script franc-all has profiles for stays, even with none of ours (text in it is then undetermined).
    expect(Object.keys(profiles)).toEqual(Object.keys(data));
  });
});
