import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UNDECIDED_SENTENCES } from "@/lib/detect/test-support";
import type { EmulatorServer } from "@/lib/providers/sandbox";
import { call, mintKey } from "../support/api";
import { OPERATOR_HEADERS, type RunningApp, startApp } from "../support/app";
import { startLiveEmulators } from "../support/emulators";

/**
 * Sunbird's free language identification over HTTP: the built app with live clients on loopback emulators (budgets
 * apply to live providers only) and provider_a's budget at 3 a minute, so any request charged to it shows.
 */

let app: RunningApp;
let key: string;
let emulators: Record<"a" | "b" | "c", EmulatorServer>;

beforeAll(async () => {
  const live = await startLiveEmulators();
  const [a, b, c] = live.emulators;
  emulators = { a, b, c };
  app = await startApp({ env: { ...live.env, UPSTREAM_BUDGET_PROVIDER_A: "3/60s", TRANSLATION_CACHE: "off" } });
  key = await mintKey(app.url, "language id tests");
});
afterAll(async () => {
  await app?.stop();
  await Promise.all(Object.values(emulators ?? {}).map((e) => e.close()));
});
beforeEach(() => {
  for (const e of Object.values(emulators)) e.reset();
});

const remainingBudget = async () => {
  const health = await call(app.url, "GET", "/health", { headers: OPERATOR_HEADERS });
  return health.body.checks.upstream_budgets.provider_a.windows[0].remaining as number;
};

describe("Sunbird's language identification when the local detector is not sure", () => {
  it("POST /detect: Acholi and Ateso sentences of 4–8 words are identified through Sunbird, and provider_a's budget is untouched", async () => {
    const before = await remainingBudget();
    const res = await call(app.url, "POST", "/api/v1/detect", { key, json: { texts: UNDECIDED_SENTENCES.map((s) => s.text) } });
    expect(res.status).toBe(200);
    res.body.results.forEach((r: { language: string; reliable: boolean; method: string }, i: number) => {
      expect(r, UNDECIDED_SENTENCES[i].text).toMatchObject({ language: UNDECIDED_SENTENCES[i].code, reliable: true, method: "language_id" });
    });
    expect(emulators.a.stats.byPath["/tasks/classify_language"]).toBe(UNDECIDED_SENTENCES.length);
    // Lower-cased on Sunbird's side, as it does; the gateway sends the text as it is.
    expect(emulators.a.stats.recent.map((r) => JSON.parse(r.bodyText ?? "{}").text)).toEqual(UNDECIDED_SENTENCES.map((s) => s.text));
    expect(await remainingBudget()).toBe(before);
  });

  it("translate and batch: detection_method says Sunbird decided; only the translation itself is charged", async () => {
    const [acholi, ateso] = [UNDECIDED_SENTENCES[0], UNDECIDED_SENTENCES[2]];
    const before = await remainingBudget();
    const single = await call(app.url, "POST", "/api/v1/translate", { key, json: { text: acholi.text, target_lang: "lug" } });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ detected_source_lang: "ach", detection_method: "language_id", provider: "provider_a" });
    // Identified reliably, so Sunflower is told the source.
    const translation = emulators.a.stats.recent.find((r) => r.path === "/tasks/translate");
    expect(JSON.parse(translation?.bodyText ?? "{}")).toMatchObject({ source_language: "ach", target_language: "lug" });
    expect(await remainingBudget()).toBe(before - 1);

    const batch = await call(app.url, "POST", "/api/v1/translate/batch", {
      key,
      json: {
        items: [
          { id: "teo", text: ateso.text, target_lang: "lug" },
          { id: "given", text: "Good morning", source_lang: "en", target_lang: "sw" },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(
      batch.body.results.map((r: { detected_source_lang: string; detection_method: string | null }) => [r.detected_source_lang, r.detection_method]),
    ).toEqual([
      ["teo", "language_id"],
      ["en", null],
    ]);
  });
});
