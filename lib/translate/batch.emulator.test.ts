import { describe, expect, it } from "vitest";
import { createTranslationCache, SingleFlight } from "@/lib/cache";
import { loadConfig } from "@/lib/config";
import type { GlossaryWithEntries } from "@/lib/glossaries/store";
import { HuggingFaceClient, KhayaClient, SunbirdClient } from "@/lib/providers";
import { hostileTranslation } from "@/lib/providers/sandbox";
import type { ProviderClient } from "@/lib/providers/types";
import { cacheSettings } from "@/lib/server/settings";
import { translateBatch } from "./batch";
import { emulatorServersForFile } from "./emulators.test-support";
import type { BatchItem } from "./schemas";
import type { TranslateDeps } from "./service";

/** Packed batches against the real clients and the emulators over loopback HTTP: quota units counted at the upstream. */

const servers = emulatorServersForFile({}, { resetEach: true });

function deps(wrap: (c: ProviderClient) => ProviderClient = (c) => c): TranslateDeps {
  const common = { policy: { maxRetries: 0 }, circuit: { failureThreshold: 1000, cooldownMs: 60_000 } };
  return {
    providers: {
      provider_a: wrap(new SunbirdClient({ baseUrl: servers.provider_a.url, ...common })),
      provider_b: wrap(new KhayaClient({ baseUrl: servers.provider_b.url, ...common })),
      provider_c: wrap(new HuggingFaceClient({ baseUrl: servers.provider_c.url, ...common })),
    },
    deadlineMs: 10_000,
  };
}

const quotaUnits = () => Object.values(servers).reduce((n, s) => n + s.stats.quotaUnits, 0);

/** n distinct short UI strings (the catalog's kind of text), from `from` on. */
const UI = ["Save changes", "Cancel", "Open settings", "Delete {name}?", "Sign in", "Your <b>account</b>", "Next page", "Try again"];
const strings = (n: number, target: string, from = 0): BatchItem[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `s${from + i}`,
    text: `${UI[(from + i) % UI.length]} ${from + i}`,
    source_lang: "en",
    target_lang: target,
  }));

