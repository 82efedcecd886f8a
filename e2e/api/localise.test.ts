import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HTML, htmlStructure, ICU, icuSkeleton, MARKDOWN, markdownStructure, placeholders, TEXT } from "@/lib/localise/samples.test-support";
import { type EmulatorServer, hostileTranslation } from "@/lib/providers/sandbox";
import { call, expectEnvelope, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";
import { startLiveEmulators } from "../support/emulators";

/*
 * Localisation over HTTP against the built app (docs/decisions.md "Localising an app"): live provider clients on loopback
 * emulators, so every provider's wire format carries the masked text, and the token-damage fault (failMode "tokens")
 * shows what the gateway does with a provider that loses, repeats, moves or mangles tokens.
 */

let emulators: [EmulatorServer, EmulatorServer, EmulatorServer];
let app: RunningApp;
let key: string;
let otherKey: string;

beforeAll(async () => {
  const live = await startLiveEmulators();
  emulators = live.emulators;
  app = await startApp({
    env: {
      ...live.env,
      RATE_LIMIT_TRANSLATE: "2000/60s",
      RATE_LIMIT_BATCH: "200/60s",
      // The table alone makes about 80 upstream calls per provider.
      UPSTREAM_BUDGET_PROVIDER_A: "unlimited",
      UPSTREAM_BUDGET_PROVIDER_B: "unlimited",
      UPSTREAM_BUDGET_PROVIDER_C: "unlimited",
    },
  });
  [key, otherKey] = await Promise.all([mintKey(app.url, "localise"), mintKey(app.url, "someone else")]);
});
afterAll(async () => {
  await stopAllApps();
  await Promise.all((emulators ?? []).map((e) => e.close()));
});
beforeEach(() => {
  for (const e of emulators) e.reset();
});

const translate = (json: Record<string, unknown>, k = key) => call(app.url, "POST", "/api/v1/translate", { key: k, json });
const batch = (json: Record<string, unknown>) => call(app.url, "POST", "/api/v1/translate/batch", { key, json });
const upstreamCalls = () => emulators.reduce((n, e) => n + e.stats.translations.calls, 0);

/** What the emulators put before their echo ("[sandbox:hf … en→sw] "): not part of the structure under test. */
const withoutSandboxMarks = (s: string) => s.replace(/\[sandbox:[^\]]*\] /g, "");

/** One pair per provider, forced, so each emulator's wire carries the masked text. */
const PROVIDERS = [
  ["provider_a", "lug"],
  ["provider_b", "tw"],
  ["provider_c", "sw"],
] as const;

const TABLE = [
  ...TEXT.map((text) => ({ format: "text" as const, text })),
  ...ICU.map((text) => ({ format: "text" as const, text })),
  ...HTML.map((text) => ({ format: "html" as const, text })),
  ...MARKDOWN.map((text) => ({ format: "markdown" as const, text })),
];

describe("the localisation table through every provider's emulator", () => {
  it(`has at least 60 strings (${TABLE.length})`, () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
  });

  const cases = PROVIDERS.flatMap(([provider, target]) => TABLE.map((row) => ({ provider, target, ...row })));
  it.each(cases)("$provider $format: $text", async ({ provider, target, format, text }) => {
    const res = await translate({ text, source_lang: "en", target_lang: target, provider, format, cache: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ provider, glossary_terms_applied: null, fallback_used: false });
    const out = withoutSandboxMarks(res.body.translated_text);
    // The emulator answered: its mark is in the answer, so what came back went through the provider's wire.
    expect(res.body.translated_text).toContain("[sandbox:");
    // An ICU message's branches are translated (its arguments, selectors and `#` are compared by icuSkeleton below).
    if (!ICU.includes(text)) expect(placeholders(out)).toEqual(placeholders(text));
    if (format === "html") expect(htmlStructure(out)).toEqual(htmlStructure(text));
    if (format === "markdown") expect(markdownStructure(out)).toEqual(markdownStructure(text));
    if (ICU.includes(text)) expect(icuSkeleton(out)).toEqual(icuSkeleton(text));
    // Nothing protected reached the provider: no placeholder, tag or URL, only tokens and text.
    const sent = emulators.flatMap((e) => e.stats.recent.map((r) => r.bodyText ?? "")).join("\n");
    for (const p of placeholders(text)) expect(sent).not.toContain(JSON.stringify(p).slice(1, -1));
  });

  it("a batch with a format for the batch and one item's own", async () => {
    const items = [
      ...HTML.slice(0, 10).map((text, i) => ({ id: `h${i}`, text, source_lang: "en", target_lang: "sw" })),
      ...MARKDOWN.slice(0, 10).map((text, i) => ({ id: `m${i}`, text, source_lang: "en", target_lang: "sw", format: "markdown" })),
    ];
    const res = await batch({ items, format: "html", provider: "provider_c", cache: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body.failed).toBe(0);
    res.body.results.forEach((r: { id: string; translated_text: string }, i: number) => {
      const out = withoutSandboxMarks(r.translated_text);
      if (r.id.startsWith("h")) expect(htmlStructure(out)).toEqual(htmlStructure(items[i].text));
      else expect(markdownStructure(out)).toEqual(markdownStructure(items[i].text));
    });
  });

  it("malformed HTML and Markdown are translated without error: what is not text is kept as written", async () => {
    const mt = hostileTranslation;
    for (const [format, text, expected] of [
      ["html", "<b><i>crossed</b></i> text <p <p> &unknown; <", `<b><i>${mt("crossed")}</b></i> ${mt("text")} <p <p> &unknown; <`],
      ["markdown", "**unclosed *mixed_ [link](no close `tick", mt("**unclosed *mixed_ [link](no close `tick")],
    ]) {
      const res = await translate({ text, source_lang: "en", target_lang: "sw", format, cache: false });
      expect(res.status, res.text).toBe(200);
      // Every word translated (hostile emulators), everything else as written.
      expect(withoutSandboxMarks(res.body.translated_text)).toBe(expected);
    }
  });
});

