import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UpstreamBudgets } from "@/lib/budgets";
import { createTranslationCache, SingleFlight } from "@/lib/cache";
import { loadCatalogFormats, parseCatalog } from "@/lib/catalog";
import { loadConfig } from "@/lib/config";
import { apiError } from "@/lib/kit/test-support";
import { HuggingFaceClient, KhayaClient, SunbirdClient, type UpstreamBudget } from "@/lib/providers";
import { hostileTranslation } from "@/lib/providers/sandbox";
import type { ProviderClient } from "@/lib/providers/types";
import { MemoryRateLimitStore } from "@/lib/ratelimit/memory";
import { cacheSettings } from "@/lib/server/settings";
import { translateCatalog } from "./catalog";
import type { CatalogRequest } from "./catalog-schemas";
import { emulatorServersForFile } from "./emulators.test-support";
import type { TranslateDeps } from "./service";

// parseCatalog and friends need the format's module loaded (lib/catalog/index.ts loadCatalogFormat).
await loadCatalogFormats();

/** Catalogs against the real clients and the emulators over loopback HTTP: calls counted at the upstream. */

const servers = emulatorServersForFile({}, { resetEach: true });

function deps(budget?: UpstreamBudget, wrap: (c: ProviderClient) => ProviderClient = (c) => c): TranslateDeps {
  const common = { budget, policy: { maxRetries: 0 }, circuit: { failureThreshold: 1000, cooldownMs: 60_000 } };
  return {
    providers: {
      provider_a: wrap(new SunbirdClient({ baseUrl: servers.provider_a.url, ...common })),
      provider_b: wrap(new KhayaClient({ baseUrl: servers.provider_b.url, ...common })),
      provider_c: wrap(new HuggingFaceClient({ baseUrl: servers.provider_c.url, ...common })),
    },
    deadlineMs: 10_000,
  };
}

/** What the emulators (hostile in tests) make of a text sent unmasked to Sunbird for Luganda. */
const sunbirdLug = (text: string) => `[sandbox:sunbird eng→lug] ${hostileTranslation(text)}`;

const upstreamCalls = () => Object.values(servers).reduce((n, s) => n + s.stats.requests, 0);
const fixture = (name: string) => readFileSync(join(__dirname, "../catalog/fixtures", name), "utf8");

/** A flat JSON catalog of n short UI strings. */
function bigCatalog(n: number, changed?: number): string {
  const entries: Record<string, string> = {};
  for (let i = 0; i < n; i++)
    entries[`screen${Math.floor(i / 20)}.label${i}`] = i === changed ? `Changed label number ${i}` : `Open the settings for item {name} number ${i}`;
  return JSON.stringify(entries, null, 2);
}

const request = (over: Partial<CatalogRequest> = {}): CatalogRequest => ({
  format: "json",
  content: fixture("i18next.json"),
  source_lang: "en",
  target_lang: "lug",
  ...over,
});

