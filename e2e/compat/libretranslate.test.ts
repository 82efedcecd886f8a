import translate from "translate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostileTranslation } from "@/lib/providers/sandbox";
import { mintKey } from "../support/api";
import { COLD_START_MS, type RunningApp, startApp, stopAllApps } from "../support/app";

/**
 * The LibreTranslate surface (/compat/libretranslate) driven as the tools drive it: the `translate` package's libre
 * engine from the npm registry, unmodified, and the request shapes Weblate (weblate/machinery/libretranslate.py: a form
 * body, one text; its service check translates "test" from en to de) and Mastodon
 * (app/lib/translation_service/libre_translate.rb: JSON, format html, source auto; GET /languages) send.
 */
let app: RunningApp;
let key: string;
let base: string;

beforeAll(async () => {
  app = await startApp({ readyTimeoutMs: COLD_START_MS });
  key = await mintKey(app.url, "libretranslate surface");
  base = `${app.url}/compat/libretranslate`;
});
afterAll(stopAllApps);

const post = (path: string, body: BodyInit, contentType: string) =>
  fetch(`${base}${path}`, { method: "POST", body, headers: { "content-type": contentType } });
const postJson = (path: string, body: unknown) => post(path, JSON.stringify(body), "application/json");

/** The package's own instance for a LibreTranslate server: `url` is its documented option for a self-hosted one. */
const libre = (apiKey: string) => translate.Translate({ engine: "libre", key: apiKey, url: `${base}/translate` } as { engine: "libre"; key: string });

describe("the translate package's libre engine", () => {
  it("translates English to Luganda with a key, through the sandbox", async () => {
    const text = await libre(key)("Good morning, my friend", { from: "en", to: "lg" });
    expect(text).toMatch(/^\[sandbox:/);
    expect(text).toContain(hostileTranslation("Good morning, my friend"));
  });

  it("surfaces LibreTranslate's error for a bad key", async () => {
    await expect(libre(`svc_${"0".repeat(40)}`)("Good morning", { from: "en", to: "lg" })).rejects.toThrow(/Invalid API key/);
    const res = await postJson("/translate", { q: "Good morning", source: "en", target: "lg", api_key: `svc_${"0".repeat(40)}` });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Invalid API key" });
  });
});

describe("Weblate's requests", () => {
  it("a form body with api_key, q, source and target: translatedText is the translation, marked sandbox", async () => {
    const form = new URLSearchParams({ api_key: key, q: "Where is the market?", source: "en", target: "sw" });
    const res = await post("/translate", form.toString(), "application/x-www-form-urlencoded");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-lugha-sandbox")).toBe("true");
    const body = await res.json();
    expect(typeof body.translatedText).toBe("string");
    expect(body.translatedText).toContain(hostileTranslation("Where is the market?"));
    expect(body.detectedLanguage).toBeUndefined(); // source was given
  });

  it("the service check: 'test' from en to de is translated (German is served by Hugging Face)", async () => {
    const form = new URLSearchParams({ api_key: key, q: "test", source: "en", target: "de" });
    const res = await post("/translate", form.toString(), "application/x-www-form-urlencoded");
    expect(res.status).toBe(200);
    expect((await res.json()).translatedText).toMatch(/opus-mt-en-de/);
    const back = await postJson("/translate", { api_key: key, q: "Guten Morgen", source: "de", target: "en" });
    expect((await back.json()).translatedText).toMatch(/opus-mt-de-en/);
  });

  it("GET /languages lists codes without a key: lg (ISO 639-1) and ach (ISO 639-3), each with its targets", async () => {
    const res = await fetch(`${base}/languages`);
    expect(res.status).toBe(200);
    const languages = (await res.json()) as { code: string; name: string; targets: string[] }[];
    const byCode = new Map(languages.map((l) => [l.code, l]));
    expect(byCode.get("lg")?.name).toBe("Luganda");
    expect(byCode.get("lg")?.targets).toContain("en");
    expect(byCode.get("ach")?.targets).toContain("lg");
    expect(byCode.get("en")?.targets).toEqual(expect.arrayContaining(["de", "lg", "sw", "yo"]));
    expect(byCode.has("lug")).toBe(false);
  });
});

describe("Mastodon's requests", () => {
  it("JSON with format html and source auto: tags kept, detectedLanguage given", async () => {
    const q = "<p>Good morning, <b>friends</b>. The market opens at eight.</p>";
    const res = await postJson("/translate", { q, source: "auto", target: "lg", format: "html", api_key: key });
    expect(res.status).toBe(200);
    const body = await res.json();
    // The sandbox marks the text it translated; the markup comes back as sent, in order.
    expect(body.translatedText.match(/<\/?[pb]>/g)).toEqual(["<p>", "<b>", "</b>", "</p>"]);
    expect(body.detectedLanguage).toEqual({ confidence: expect.any(Number), language: "en" });
  });

  it("an array of texts is one batch: translatedText and detectedLanguage are arrays in order", async () => {
    const res = await postJson("/translate", { q: ["Good morning", "Thank you very much"], source: "auto", target: "yo", api_key: key });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.translatedText).toHaveLength(2);
    expect(body.translatedText[0]).toContain(hostileTranslation("Good morning"));
    expect(body.translatedText[1]).toContain(hostileTranslation("Thank you very much"));
    expect(body.detectedLanguage.map((d: { language: string }) => d.language)).toEqual(["en", "en"]);
  });
});

describe("the other LibreTranslate routes", () => {
  it("POST /detect answers candidates with confidence 0–100; GET /frontend/settings needs no key", async () => {
    const res = await postJson("/detect", { q: "Abaana bagenda ku ssomero buli lunaku.", api_key: key });
    expect(res.status).toBe(200);
    const candidates = await res.json();
    expect(candidates[0]).toEqual({ confidence: expect.any(Number), language: "lg" });
    expect(candidates[0].confidence).toBeGreaterThan(1);
    const settings = await fetch(`${base}/frontend/settings`);
    expect(settings.status).toBe(200);
    expect(await settings.json()).toMatchObject({ keyRequired: true, apiKeys: true, charLimit: 5000 });
  });

  it("refuses without a key with LibreTranslate's 400 and its wording", async () => {
    const res = await postJson("/translate", { q: "Good morning", source: "en", target: "lg" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^Please contact the server operator to get an API key/);
  });
});