describe("a provider that damages tokens", () => {
  const text = "Pay {amount} to {name} before %1$s";
  const [sunbird, , hf] = [0, 1, 2].map((i) => () => emulators[i]);

  it.each(["drop", "duplicate", "mangle"])("%s, forced: 503 PROVIDER_ERROR naming the cause, never a broken 200", async (variant) => {
    sunbird().setControls({ failMode: "tokens", variant });
    const res = await translate({ text, source_lang: "en", target_lang: "lug", provider: "provider_a", cache: false });
    const detail = expectEnvelope(res, 503, "PROVIDER_ERROR");
    expect(detail.message).toMatch(/failed verification: the translation (lost|repeated|contains a token that was not sent)/);
    expect(res.text).not.toContain("{amount}");
    expect(sunbird().stats.translations.calls).toBe(1);
  });

  it.each(["drop", "duplicate", "mangle"])("%s, auto: the next provider serves, placeholders intact", async (variant) => {
    sunbird().setControls({ failMode: "tokens", variant });
    const res = await translate({ text, source_lang: "en", target_lang: "lug", cache: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_c", fallback_used: true, providers_tried: ["provider_a", "provider_c"] });
    expect(placeholders(res.body.translated_text)).toEqual(placeholders(text));
  });

  it("auto, one model damages tokens: the provider's next model serves", async () => {
    hf().setControls({ failMode: "tokens", variant: "drop", failNext: 1 });
    const res = await translate({ text, source_lang: "en", target_lang: "sw", cache: false });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_c", model_used: "provider_c/facebook/nllb-200-distilled-600M" });
    expect(hf().stats.translations.calls).toBe(2);
  });

  it("moved tokens are accepted (word order differs between languages); moved markup out of its nesting is not", async () => {
    sunbird().setControls({ failMode: "tokens", variant: "move" });
    const moved = await translate({
      text: "{name} sent {amount} to {friend}",
      source_lang: "en",
      target_lang: "lug",
      provider: "provider_a",
      cache: false,
    });
    expect(moved.status, moved.text).toBe(200);
    expect(withoutSandboxMarks(moved.body.translated_text)).toBe(
      `{friend} ${hostileTranslation("sent")} {amount} ${hostileTranslation("to")} {name}`,
    );

    const markup = await translate({
      text: "<b>Pay</b> {amount} now",
      source_lang: "en",
      target_lang: "lug",
      provider: "provider_a",
      format: "html",
      cache: false,
    });
    expect(expectEnvelope(markup, 503, "PROVIDER_ERROR").message).toContain("nesting");
  });

  it("in a batch, the damaged item fails on its own (forced) and the others succeed", async () => {
    sunbird().setControls({ failMode: "tokens", variant: "drop" });
    const res = await batch({
      items: [
        { id: "tokens", text: "Hello {name}", source_lang: "en", target_lang: "lug" },
        { id: "plain", text: "Good morning", source_lang: "en", target_lang: "lug" },
      ],
      provider: "provider_a",
      cache: false,
    });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ error_code: "PROVIDER_ERROR", translated_text: null, glossary_terms_applied: null });
    expect(res.body.results[1]).toMatchObject({ error: null, provider: "provider_a" });
  });
});