describe("translateCatalog against the emulators", () => {
  it("translates every value in one packed call and keeps keys, structure, placeholders and untranslatable values", async () => {
    const r = await translateCatalog(request(), deps());
    expect(r.upstream_calls).toBe(1);
    expect(upstreamCalls()).toBe(1);
    expect(r.provider).toBe("provider_a");
    const out = JSON.parse(r.content);
    expect(out.app.title).toBe(sunbirdLug("Welcome to Lugha"));
    expect(out.app.greeting).toBe(`${sunbirdLug("Hello,")} {{name}}!`);
    expect(out.app.help).toContain(`<1>${hostileTranslation("the guide")}</1>`);
    expect(out.app.docs).toBe("https://lugha.example/docs");
    expect(out.app.format).toBe("%s");
    expect(out.count).toBe(3);
    // Luganda has one and other: the i18next plural keys stay, translated.
    expect(Object.keys(out.app)).toEqual(Object.keys(JSON.parse(request().content).app));
    expect(out.app.items_other).toBe(`[sandbox:sunbird eng→lug] {{count}} ${hostileTranslation("items")}`);
    expect(r.entries.failed).toEqual([]);
    expect(r.entries.translated + r.entries.kept).toBe(r.entries.total);
    expect(r.characters_translated).toBeGreaterThan(0);
  });

  it("packs a 600-entry catalog into few calls per provider, within each one's input limit", async () => {
    const content = bigCatalog(600);
    const perProvider: Record<string, number> = {};
    for (const [target, provider] of [
      ["lug", "provider_a"],
      ["tw", "provider_b"],
      ["sw", "provider_c"],
    ] as const) {
      const r = await translateCatalog(request({ content, target_lang: target }), deps());
      expect(r.provider).toBe(provider);
      expect(r.entries).toMatchObject({ total: 600, translated: 600, pending: 0, failed: [] });
      expect(servers[provider].stats.requests).toBe(r.upstream_calls);
      perProvider[provider] = r.upstream_calls;
      for (const value of Object.values(JSON.parse(r.content) as Record<string, string>))
        expect(value).toMatch(
          new RegExp(String.raw`^\[sandbox:.*\] ${hostileTranslation("Open the settings for item")} \{name\} ${hostileTranslation("number")} \d+$`),
        );
    }
    // Sunbird takes 1,200 characters per call, Khaya 1,000, the Hugging Face models 512 tokens (estimated).
    expect(perProvider.provider_a).toBeLessThanOrEqual(60);
    console.info(`calls per 600 entries: ${JSON.stringify(perProvider)}`);
  });

  it("with existing and one changed string, sends one call; untouched entries are kept", async () => {
    const d = deps();
    const first = await translateCatalog(request({ content: bigCatalog(100) }), d);
    expect(first.entries.pending).toBe(0);
    const before = servers.provider_a.stats.requests;
    const second = await translateCatalog(request({ content: bigCatalog(100, 42), existing: first.content, source_hashes: first.source_hashes }), d);
    expect(servers.provider_a.stats.requests - before).toBe(1);
    expect(second).toMatchObject({ upstream_calls: 1, entries: { total: 100, translated: 1, kept: 99, kept_unverified: 0, pending: 0 } });
    expect(JSON.parse(second.content)["screen2.label42"]).toBe(sunbirdLug("Changed label number 42"));
  });

  it("with existing but without source_hashes for a format that needs them, says how many entries were kept unproven", async () => {
    const d = deps();
    const first = await translateCatalog(request({ content: bigCatalog(10) }), d);
    const second = await translateCatalog(request({ content: bigCatalog(10, 4), existing: first.content }), d);
    // Nothing proves that the sources of the 10 values of `existing` are unchanged: one of them is not, and is kept.
    expect(second.entries).toMatchObject({ total: 10, translated: 0, kept: 10, kept_unverified: 10 });
    const proven = await translateCatalog(request({ content: bigCatalog(10, 4), existing: first.content, source_hashes: first.source_hashes }), d);
    expect(proven.entries).toMatchObject({ translated: 1, kept: 9, kept_unverified: 0 });
  });

  it("an answer identical to its source is a translation: written in the file, counted, and kept on the next call", async () => {
    // A provider that gives every text back as sent (as MT does for "PM", "%s KB", "HH").
    const d = deps(undefined, (c) => ({ ...c, mode: c.mode, translate: async (req) => ({ ...(await c.translate(req)), translatedText: req.text }) }));
    const content =
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "PM"\nmsgstr ""\n\n#, c-format\nmsgid "%s KB"\nmsgstr ""\n';
    const r = await translateCatalog(request({ format: "po", content }), d);
    expect(r.entries).toMatchObject({ total: 2, translated: 2, kept: 0, failed: [] });
    expect(r.content).toContain('msgid "PM"\nmsgstr "PM"');
    expect(r.content).toContain('msgid "%s KB"\nmsgstr "%s KB"');
    const again = await translateCatalog(request({ format: "po", content, existing: r.content }), d);
    expect(again).toMatchObject({ upstream_calls: 0, entries: { translated: 0, kept: 2, kept_unverified: 0 } });
  });

  it("leaves what the upstream budget cannot take pending, says when to come back, and continues from the file", async () => {
    const budgets = new UpstreamBudgets(new MemoryRateLimitStore(), { provider_a: [{ limit: 2, windowMs: 60_000 }], provider_b: [], provider_c: [] });
    const d = { ...deps(budgets), batch: { deadlineMs: 30_000, concurrencyPerProvider: 1 } };
    const content = bigCatalog(300);
    const r = await translateCatalog(request({ content }), d);
    expect(servers.provider_a.stats.requests).toBe(2);
    expect(r.upstream_calls).toBe(2);
    expect(r.entries.pending).toBeGreaterThan(0);
    expect(r.entries.translated + r.entries.pending).toBe(300);
    expect(r.retry_after_seconds).toBeGreaterThan(0);
    // Another budget (the window passed): the rest, and only the rest, is translated.
    const next = await translateCatalog(request({ content, existing: r.content, source_hashes: r.source_hashes }), deps());
    expect(next.entries).toMatchObject({ kept: r.entries.translated, translated: r.entries.pending, pending: 0 });
  });

  it("retries entry by entry when a packed answer loses a separator", async () => {
    const dropSeparator = (c: ProviderClient): ProviderClient =>
      Object.assign(Object.create(Object.getPrototypeOf(c)), c, {
        translate: async (req: Parameters<ProviderClient["translate"]>[0]) => {
          const res = await c.translate(req);
          return { ...res, translatedText: res.translatedText.replace(/QZBAAAAX/, "") };
        },
      });
    const r = await translateCatalog(request({ content: bigCatalog(5) }), deps(undefined, dropSeparator));
    // One packed call, then one call per entry.
    expect(r.upstream_calls).toBe(6);
    expect(r.entries).toMatchObject({ translated: 5, failed: [] });
  });

  it("sends a text that occurs several times once; identical requests in flight share the calls; a repeat comes from the cache", async () => {
    const dup = await translateCatalog(request({ content: JSON.stringify({ a: "Cancel", b: { c: "Cancel", d: "Save" }, e: "Cancel" }) }), deps());
    expect(dup.entries).toMatchObject({ total: 4, translated: 4 });
    expect(Object.values(JSON.parse(dup.content)).flatMap((v) => (typeof v === "string" ? [v] : Object.values(v as object)))).toEqual([
      sunbirdLug("Cancel"),
      sunbirdLug("Cancel"),
      sunbirdLug("Save"),
      sunbirdLug("Cancel"),
    ]);
    expect(dup.characters_translated).toBe("Cancel".length + "Save".length);

    const d = { ...deps(), caching: { cache: createTranslationCache(cacheSettings(loadConfig({})), () => 1_000_000), flights: new SingleFlight() } };
    servers.provider_a.setControls({ latencyMs: 200 });
    const content = bigCatalog(80);
    const caller = { apiKeyId: "key-1", bypass: false };
    const before = servers.provider_a.stats.requests;
    const [one, two] = await Promise.all([
      translateCatalog(request({ content }), d, { caller }),
      translateCatalog(request({ content }), d, { caller }),
    ]);
    expect(one.entries.translated).toBe(80);
    expect(two.entries.translated).toBe(80);
    expect(one.upstream_calls + two.upstream_calls).toBe(servers.provider_a.stats.requests - before);
    expect(Math.min(one.upstream_calls, two.upstream_calls)).toBe(0);
    expect(two.content).toBe(one.content);
    const again = await translateCatalog(request({ content }), d, { caller });
    expect(again).toMatchObject({ upstream_calls: 0, characters_translated: 0, entries: { translated: 80 } });
  });

  it("a failing provider leaves the entries pending, never fails the request, and does not fall back to another provider", async () => {
    servers.provider_a.setControls({ failMode: "status", status: 503 });
    const r = await translateCatalog(request({ content: bigCatalog(100) }), deps());
    expect(r.entries).toMatchObject({ total: 100, translated: 0, pending: 100, failed: [] });
    expect(servers.provider_c.stats.requests).toBe(0);
    expect(r.content).toBe(bigCatalog(100)); // the source, as it was
  });

  it("answers 422 on content for a file that does not parse, naming the format and line, without quoting it", async () => {
    const content = '{\n  "a": "secret value",\n  "b": oops\n}';
    const err = await apiError(translateCatalog(request({ content }), deps()));
    expect(err.code).toBe("VALIDATION_ERROR");
    expect(err.message).toMatch(/json/);
    expect(err.message).toMatch(/line 3/);
    expect(err.message).not.toMatch(/secret|oops/);
    expect(err.options.errors?.[0].loc).toEqual(["body", "content"]);
    expect(upstreamCalls()).toBe(0);
  });

  it("produces the target's plural forms and keeps PO headers and comments", async () => {
    const r = await translateCatalog(request({ format: "po", content: fixture("messages.pot") }), deps());
    const out = parseCatalog("po", r.content);
    expect(out.entries.length).toBeGreaterThan(0);
    expect(r.entries.failed).toEqual([]);
    expect(r.content).toMatch(/Language: lg/);
  });
});
