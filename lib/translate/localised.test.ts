import { describe, expect, it } from "vitest";
import type { GlossaryWithEntries } from "@/lib/glossaries/store";
import { apiError } from "@/lib/kit/test-support";
import { type ProviderClient, ProviderError, type ProviderId, type TranslateRequest } from "@/lib/providers/types";
import { translateBatch } from "./batch";
import { localisationKey } from "./localised";
import { englishParagraphs } from "./long-text.test-support";
import { type GlossaryLookup, type TranslateDeps, translateText } from "./service";

/** Localisation around the chain (./localised.ts) with fake clients: what is sent, verified, retried and answered. */

type Damage = (text: string) => string;

interface Fake extends ProviderClient {
  sent: string[];
  damage?: Damage;
}

/** A fake "translation": every word outside the tokens upper-cased, the tokens copied (then damaged, if asked). */
function fake(id: ProviderId): Fake {
  const client: Fake = {
    id,
    mode: "live",
    baseUrl: `fake://${id}`,
    sent: [],
    async translate(req: TranslateRequest) {
      client.sent.push(req.text);
      const text = req.text
        .split(/(QZ[A-W]+?X)/)
        .map((part, i) => (i % 2 ? part : part.toUpperCase()))
        .join("");
      return { translatedText: client.damage ? client.damage(text) : text, model: req.hf?.model ?? "m" };
    },
  };
  return client;
}

function setup(glossaries?: GlossaryLookup) {
  const clients = { provider_a: fake("provider_a"), provider_b: fake("provider_b"), provider_c: fake("provider_c") };
  const deps: TranslateDeps = { providers: clients, deadlineMs: 5_000, glossaries };
  return { clients, deps };
}

const dropFirstToken: Damage = (s) => s.replace(/QZ[A-W]+?X/, "");

describe("segments", () => {
  it("sends each ICU branch as its own call on one route, skips a segment with nothing to translate, and counts the calls", async () => {
    const { clients, deps } = setup();
    const r = await translateText(
      { text: "{count, plural, one {# item} other {# items}}", source_lang: "en", target_lang: "lug", provider: "provider_a" },
      deps,
    );
    expect(clients.provider_a.sent.sort()).toEqual(["QZAX item", "QZBX items"]);
    expect(r.translated_text).toBe("{count, plural, one {# ITEM} other {# ITEMS}}");
    expect(r.segments).toBe(2);
  });

  it("a text that is only placeholders still goes to the provider once", async () => {
    const { clients, deps } = setup();
    const r = await translateText({ text: "{name}: %s", source_lang: "en", target_lang: "lug" }, deps);
    expect(clients.provider_a.sent).toEqual(["QZAX: QZBX"]);
    expect(r.translated_text).toBe("{name}: %s");
  });

  it("a long masked text is split for the route at sentence ends: no cut inside a token, every placeholder back", async () => {
    const { clients, deps } = setup();
    const text = englishParagraphs(4_000).replaceAll("maize", "{crop}").replaceAll("market", "<b>market</b>").replaceAll("radio", "%1$s");
    const r = await translateText({ text, source_lang: "en", target_lang: "sw", format: "html" }, deps);
    const sent = clients.provider_c.sent;
    expect(sent.length).toBeGreaterThan(1);
    expect(r.segments).toBe(sent.length);
    // Every "QZ" starts a whole token, and no chunk starts or ends inside one.
    for (const chunk of sent) expect(chunk.replace(/QZ[A-W]+?X/g, "")).not.toMatch(/QZ|[A-W]X\b/);
    expect(r.translated_text.match(/\{crop\}|<b>|<\/b>|%1\$s/g)?.length).toBe(text.match(/\{crop\}|<b>|<\/b>|%1\$s/g)?.length);
  });

  it("a plain text is sent exactly as before: no tokens, one call", async () => {
    const { clients, deps } = setup();
    await translateText({ text: "Good morning", source_lang: "en", target_lang: "lug" }, deps);
    expect(clients.provider_a.sent).toEqual(["Good morning"]);
  });
});