describe("do-not-translate terms and glossaries", () => {
  let farming: string;
  let farmingV2: string;
  beforeAll(async () => {
    const create = async (entries: { source: string; target: string }[]) => {
      const res = await call(app.url, "POST", "/api/v1/glossaries", { key, json: { source_lang: "en", target_lang: "lug", entries } });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    farming = await create([
      { source: "maize", target: "kasooli" },
      { source: "Lugha", target: "LUGHA-TERM" },
    ]);
    farmingV2 = await create([{ source: "maize", target: "kasooli ka bulijjo" }]);
  });

  it("glossary terms replace whole words, ignoring case; do-not-translate terms stay as written; both are reported", async () => {
    const res = await translate({
      text: "Plant Maize near the maizefield with M-Pesa and Lugha.",
      source_lang: "en",
      target_lang: "lug",
      do_not_translate: ["M-Pesa", "Lugha"],
      glossary_id: farming,
      cache: false,
    });
    expect(res.status, res.text).toBe(200);
    const out = withoutSandboxMarks(res.body.translated_text);
    // Do-not-translate wins over the glossary's "Lugha"; "maizefield" is not the whole word "maize".
    const mt = hostileTranslation; // what the emulators make of each word sent (tests run them hostile)
    expect(out).toBe(`${mt("Plant")} kasooli ${mt("near the maizefield with")} M-Pesa ${mt("and")} Lugha.`);
    expect(res.body.glossary_terms_applied).toEqual(["kasooli"]);
    // The glossary's term never reached the provider: it was a token.
    const sent = emulators[0].stats.recent.map((r) => r.bodyText ?? "").join("\n");
    expect(sent).not.toMatch(/\bMaize\b/);
  });

  it("a glossary of the pair with none of its terms in the text: [] applied", async () => {
    const res = await translate({ text: "Good morning", source_lang: "en", target_lang: "lug", glossary_id: farming, cache: false });
    expect(res.status).toBe(200);
    expect(res.body.glossary_terms_applied).toEqual([]);
  });

  it("batch: the batch's glossary and terms apply to every item without its own; an item's own replace them", async () => {
    const res = await batch({
      items: [
        { id: "batch-glossary", text: "maize and M-Pesa", source_lang: "en", target_lang: "lug" },
        { id: "own-glossary", text: "maize and M-Pesa", source_lang: "en", target_lang: "lug", glossary_id: farmingV2, do_not_translate: ["and"] },
        { id: "other-pair", text: "maize", source_lang: "en", target_lang: "sw" },
      ],
      glossary_id: farming,
      do_not_translate: ["M-Pesa"],
      cache: false,
    });
    expect(res.status, res.text).toBe(200);
    const [first, second, third] = res.body.results;
    expect(withoutSandboxMarks(first.translated_text)).toBe(`kasooli ${hostileTranslation("and")} M-Pesa`);
    expect(first.glossary_terms_applied).toEqual(["kasooli"]);
    // The item's own terms replace the batch's: "and" is kept, "M-Pesa" is translated like any word.
    expect(withoutSandboxMarks(second.translated_text)).toBe(`kasooli ka bulijjo and ${hostileTranslation("M-Pesa")}`);
    expect(second.glossary_terms_applied).toEqual(["kasooli ka bulijjo"]);
    expect(third).toMatchObject({ error_code: "VALIDATION_ERROR", translated_text: null });
    expect(res.body.failed).toBe(1);
  });

  it("the cache keeps glossary versions apart: A then B are two misses, A again a hit", async () => {
    const ask = (glossary_id: string) => translate({ text: "Sell the maize at noon", source_lang: "en", target_lang: "lug", glossary_id });
    const a = await ask(farming);
    const b = await ask(farmingV2);
    const again = await ask(farming);
    expect([a, b, again].map((r) => r.headers.get("x-lugha-cache"))).toEqual(["miss", "miss", "hit"]);
    expect(upstreamCalls()).toBe(2);
    expect(withoutSandboxMarks(a.body.translated_text)).toBe(`${hostileTranslation("Sell the")} kasooli ${hostileTranslation("at noon")}`);
    expect(withoutSandboxMarks(b.body.translated_text)).toBe(`${hostileTranslation("Sell the")} kasooli ka bulijjo ${hostileTranslation("at noon")}`);
    expect(again.body).toMatchObject({ cached: true, glossary_terms_applied: ["kasooli"], translated_text: a.body.translated_text });
  });

  it("the cache key holds the format and the do-not-translate terms as a set", async () => {
    const ask = (extra: Record<string, unknown>) =>
      translate({ text: "Pay <b>Lugha</b> with M-Pesa", source_lang: "en", target_lang: "lug", ...extra });
    const statuses = [];
    for (const extra of [
      { format: "text" },
      { format: "html" },
      { format: "html", do_not_translate: ["Lugha", "M-Pesa"] },
      { format: "html", do_not_translate: ["M-Pesa", "Lugha", "Lugha"] },
    ])
      statuses.push((await ask(extra)).headers.get("x-lugha-cache"));
    expect(statuses).toEqual(["miss", "miss", "miss", "hit"]);
  });

  it("glossary_id: unknown, another key's, or for another pair (detected source included) → 422 on glossary_id", async () => {
    const unknown = await translate({ text: "maize", source_lang: "en", target_lang: "lug", glossary_id: "0b6f3c9e-2f1d-4c6a-9a43-8f0e5d7b1a22" });
    expect(expectEnvelope(unknown, 422, "VALIDATION_ERROR").errors).toEqual([
      { loc: ["body", "glossary_id"], msg: expect.any(String), type: "glossary_not_found" },
    ]);
    const foreign = await translate({ text: "maize", source_lang: "en", target_lang: "lug", glossary_id: farming }, otherKey);
    expect(expectEnvelope(foreign, 422, "VALIDATION_ERROR").errors?.[0]).toMatchObject({ loc: ["body", "glossary_id"], type: "glossary_not_found" });
    const pair = await translate({ text: "maize", source_lang: "en", target_lang: "sw", glossary_id: farming });
    expect(expectEnvelope(pair, 422, "VALIDATION_ERROR").errors?.[0]).toMatchObject({ loc: ["body", "glossary_id"], type: "glossary_pair_mismatch" });
    expect(upstreamCalls()).toBe(0);
    // Without source_lang the detected source counts: this text is detected as English, the glossary's source.
    const detected = await translate({ text: "Plant the maize early in the rainy season", target_lang: "lug", glossary_id: farming, cache: false });
    expect(detected.status, detected.text).toBe(200);
    expect(detected.body).toMatchObject({ detected_source_lang: "en", glossary_terms_applied: ["kasooli"] });
  });
});

describe("validation of the localisation fields: the envelope, never the input", () => {
  const hostile = "<img src=x onerror=zzhostile>";
  const base = { text: "Hello {name}", source_lang: "en", target_lang: "lug" };
  const cases: [string, Record<string, unknown>, (string | number)[]][] = [
    ["format not one of the three", { format: hostile }, ["body", "format"]],
    ["format not a string", { format: 3 }, ["body", "format"]],
    ["do_not_translate not an array", { do_not_translate: hostile }, ["body", "do_not_translate"]],
    ["do_not_translate holding a number", { do_not_translate: ["ok", 7] }, ["body", "do_not_translate", 1]],
    ["do_not_translate with 101 terms", { do_not_translate: Array.from({ length: 101 }, (_, i) => `${hostile}${i}`) }, ["body", "do_not_translate"]],
    ["a do-not-translate term of 101 characters", { do_not_translate: [hostile.padEnd(101, "x")] }, ["body", "do_not_translate", 0]],
    ["an empty do-not-translate term", { do_not_translate: ["  "] }, ["body", "do_not_translate", 0]],
    ["glossary_id not a UUID", { glossary_id: hostile }, ["body", "glossary_id"]],
    ["an ICU message that does not parse", { text: `{count, plural, one {# ${hostile}}` }, ["body", "text"]],
  ];

  it.each(cases)("%s → 422 VALIDATION_ERROR", async (_, extra, loc) => {
    const res = await translate({ ...base, ...extra });
    const detail = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(detail.errors?.map((e) => e.loc)).toContainEqual(loc);
    expect(res.text).not.toContain("zzhostile");
    expect(upstreamCalls()).toBe(0);
  });

  it("a batch: a bad item field or batch field is a 422 for the whole batch", async () => {
    const item = { id: "a", ...base };
    const badItem = await batch({ items: [{ ...item, format: "xml" }] });
    expect(expectEnvelope(badItem, 422, "VALIDATION_ERROR").errors?.[0].loc).toEqual(["body", "items", 0, "format"]);
    const badBatch = await batch({ items: [item], do_not_translate: [hostile.repeat(20)] });
    expect(expectEnvelope(badBatch, 422, "VALIDATION_ERROR").errors?.[0].loc).toEqual(["body", "do_not_translate", 0]);
    expect(badBatch.text).not.toContain("zzhostile");
  });
});