describe("packed batches against the emulators", () => {
  it.each([
    ["lug", "provider_a", "sunbird", 3],
    ["tw", "provider_b", "khaya", 6],
    ["sw", "provider_c", "hf", 6],
  ] as const)(
    "50 distinct short strings en→%s cost at most the issue's calls on %s, each item its own translation",
    async (target, provider, kind, most) => {
      const items = strings(50, target);
      const r = await translateBatch(items, undefined, deps());
      expect(r.succeeded).toBe(50);
      expect(r.upstream_calls).toBe(servers[provider].stats.quotaUnits);
      expect(r.upstream_calls).toBe(quotaUnits());
      expect(r.upstream_calls).toBeLessThanOrEqual(most);
      console.info(`50 short strings en→${target} on ${provider}: ${r.upstream_calls} upstream calls`);
      r.results.forEach((res, i) => {
        expect(res.id).toBe(items[i].id);
        expect(res.provider).toBe(provider);
        expect(res.translated_text).toMatch(new RegExp(`^\\[sandbox:${kind} [^\\]]+\\] `));
        expect(res.translated_text).toContain(items[i].text.replace(/^.*? (\d+)$/, "$1"));
        expect(res.segments).toBe(1);
      });
      expect(r.results[3].translated_text).toContain("{name}");
    },
  );

  it("longer texts pack within each provider's per-call limit", async () => {
    const sentence = "Good morning, how are you? The market opens at eight and the bus leaves at nine.";
    for (const [target, provider, limit] of [
      ["lug", "provider_a", 1_200],
      ["tw", "provider_b", 1_000],
    ] as const) {
      const items = Array.from({ length: 50 }, (_, i) => ({ id: `t${i}`, text: `${sentence} (${i})`, source_lang: "en", target_lang: target }));
      const r = await translateBatch(items, undefined, deps());
      expect(r.succeeded).toBe(50);
      expect(servers[provider].stats.translations.maxChars).toBeLessThanOrEqual(limit);
      expect(r.upstream_calls).toBe(servers[provider].stats.quotaUnits);
      expect(r.upstream_calls).toBeLessThan(10);
      console.info(`50 sentences en→${target} on ${provider}: ${r.upstream_calls} upstream calls`);
    }
  });

  it("100 strings as two batches cost at most 6 calls on every provider", async () => {
    for (const [target, provider] of [
      ["lug", "provider_a"],
      ["tw", "provider_b"],
      ["sw", "provider_c"],
    ] as const) {
      const d = deps();
      const one = await translateBatch(strings(50, target), undefined, d);
      const two = await translateBatch(strings(50, target, 50), undefined, d);
      expect(one.succeeded + two.succeeded).toBe(100);
      expect(one.upstream_calls + two.upstream_calls).toBe(servers[provider].stats.quotaUnits);
      expect(servers[provider].stats.quotaUnits).toBeLessThanOrEqual(6);
    }
  });

  it("a pack whose answer loses a separator is sent again item by item, and every item is still right", async () => {
    const dropSeparator = (c: ProviderClient): ProviderClient =>
      Object.assign(Object.create(Object.getPrototypeOf(c)), c, {
        translate: async (req: Parameters<ProviderClient["translate"]>[0]) => {
          const res = await c.translate(req);
          return { ...res, translatedText: res.translatedText.replace(/QZBAAAAX/, "") };
        },
      });
    const items = strings(5, "lug");
    const r = await translateBatch(items, undefined, deps(dropSeparator));
    // One packed call, then one call per item.
    expect(r.upstream_calls).toBe(6);
    expect(servers.provider_a.stats.quotaUnits).toBe(6);
    // Each as the hostile sandbox translates it on its own: every word changed, the placeholder back as it was sent.
    const alone = (text: string) =>
      text
        .split(/(\{name\})/)
        .map((part) => (part === "{name}" ? part : hostileTranslation(part)))
        .join("");
    expect(r.results.map((x) => x.translated_text)).toEqual(items.map((x) => `[sandbox:sunbird eng→lug] ${alone(x.text)}`));
  });

  it("a pack whose provider fails falls back item by item; a forced provider fails each item", async () => {
    servers.provider_a.setControls({ failMode: "status", status: 503 });
    const r = await translateBatch(strings(10, "lug"), undefined, deps());
    expect(r.succeeded).toBe(10);
    expect(r.results.every((x) => x.fallback_used === true && x.provider !== "provider_a")).toBe(true);
    expect(servers.provider_a.stats.quotaUnits).toBe(1); // one packed call failed; nothing re-sent to it
    expect(r.upstream_calls).toBe(quotaUnits());

    const forced = await translateBatch(strings(3, "lug"), "provider_a", deps());
    expect(forced.failed).toBe(3);
    expect(forced.results.map((x) => x.error_code)).toEqual(["PROVIDER_ERROR", "PROVIDER_ERROR", "PROVIDER_ERROR"]);
  });

  it("a batch mixing cached, new, failing and glossary items keeps each item's own result", async () => {
    const glossary: GlossaryWithEntries = {
      id: "0b7f1c56-7a43-4d55-9a3e-3f1f0e1d2c3b",
      name: "terms",
      sourceLang: "en",
      targetLang: "lug",
      entries: [{ source: "invoice", target: "ebbaluwa" }],
      entryCount: 1,
      createdAt: new Date(0),
    };
    const d: TranslateDeps = {
      ...deps(),
      caching: { cache: createTranslationCache(cacheSettings(loadConfig({})), () => 1_000_000), flights: new SingleFlight() },
      glossaries: async (_key, id) => (id === glossary.id ? glossary : undefined),
    };
    const caller = { apiKeyId: "key-1", bypass: false };
    await translateBatch([{ id: "warm", text: "Good morning", source_lang: "en", target_lang: "lug" }], undefined, d, { caller });
    const before = quotaUnits();
    const items: BatchItem[] = [
      { id: "cached", text: "Good morning", source_lang: "en", target_lang: "lug" },
      { id: "new", text: "Good evening", source_lang: "en", target_lang: "lug" },
      { id: "same-again", text: "Good evening", source_lang: "en", target_lang: "lug" },
      { id: "blank", text: "   ", source_lang: "en", target_lang: "lug" },
      { id: "bad-lang", text: "Good evening", source_lang: "en", target_lang: "xx" },
      { id: "glossary", text: "Pay the invoice", source_lang: "en", target_lang: "lug", glossary_id: glossary.id },
      { id: "wrong-pair", text: "Pay the invoice", source_lang: "en", target_lang: "tw", glossary_id: glossary.id },
      { id: "dnt", text: "Open Lugha now", source_lang: "en", target_lang: "lug", do_not_translate: ["Lugha"] },
    ];
    const r = await translateBatch(items, undefined, d, { caller });
    const by = Object.fromEntries(r.results.map((x) => [x.id, x]));
    expect(r.results.map((x) => x.id)).toEqual(items.map((x) => x.id));
    expect(by.cached).toMatchObject({
      cached: true,
      translated_text: `[sandbox:sunbird eng→lug] ${hostileTranslation("Good morning")}`,
      error: null,
    });
    expect(by.new).toMatchObject({ cached: false, translated_text: `[sandbox:sunbird eng→lug] ${hostileTranslation("Good evening")}` });
    expect(by["same-again"]).toMatchObject({ cached: true, translated_text: `[sandbox:sunbird eng→lug] ${hostileTranslation("Good evening")}` });
    expect(by.blank).toMatchObject({ error_code: "VALIDATION_ERROR", translated_text: null });
    expect(by["bad-lang"]).toMatchObject({ error_code: "UNSUPPORTED_LANGUAGE", translated_text: null });
    expect(by.glossary).toMatchObject({ glossary_terms_applied: ["ebbaluwa"], error: null });
    expect(by.glossary.translated_text).toContain("ebbaluwa");
    expect(by["wrong-pair"]).toMatchObject({ error_code: "VALIDATION_ERROR" });
    expect(by.dnt.translated_text).toContain("Lugha");
    expect(r).toMatchObject({ succeeded: 5, failed: 3 });
    // The new texts, different protection settings: one call for the plain ones, one each for the others at most.
    expect(r.upstream_calls).toBe(quotaUnits() - before);
    expect(r.upstream_calls).toBeLessThanOrEqual(3);
  });
});
