import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "@/clients/typescript/src/cli/main";
import { type CatalogFormat, loadCatalogFormats, parseCatalog, readExisting, targetEntries } from "@/lib/catalog";
import { type EmulatorServer, hostileTranslation, startEmulatorServer } from "@/lib/providers/sandbox";
import { call, expectEnvelope, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";
import { liveEnv as emulatorEnv } from "../support/emulators";

// parseCatalog and friends need the format's module loaded (lib/catalog/index.ts loadCatalogFormat).
await loadCatalogFormats();

/**
 * POST /api/v1/translate/catalog over HTTP, with live provider clients on the upstream emulators (loopback): each
 * format round-trips (the output parsed with the same library), files that do not parse are refused without being
 * quoted, and `lugha catalog` takes a 600-entry catalog to Luganda within Sunbird's budget, then one changed string
 * in one call.
 */

afterAll(stopAllApps);

const fixture = (name: string) => readFileSync(path.join(__dirname, "../../lib/catalog/fixtures", name), "utf8");

const FIXTURES: [CatalogFormat, string][] = [
  ["json", "i18next.json"],
  ["json", "icu.json"],
  ["po", "messages.pot"],
  ["xliff", "angular.xlf"],
  ["xliff", "symfony.xlf"],
  ["android", "strings.xml"],
  ["strings", "Localizable.strings"],
  ["arb", "app_en.arb"],
  ["yaml", "en.yml"],
  ["srt", "captions.srt"],
  ["vtt", "captions.vtt"],
  ["markdown", "guide.md"],
];

/** What must come through a translation unchanged: placeholders, tags, link targets, code spans. */
const PROTECTED = /\{\{\w+\}\}|\{\w+\}|%(\d+\$)?[@sdif]|<\/?[\w:.-]+(\s[^>]*)?\/?>|\]\([^)]*\)|`[^`]*`/g;
const protectedParts = (s: string) => (s.match(PROTECTED) ?? []).sort();

async function emulators(): Promise<[EmulatorServer, EmulatorServer, EmulatorServer]> {
  return Promise.all([startEmulatorServer("sunbird"), startEmulatorServer("khaya"), startEmulatorServer("hf")]);
}

function liveEnv(emulators: EmulatorServer[], extra: Record<string, string> = {}): Record<string, string> {
  return emulatorEnv(emulators, { RATE_LIMIT_BATCH: "10000/60s", ...extra });
}

/** A flat JSON catalog of n short UI strings; `changed` rewrites one. */
function bigCatalog(n: number, changed?: number): string {
  const entries: Record<string, string> = {};
  for (let i = 0; i < n; i++)
    entries[`screen${Math.floor(i / 20)}.label${i}`] = i === changed ? `Changed label number ${i}` : `Open the settings for item {name} number ${i}`;
  return `${JSON.stringify(entries, null, 2)}\n`;
}

describe("POST /api/v1/translate/catalog", () => {
  let ups: [EmulatorServer, EmulatorServer, EmulatorServer];
  let app: RunningApp;
  let key: string;
  const catalog = (json: unknown, headers: Record<string, string> = {}) => call(app.url, "POST", "/api/v1/translate/catalog", { key, json, headers });

  beforeAll(async () => {
    ups = await emulators();
    app = await startApp({ env: liveEnv(ups) });
    key = await mintKey(app.url, "catalog");
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all((ups ?? []).map((u) => u.close()));
  });

  it.each(FIXTURES)("%s (%s): keys, structure, placeholders, plural forms and timings round-trip; values are translated", async (format, file) => {
    const content = fixture(file);
    const res = await catalog({ format, content, source_lang: "en", target_lang: "lug" });
    expect(res.status).toBe(200);
    expect(res.body.entries.failed).toEqual([]);
    expect(res.body.entries.pending).toBe(0);
    const source = parseCatalog(format, content);
    const units = targetEntries(source, "lug");
    // The same entries, in the same order, under the same keys (plural forms: Luganda's one and other).
    expect(parseCatalog(format, res.body.content).entries.map((e) => e.id)).toEqual(units.map((u) => u.id));
    // The values (PO msgstr, XLIFF target, else the value itself), read back with the same library.
    const out = readExisting(format, res.body.content, { targetLang: "lug" });
    for (const unit of units) {
      const translated = out.get(unit.id)?.translation;
      if (!unit.translatable) {
        if (translated !== undefined) expect(translated).toBe(unit.source);
        continue;
      }
      expect(translated).toContain("[sandbox:sunbird eng→lug]");
      if (!unit.icu) expect(protectedParts(translated!)).toEqual(protectedParts(unit.source));
    }
    expect(res.body.entries.translated + res.body.entries.kept).toBe(res.body.entries.total);
    if (format === "srt" || format === "vtt") {
      const timings = (text: string) => text.split("\n").filter((l) => l.includes("-->") || /^\d+$/.test(l));
      expect(timings(res.body.content)).toEqual(timings(content));
    }
  });

  it("with Accept: the format's media type, answers the file itself with its counts in headers", async () => {
    const res = await catalog(
      { format: "po", content: fixture("messages.pot"), source_lang: "en", target_lang: "lug" },
      { accept: "text/x-gettext-translation" },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/x-gettext-translation/);
    expect(res.text).toMatch(/^msgid/m);
    expect(Number(res.headers.get("x-lugha-entries-total"))).toBeGreaterThan(0);
    expect(res.headers.get("x-lugha-entries-pending")).toBe("0");
    const json = await catalog(
      { format: "json", content: fixture("i18next.json"), source_lang: "en", target_lang: "lug" },
      { accept: "application/octet-stream" },
    );
    expect(json.headers.get("content-type")).toBe("application/octet-stream");
    expect(JSON.parse(json.text).app.title).toContain("[sandbox:");
  });

  it.each<[CatalogFormat, string, RegExp]>([
    ["json", '{\n"a": "secretword",\n', /json.*line 3/],
    ["po", 'msgid ""\nmsgstr ""\n\nmsgid "secretword"\nmsgstr "x\n', /po.*line 5/],
    ["xliff", '<xliff version="1.2"><file><body><trans-unit id="secretword"><source>secretword</source></body></file></xliff>', /xliff.*line 1/],
    ["android", '<resources>\n<string name="a">secretword</resources>', /android.*line 2/],
    ["strings", '"a" = "secretword"\n"b" = ', /strings.*line 2/],
    ["arb", '{\n"a": "secretword"\n"b": 1}', /arb.*line 3/],
    ["yaml", "en:\n  a: [secretword\n", /yaml.*line 3/],
    ["srt", "1\nsecretword --> nothing\nsecretword\n", /srt.*line 2/],
    ["vtt", "secretword\n\n00:01.000 --> 00:02.000\nhi\n", /vtt.*line 1/],
  ])("a %s file that does not parse is 422 on content, naming the format and line, never quoting it", async (format, content, named) => {
    const before = ups[0].stats.requests;
    const res = await catalog({ format, content, source_lang: "en", target_lang: "lug" });
    const detail = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(detail.message).toMatch(named);
    expect(res.body.detail.errors[0].loc).toEqual(["body", "content"]);
    expect(res.text).not.toMatch(/secretword/);
    expect(ups[0].stats.requests).toBe(before);
  });

  it("usage counts the characters sent upstream, for the JSON answer and the file alike, under the catalog's endpoint and pair", async () => {
    const own = await mintKey(app.url, "catalog usage");
    const send = (headers: Record<string, string>) =>
      call(app.url, "POST", "/api/v1/translate/catalog", {
        key: own,
        json: { format: "json", content: bigCatalog(10), source_lang: "en", target_lang: "lug", cache: false },
        headers,
      });
    const json = await send({});
    const file = await send({ accept: "application/octet-stream" });
    const characters = json.body.characters_translated + Number(file.headers.get("x-lugha-characters-translated"));
    expect(characters).toBeGreaterThan(0);
    const byEndpoint = await call(app.url, "GET", "/api/v1/usage?group_by=endpoint", { key: own });
    // What each answer said it cost (the file's in its header) is what usage counts, under the provider called.
    const calls = json.body.upstream_calls + Number(file.headers.get("x-lugha-upstream-calls"));
    expect(calls).toBeGreaterThan(0);
    expect(byEndpoint.body.rows).toContainEqual({
      endpoint: "POST /api/v1/translate/catalog",
      requests: 2,
      characters,
      cache_hits: 0,
      errors: 0,
      upstream_calls: calls,
      upstream_calls_by_provider: { [json.body.provider]: calls },
    });
    const byPair = await call(app.url, "GET", "/api/v1/usage?group_by=language_pair", { key: own });
    expect(byPair.body.rows).toContainEqual(expect.objectContaining({ language_pair: "en-lug", requests: 2, characters }));
  });

  it("more than 5,000 entries is 422; a pair nobody serves is 422", async () => {
    const tooMany = await catalog({ format: "json", content: bigCatalog(5_001), source_lang: "en", target_lang: "lug" });
    expect(expectEnvelope(tooMany, 422, "VALIDATION_ERROR").message).toMatch(/5000|5,000/);
    const same = await catalog({ format: "json", content: bigCatalog(2), source_lang: "en", target_lang: "en" });
    expectEnvelope(same, 422, "SAME_LANGUAGE");
  });

  it("reports calls per 100 entries for each provider", async () => {
    const content = bigCatalog(600);
    const calls: Record<string, number> = {};
    for (const [target_lang, i] of [
      ["lug", 0],
      ["tw", 1],
      ["sw", 2],
    ] as const) {
      const before = ups[i].stats.requests;
      const res = await catalog({ format: "json", content, source_lang: "en", target_lang }, { "cache-control": "no-cache" });
      expect(res.body.entries).toMatchObject({ total: 600, translated: 600, pending: 0 });
      expect(res.body.upstream_calls).toBe(ups[i].stats.requests - before);
      calls[res.body.provider] = Math.round((res.body.upstream_calls / 6) * 10) / 10;
    }
    console.info(`upstream calls per 100 entries: ${JSON.stringify(calls)}`);
    expect(calls.provider_a).toBeLessThanOrEqual(10);
  });
});

describe("lugha catalog: 600 entries to Luganda on a 50-per-minute Sunbird budget", () => {
  let ups: [EmulatorServer, EmulatorServer, EmulatorServer];
  let app: RunningApp;
  let key: string;
  let dir: string;

  beforeAll(async () => {
    ups = await emulators();
    app = await startApp({ env: liveEnv(ups, { UPSTREAM_BUDGET_PROVIDER_A: "50/60s", TRANSLATION_CACHE: "off" }) });
    key = await mintKey(app.url, "cli");
    dir = mkdtempSync(path.join(tmpdir(), "lugha-catalog-"));
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all((ups ?? []).map((u) => u.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function lugha(argv: string[]) {
    const err: string[] = [];
    const out: string[] = [];
    const sleeps: number[] = [];
    const code = await main(argv, {
      env: { LUGHA_API_KEY: key, LUGHA_BASE_URL: app.url },
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      writeStdout: async () => {},
      readStdin: async () => "",
      transport: {
        sleep: async (ms) => {
          sleeps.push(ms);
          await new Promise((resolve) => setTimeout(resolve, ms));
        },
      },
    });
    return { code, stdout: out.join("\n"), stderr: err.join("\n"), sleeps };
  }

  it("completes within 60 upstream calls and no refusal from the upstream; one changed string is one call", async () => {
    const source = path.join(dir, "en.json");
    writeFileSync(source, bigCatalog(600));
    const first = await lugha(["catalog", source, "--to", "lug", "--out", dir]);
    expect(first.stderr).toMatch(/lug\s+\[#+\] 600\/600/);
    expect(first.code).toBe(0);
    expect(ups[0].stats.requests).toBeLessThanOrEqual(60);
    expect(ups[0].stats.requests).toBeLessThanOrEqual(50); // within one minute's budget: the upstream never refused
    const written = JSON.parse(readFileSync(path.join(dir, "lug.json"), "utf8")) as Record<string, string>;
    expect(Object.keys(written)).toHaveLength(600);
    // The emulators translate as MT at its worst (every word changed): the placeholder alone comes back as it was.
    const label = new RegExp(
      String.raw`^\[sandbox:sunbird eng→lug\] ${hostileTranslation("Open the settings for item")} \{name\} ${hostileTranslation("number")} \d+$`,
    );
    for (const v of Object.values(written)) expect(v).toMatch(label);
    expect(first.stdout).toMatch(/lug\t.*translated 600, kept 0, pending 0, failed 0/);

    // A second run with one changed string: only that entry goes upstream, in one call.
    writeFileSync(source, bigCatalog(600, 123));
    const before = ups[0].stats.requests;
    const second = await lugha(["catalog", source, "--to", "lug", "--out", dir]);
    expect(second.code).toBe(0);
    expect(ups[0].stats.requests - before).toBe(1);
    expect(second.stdout).toMatch(/translated 1, kept 599, pending 0, failed 0, upstream calls 1/);
    expect(JSON.parse(readFileSync(path.join(dir, "lug.json"), "utf8"))["screen6.label123"]).toBe(
      `[sandbox:sunbird eng→lug] ${hostileTranslation("Changed label number")} 123`,
    );
  });

  it("a budget that runs out part-way: the command waits for it as the server says, continues from the file, and exits 0", async () => {
    await app.stop();
    for (const u of ups) u.reset();
    app = await startApp({ env: liveEnv(ups, { UPSTREAM_BUDGET_PROVIDER_A: "5/2s", TRANSLATION_CACHE: "off" }) });
    key = await mintKey(app.url, "cli tight");
    const source = path.join(dir, "app_en.json");
    writeFileSync(source, bigCatalog(300));
    const r = await lugha(["catalog", source, "--to", "lug,ach"]);
    expect(r.stderr).toMatch(/budget is spent for now; waiting \d+ s/);
    expect(r.sleeps.length).toBeGreaterThan(0);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, "app_lug.json"), "utf8"))["screen0.label0"]).toContain("[sandbox:sunbird eng→lug]");
    expect(JSON.parse(readFileSync(path.join(dir, "app_ach.json"), "utf8"))["screen0.label0"]).toContain("[sandbox:sunbird eng→ach]");
  }, 60_000);
});
