import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EmulatorServer, hostileTranslation, startEmulatorServer } from "@/lib/providers/sandbox";
import { englishParagraphs } from "@/lib/translate/long-text.test-support";
import { call, expectEnvelope, mintKey } from "../support/api";
import { OPERATOR_HEADERS, type RunningApp, startApp } from "../support/app";

/**
 * Upstream budgets and long texts over HTTP: the built app with live clients on loopback emulators (budgets apply to
 * live providers only), provider_a's budget lowered to 3 a minute.
 */

let app: RunningApp;
let key: string;
let emulators: Record<"a" | "b" | "c", EmulatorServer>;

beforeAll(async () => {
  const [a, b, c] = await Promise.all([startEmulatorServer("sunbird"), startEmulatorServer("khaya"), startEmulatorServer("hf")]);
  emulators = { a, b, c };
  app = await startApp({
    env: {
      PROVIDER_MODE: "live",
      SUNBIRD_API_URL: a.url,
      KHAYA_API_URL: b.url,
      HF_API_URL: c.url,
      UPSTREAM_BUDGET_PROVIDER_A: "3/60s",
      TRANSLATE_DEADLINE_MS: "10000",
      // These tests repeat identical requests that must each reach the upstream (or fail there).
      TRANSLATION_CACHE: "off",
    },
  });
  key = await mintKey(app.url, "upstream tests");
});
afterAll(async () => {
  await app?.stop();
  await Promise.all(Object.values(emulators ?? {}).map((e) => e.close()));
});
beforeEach(() => {
  for (const e of Object.values(emulators)) e.reset();
});

const translate = (json: unknown) => call(app.url, "POST", "/api/v1/translate", { key, json });
const enLug = { text: "Good morning", source_lang: "en", target_lang: "lug" };

describe("upstream budgets (live providers)", () => {
  it("provider_a at its budget: auto falls back, forced answers 503 with Retry-After, its circuit stays closed, /health shows the use", async () => {
    const served: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await translate(enLug);
      expect(res.status).toBe(200);
      served.push(res.body.provider);
      if (i === 3) expect(res.body).toMatchObject({ fallback_used: true, providers_tried: ["provider_a", "provider_c"] });
    }
    expect(served).toEqual(["provider_a", "provider_a", "provider_a", "provider_c"]);
    expect(emulators.a.stats.translations.calls).toBe(3); // the fourth never reached the upstream

    const forced = await translate({ ...enLug, provider: "provider_a" });
    const detail = expectEnvelope(forced, 503, "PROVIDER_ERROR");
    expect(detail.message).toMatch(/^provider_a failed .*budget/);
    const retryAfter = Number(forced.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(emulators.a.stats.requests).toBe(3);

    const health = await call(app.url, "GET", "/health", { headers: OPERATOR_HEADERS }); // budgets are in the operator view
    expect(health.body.checks.providers.provider_a.circuit).toBe("closed");
    expect(health.body.checks.upstream_budgets.status).toBe("ok");
    expect(health.body.checks.upstream_budgets.provider_a).toMatchObject({
      metered: true,
      unlimited: false,
      windows: [{ limit: 3, window_seconds: 60, remaining: 0 }],
    });
    expect(health.body.checks.upstream_budgets.provider_b).toMatchObject({ metered: true, unlimited: true, windows: [] });
  });
});

describe("long texts (live providers)", () => {
  const text = englishParagraphs(4_800);
  const khayaMark = /\[sandbox:khaya [a-z]+-[a-z]+\] /g;

  it("4,800 characters en→tw: provider_b in ≥ 5 chunks, the emulator never gets more than 1,000 characters, paragraphs kept", async () => {
    const t0 = performance.now();
    const res = await translate({ text, source_lang: "en", target_lang: "tw" });
    const ms = Math.round(performance.now() - t0);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_b", model_used: "provider_b/khaya-v1", quality_score: 0.9, fallback_used: false });
    const { calls, maxChars } = emulators.b.stats.translations;
    console.log(`HTTP: 4,800-character en→tw → ${res.body.segments} chunks, longest ${maxChars} characters at the emulator, ${ms} ms`);
    expect(res.body.segments).toBeGreaterThanOrEqual(5);
    expect(calls).toBe(res.body.segments);
    expect(maxChars).toBeLessThanOrEqual(1_000);
    expect(res.body.translated_text.replace(khayaMark, "")).toBe(hostileTranslation(text)); // every chunk, in order
    expect(res.body.characters_translated).toBe(text.length);
  });

  it("a 2,400-character en→tw text is served (no TEXT_TOO_LONG below the API's 5,000), and a forced provider_b keeps its limit", async () => {
    const res = await translate({ text: englishParagraphs(2_400), source_lang: "en", target_lang: "tw" });
    expect(res.status).toBe(200);
    expect(res.body.provider).toBe("provider_b");
    expect(res.body.segments).toBeGreaterThanOrEqual(3);
    expectEnvelope(
      await translate({ text: englishParagraphs(2_400), source_lang: "en", target_lang: "tw", provider: "provider_b" }),
      422,
      "TEXT_TOO_LONG",
    );
  });

  it("one failing chunk → the next provider serves the whole text, split by its own limit", async () => {
    emulators.b.setControls({ failMode: "malformed", failAfter: 2, failNext: 1 });
    const res = await translate({ text, source_lang: "en", target_lang: "tw" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_c", fallback_used: true, providers_tried: ["provider_b", "provider_c"] });
    expect(res.body.segments).toBe(emulators.c.stats.translations.calls);
    expect(res.body.translated_text).not.toContain("[sandbox:khaya");
  });

  it("batch items are split too, each with its segments", async () => {
    const res = await call(app.url, "POST", "/api/v1/translate/batch", {
      key,
      json: {
        items: [
          { id: "long", text, source_lang: "en", target_lang: "tw" },
          { id: "short", text: "Good morning", source_lang: "en", target_lang: "tw" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ id: "long", provider: "provider_b", error: null });
    expect(res.body.results[0].segments).toBeGreaterThanOrEqual(5);
    expect(res.body.results[1]).toMatchObject({ id: "short", segments: 1 });
    expect(emulators.b.stats.translations.maxChars).toBeLessThanOrEqual(1_000);
  });
});
