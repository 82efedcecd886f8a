import * as deepl from "deepl-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostileTranslation } from "@/lib/providers/sandbox";
import { mintKey } from "../support/api";
import { COLD_START_MS, type RunningApp, startApp, stopAllApps } from "../support/app";

/**
 * The DeepL surface (/compat/deepl) driven by DeepL's own Node.js SDK from the npm registry, unmodified, with only its
 * documented `serverUrl` pointed here (and no retries, so a refusal surfaces at once), and by the request Weblate
 * sends (weblate/machinery/deepl.py: JSON, text as an array, tag_handling xml with <x id="n"></x> placeholders,
 * ignore_tags ["x"], formality "default"; its service check translates "test" from EN to DE).
 */
let app: RunningApp;
let key: string;
let translator: deepl.Translator;

beforeAll(async () => {
  app = await startApp({ readyTimeoutMs: COLD_START_MS });
  key = await mintKey(app.url, "deepl surface");
  translator = new deepl.Translator(key, { serverUrl: `${app.url}/compat/deepl`, maxRetries: 0 });
});
afterAll(stopAllApps);

describe("deepl-node", () => {
  it("translates one text, with the source detected", async () => {
    const result = await translator.translateText("Good morning, how are you?", null, "lg" as deepl.TargetLanguageCode);
    expect(result.text).toMatch(/^\[sandbox:/);
    expect(result.text).toContain(hostileTranslation("Good morning, how are you?"));
    expect(result.detectedSourceLang).toBe("en");
  });

  it("translates many texts in order (one batch)", async () => {
    const results = await translator.translateText(["Good morning", "Thank you very much", "Where is the market?"], "en", "sw");
    expect(results.map((r) => r.text.replace(/^\[sandbox:[^\]]*\] /, ""))).toEqual(
      ["Good morning", "Thank you very much", "Where is the market?"].map(hostileTranslation),
    );
    expect(results.every((r) => r.detectedSourceLang === "en")).toBe(true);
  });

  it("keeps Weblate-style <x> placeholders with tag_handling xml", async () => {
    const text = 'Delete <x id="7"></x> files from <x id="23"></x>?';
    const result = await translator.translateText(text, "en", "sw", { tagHandling: "xml", ignoreTags: ["x"] });
    expect(result.text).toContain('<x id="7"></x>');
    expect(result.text).toContain('<x id="23"></x>');
  });

  it("EN-GB and EN-US are English as targets; German both ways", async () => {
    const gb = await translator.translateText("Webale nyo", "lg" as deepl.SourceLanguageCode, "en-GB");
    expect(gb.text).toMatch(/^\[sandbox:/);
    const us = await translator.translateText("Webale nyo", "lg" as deepl.SourceLanguageCode, "en-US");
    expect(us.text).toBe(gb.text);
    expect((await translator.translateText("test", "en", "de")).text).toMatch(/opus-mt-en-de/);
    expect((await translator.translateText("Guten Morgen", "de", "en-GB")).text).toMatch(/opus-mt-de-en/);
  });

  it("lists source and target languages", async () => {
    const sources = await translator.getSourceLanguages();
    const targets = await translator.getTargetLanguages();
    expect(sources.map((l) => l.code)).toEqual(expect.arrayContaining(["en", "lg", "sw", "ach", "de"]));
    expect(targets.map((l) => l.code)).toEqual(expect.arrayContaining(["en-GB", "en-US", "lg", "yo", "de"]));
    expect(targets.find((l) => (l.code as string) === "lg")).toMatchObject({ name: "Luganda", supportsFormality: false });
  });

  it("reports this month's characters with getUsage", async () => {
    const usage = await translator.getUsage();
    expect(usage.character?.count).toBeGreaterThan(0);
    expect(usage.anyLimitReached()).toBe(false);
  });

  it("a bad key is the SDK's AuthorizationError (403)", async () => {
    const bad = new deepl.Translator(`svc_${"0".repeat(40)}`, { serverUrl: `${app.url}/compat/deepl`, maxRetries: 0 });
    await expect(bad.translateText("Good morning", "en", "sw")).rejects.toBeInstanceOf(deepl.AuthorizationError);
    await expect(bad.getUsage()).rejects.toBeInstanceOf(deepl.AuthorizationError);
  });

  it("formality more is refused (400, DeepL's wording); prefer_more is accepted", async () => {
    await expect(translator.translateText("Good morning", "en", "sw", { formality: "more" })).rejects.toThrow(/formality/);
    expect((await translator.translateText("Good morning", "en", "sw", { formality: "prefer_more" })).text).toContain(
      hostileTranslation("Good morning"),
    );
  });
});

describe("Weblate's request", () => {
  it("JSON with text[], tag_handling xml and ignore_tags: the service check and a placeholder", async () => {
    const res = await fetch(`${app.url}/compat/deepl/v2/translate`, {
      method: "POST",
      headers: { authorization: `DeepL-Auth-Key ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        text: ["test", 'Hello <x id="0"></x>, welcome'],
        source_lang: "EN",
        target_lang: "DE",
        formality: "default",
        tag_handling: "xml",
        ignore_tags: ["x"],
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-lugha-sandbox")).toBe("true");
    const { translations } = await res.json();
    expect(translations).toHaveLength(2);
    expect(translations[0].detected_source_language).toBe("EN");
    expect(translations[1].text).toContain('<x id="0"></x>');
    const pairs = await fetch(`${app.url}/compat/deepl/v2/glossary-language-pairs`, { headers: { authorization: `DeepL-Auth-Key ${key}` } });
    expect(await pairs.json()).toEqual({ supported_languages: [] });
  });
});
