import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ALL_AVAILABLE, type AvailabilityView, modelSubject } from "@/lib/availability";
import { DEFAULT_HF_ASR_MODEL } from "@/lib/providers/codes";
import { catalogueSettings, setCatalogueSettings } from "@/lib/providers/deployment";
import { PROVIDERS } from "@/lib/providers/descriptors";
import { catalogueSubjects, subjectsOf } from "@/lib/server/availability";
import shippedSubjects from "./catalogue-subjects.json";
import { listLanguages, shippedListing } from "./listing";
import { hfModels, resolveModelMap } from "./models";

/*
 * What `npm run catalogue:data` ships for the built-in catalogue (the default model map, HF_ASR_MODEL unset), so that a
 * cold function's first listing does not walk every pair's routes: when a descriptor, the registry or the model map
 * changes, the first two tests fail until the files are written again.
 */
const shippedText = () => readFileSync(new URL("./default-listing.json", import.meta.url), "utf8");
const text = (bytes: Uint8Array | undefined) => bytes && new TextDecoder().decode(bytes);

describe("the built-in catalogue's shipped listing and availability subjects", () => {
  const settings = catalogueSettings();
  afterEach(() => setCatalogueSettings(settings));

  it("the listing is the unfiltered one with everything available, byte for byte: `npm run catalogue:data` rewrites it", () => {
    const computed = listLanguages({}, resolveModelMap(), PROVIDERS, ALL_AVAILABLE);
    expect(shippedText()).toBe(JSON.stringify(computed));
    expect(computed.total).toBeGreaterThan(50);
  });

  it("the subjects are every model the built-in catalogue routes to: `npm run catalogue:data` rewrites them", () => {
    expect(shippedSubjects.subjects).toEqual(subjectsOf(resolveModelMap()));
    expect(catalogueSubjects()).toBe(shippedSubjects.subjects);
    expect(shippedSubjects.subjects).toContain(modelSubject("provider_c", DEFAULT_HF_ASR_MODEL));
  });

  it("is what an unfiltered listing with nothing unavailable answers", () => {
    expect(text(shippedListing({}, ALL_AVAILABLE))).toBe(shippedText());
  });

  it("is not used for a filter, or when a model is unavailable now", () => {
    expect(shippedListing({ capability: "tts" }, ALL_AVAILABLE)).toBeUndefined();
    expect(shippedListing({ provider: "provider_a" }, ALL_AVAILABLE)).toBeUndefined();
    expect(shippedListing({ source: "en" }, ALL_AVAILABLE)).toBeUndefined();
    const nllb = modelSubject("provider_c", "facebook/nllb-200-distilled-600M");
    const withoutNllb: AvailabilityView = { isAvailable: (subject) => subject !== nllb, version: "nllb-down" };
    expect(shippedListing({}, withoutNllb)).toBeUndefined();
    // What is listed instead leaves the unavailable model out, where the shipped listing names it.
    expect(JSON.stringify(listLanguages({}, undefined, undefined, withoutNllb))).not.toContain("facebook/nllb-200-distilled-600M");
    expect(shippedText()).toContain("facebook/nllb-200-distilled-600M");
  });

  it("another HF_ASR_MODEL is listed and checked: neither file is used", () => {
    setCatalogueSettings({ ...settings, hfAsrModel: "openai/whisper-small" });
    expect(shippedListing({}, ALL_AVAILABLE)).toBeUndefined();
    const listing = JSON.stringify(listLanguages({}));
    expect(listing).toContain('"model":"openai/whisper-small"');
    expect(listing).not.toContain(DEFAULT_HF_ASR_MODEL);
    expect(catalogueSubjects()).toContain(modelSubject("provider_c", "openai/whisper-small"));
    expect(catalogueSubjects()).not.toContain(modelSubject("provider_c", DEFAULT_HF_ASR_MODEL));
  });

  it("another model map (HF_MODEL_MAP) is listed and checked: neither file is used", () => {
    setCatalogueSettings({ ...settings, hfModelMap: JSON.stringify({ general: null, fallback: null }) });
    expect(shippedListing({}, ALL_AVAILABLE)).toBeUndefined();
    expect(JSON.stringify(listLanguages({}, hfModels()))).not.toContain("facebook/nllb-200-distilled-600M");
    expect(catalogueSubjects()).toEqual(subjectsOf(hfModels()));
    expect(catalogueSubjects()).not.toContain(modelSubject("provider_c", "facebook/nllb-200-distilled-600M"));
  });
});