describe("verification inside the route's attempt", () => {
  const input = { text: "Pay {amount} to {name}", source_lang: "en", target_lang: "lug" };

  it("auto: a provider that loses a token is a failure like any other; the next provider serves", async () => {
    const { clients, deps } = setup();
    clients.provider_a.damage = dropFirstToken;
    const r = await translateText(input, deps);
    expect(r).toMatchObject({ provider: "provider_c", fallback_used: true, providers_tried: ["provider_a", "provider_c"] });
    expect(r.translated_text).toBe("PAY {amount} TO {name}");
  });

  it("forced: 503 PROVIDER_ERROR naming the cause, without the text", async () => {
    const { clients, deps } = setup();
    clients.provider_a.damage = (s) => `${s} QZAX`;
    const err = await apiError(translateText({ ...input, provider: "provider_a" }, deps));
    expect(err.code).toBe("PROVIDER_ERROR");
    expect(err.message).toContain("malformed: the answer failed verification: the translation repeated a protected part");
    expect(err.message).not.toContain("amount");
  });

  it("a ProviderError of a segment's call is the route's failure too", async () => {
    const { clients, deps } = setup();
    clients.provider_a.translate = async () => {
      throw new ProviderError("provider_a", "unavailable", "fake 503", 503);
    };
    const r = await translateText({ ...input, text: "{n, plural, one {# cow} other {# cows}}" }, deps);
    expect(r.provider).toBe("provider_c");
  });
});

describe("glossaries and do-not-translate terms", () => {
  const glossary = (sourceLang = "en", targetLang = "lug"): GlossaryWithEntries => ({
    id: "0b6f3c9e-2f1d-4c6a-9a43-8f0e5d7b1a22",
    name: null,
    sourceLang,
    targetLang,
    entryCount: 1,
    createdAt: new Date(0),
    entries: [{ source: "maize", target: "kasooli" }],
  });
  const caller = { apiKeyId: "key-1", bypass: false };

  it("applies the caller's glossary and reports the terms; do-not-translate terms are never sent as words", async () => {
    const lookups: string[] = [];
    const { clients, deps } = setup(async (keyId, id) => {
      lookups.push(`${keyId}/${id}`);
      return glossary();
    });
    const r = await translateText(
      { text: "Maize for Lugha", source_lang: "en", target_lang: "lug", do_not_translate: ["Lugha"], glossary_id: glossary().id },
      deps,
      { caller },
    );
    expect(lookups).toEqual([`key-1/${glossary().id}`]);
    expect(clients.provider_a.sent).toEqual(["QZAX for QZBX"]);
    expect(r).toMatchObject({ translated_text: "kasooli FOR Lugha", glossary_terms_applied: ["kasooli"] });
  });

  it("glossary_id without a caller, of nobody, or for another pair → 422 on glossary_id; nothing is sent", async () => {
    const cases: [GlossaryLookup | undefined, boolean, string][] = [
      [async () => glossary(), false, "glossary_not_found"],
      [async () => undefined, true, "glossary_not_found"],
      [async () => glossary("en", "sw"), true, "glossary_pair_mismatch"],
    ];
    for (const [lookup, withCaller, type] of cases) {
      const { clients, deps } = setup(lookup);
      const err = await apiError(
        translateText({ text: "maize", source_lang: "en", target_lang: "lug", glossary_id: glossary().id }, deps, {
          caller: withCaller ? caller : undefined,
        }),
      );
      expect(err.options.errors).toEqual([{ loc: ["body", "glossary_id"], msg: expect.any(String), type }]);
      expect(clients.provider_a.sent).toEqual([]);
    }
  });

  it("a batch looks its glossary up once for all items; an item's own fields replace the batch's", async () => {
    let lookups = 0;
    const { deps } = setup(async () => {
      lookups++;
      return glossary();
    });
    const items = Array.from({ length: 5 }, (_, i) => ({ id: `i${i}`, text: "maize and Lugha", source_lang: "en", target_lang: "lug" }));
    items[4] = { ...items[4], do_not_translate: ["and"] } as (typeof items)[number];
    const r = await translateBatch(items, "auto", deps, { caller, defaults: { glossary_id: glossary().id, do_not_translate: ["Lugha"] } });
    expect(lookups).toBe(1);
    expect(r.results.slice(0, 4).map((x) => x.translated_text)).toEqual(Array(4).fill("kasooli AND Lugha"));
    expect(r.results[4].translated_text).toBe("kasooli and LUGHA");
  });
});

describe("the cache key part", () => {
  it("holds the format, the do-not-translate terms as a set and the glossary id", () => {
    const key = (extra: Partial<Parameters<typeof localisationKey>[0]>) =>
      JSON.stringify(localisationKey({ format: "text", doNotTranslate: [], ...extra }));
    expect(key({ doNotTranslate: ["b", "a", "a"] })).toBe(key({ doNotTranslate: ["a", "b"] }));
    expect(key({ format: "html" })).not.toBe(key({}));
    expect(key({ glossary: { id: "g1", entries: [] } })).not.toBe(key({ glossary: { id: "g2", entries: [] } }));
  });
});
