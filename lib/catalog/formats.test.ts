import fs from "node:fs";
import path from "node:path";
import { po as gettext } from "gettext-parser";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { fixture, identity, placeholders, SHARED_FORMATS, sharedCatalogsDir, structuralLines, wrapAll } from "./catalog.test-support";
import {
  type CatalogFormat,
  CatalogRenderError,
  loadCatalogFormats,
  parseCatalog,
  readExisting,
  renderCatalog,
  sourceHash,
  sourceHashes,
  sourceHashStorage,
  targetEntries,
} from "./index";

// parseCatalog and friends need the format's module loaded (lib/catalog/index.ts loadCatalogFormat).
await loadCatalogFormats();

const EN_TO_LUG = { sourceLang: "en", targetLang: "lug" };

const FIXTURES: [string, CatalogFormat][] = [
  ["i18next.json", "json"],
  ["icu.json", "json"],
  ["app_en.arb", "arb"],
  ["messages.pot", "po"],
  ["angular.xlf", "xliff"],
  ["symfony.xlf", "xliff"],
  ["strings.xml", "android"],
  ["Localizable.strings", "strings"],
  ["en.yml", "yaml"],
  ["captions.srt", "srt"],
  ["captions.vtt", "vtt"],
  ["guide.md", "markdown"],
];

/** Renders with the fake translator and reads the result back: id → translated text. */
function translated(format: CatalogFormat, text: string, lang = "lug") {
  const catalog = parseCatalog(format, text);
  const units = targetEntries(catalog, lang);
  const out = renderCatalog(format, catalog.doc, wrapAll(units), { sourceLang: "en", targetLang: lang });
  const back =
    format === "po" || format === "xliff"
      ? new Map([...readExisting(format, out, { targetLang: lang })].map(([id, t]) => [id, t.translation]))
      : new Map(parseCatalog(format, out).entries.map((e) => [e.id, e.source]));
  return { catalog, units, out, back };
}

describe.each(FIXTURES)("%s (%s)", (file, format) => {
  const text = fixture(file);

  it("gives the file back byte for byte when rendered into its own language", () => {
    const catalog = parseCatalog(format, text);
    expect(renderCatalog(format, catalog.doc, identity(catalog.entries), { sourceLang: "en", targetLang: "en" })).toBe(text);
    expect(renderCatalog(format, catalog.doc, new Map(), { sourceLang: "en", targetLang: "en" })).toBe(text);
  });

  it("writes every translatable entry, keeps the others, and reads back with the same keys and placeholders", () => {
    const { catalog, units, back } = translated(format, text);
    for (const unit of units) {
      if (unit.translatable) {
        expect(back.get(unit.id), unit.id).toBe(`⟦${unit.source}⟧`);
        expect(placeholders(back.get(unit.id)!), unit.id).toEqual(placeholders(unit.source));
      } else if (format !== "po" && format !== "xliff") {
        expect(back.get(unit.id), unit.id).toBe(unit.source);
      }
    }
    if (format !== "po" && format !== "xliff") expect([...back.keys()].sort()).toEqual(units.map((u) => u.id).sort());
    else expect(parseCatalog(format, translated(format, text).out).entries.map((e) => e.source)).toEqual(catalog.entries.map((e) => e.source));
  });

  it("keeps a translation with its source hash (in the file or beside it)", () => {
    const { units, out } = translated(format, text);
    const sidecar = sourceHashStorage(format) === "sidecar" ? sourceHashes(units) : undefined;
    const existing = readExisting(format, out, { targetLang: "lug", ...(sidecar ? { sidecar } : {}) });
    for (const unit of units.filter((u) => u.translatable)) {
      expect(existing.get(unit.id)?.sourceHash, unit.id).toBe(sourceHash(unit));
    }
  });
});

describe("json", () => {
  it("reads i18next plural groups and gives the target's categories", () => {
    const text = fixture("i18next.json");
    const catalog = parseCatalog("json", text);
    expect(catalog.entries.find((e) => e.id === "/app/items_one")?.plural).toEqual({ group: "/app/items", category: "one" });
    const ar = translated("json", text, "ar");
    expect(Object.keys(JSON.parse(ar.out).app).filter((k) => k.startsWith("items_"))).toEqual([
      "items_one",
      "items_zero",
      "items_two",
      "items_few",
      "items_many",
      "items_other",
    ]);
    expect(JSON.parse(ar.out).app.items_few).toBe("⟦{{count}} items⟧");
    const yo = translated("json", text, "yo");
    expect(Object.keys(JSON.parse(yo.out).app).filter((k) => k.startsWith("items_"))).toEqual(["items_other"]);
    expect(() => JSON.parse(yo.out)).not.toThrow();
  });

  it("marks URLs and placeholder-only values untranslatable and leaves non-strings alone", () => {
    const catalog = parseCatalog("json", fixture("i18next.json"));
    expect(catalog.entries.find((e) => e.id === "/app/docs")).toMatchObject({ translatable: false, reason: "url" });
    expect(catalog.entries.find((e) => e.id === "/app/format")).toMatchObject({ translatable: false, reason: "placeholders-only" });
    expect(catalog.entries.some((e) => e.id === "/count" || e.id === "/flag")).toBe(false);
  });

  it("rewrites ICU plurals to the target's categories, keeping exact matches", () => {
    const catalog = parseCatalog("json", fixture("icu.json"));
    const inbox = (lang: string) => targetEntries(catalog, lang).find((u) => u.id === "/inbox")!.source;
    expect(inbox("yo")).toBe("You have {count, plural, =0 {no messages} other {# messages}}");
    expect(inbox("lug")).toBe("You have {count, plural, =0 {no messages} one {# message} other {# messages}}");
    expect(inbox("ar")).toBe(
      "You have {count, plural, =0 {no messages} zero {# messages} one {# message} two {# messages} few {# messages} many {# messages} other {# messages}}",
    );
    expect(targetEntries(catalog, "sw").find((u) => u.id === "/place")!.source).toBe("{rank, selectordinal, other {#th}} place");
    expect(catalog.entries.find((e) => e.id === "/dates")).toMatchObject({ translatable: false, reason: "placeholders-only" });
  });
});

describe("arb", () => {
  it("sets @@locale, keeps metadata and stores source hashes as x-lugha-source", () => {
    const { out, units } = translated("arb", fixture("app_en.arb"));
    const json = JSON.parse(out);
    expect(json["@@locale"]).toBe("lg");
    expect(json["@hello"].description).toBe("Greeting on the home screen");
    expect(json["@hello"]["x-lugha-source"]).toBe(sourceHash(units.find((u) => u.id === "hello")!));
    expect(json["@bare"]["x-lugha-source"]).toMatch(/^[0-9a-f]{12}$/);
    expect(json.cart).toBe("⟦{count, plural, =0{Your cart is empty} one{One item} other{{count} items}}⟧");
    expect(out.endsWith("}")).toBe(true); // no final newline, as in the source
  });

  it("rewrites the ICU plural for Yoruba (other only)", () => {
    const catalog = parseCatalog("arb", fixture("app_en.arb"));
    expect(targetEntries(catalog, "yo").find((u) => u.id === "cart")!.source).toBe("{count, plural, =0{Your cart is empty} other{{count} items}}");
  });
});

describe("po", () => {
  it("fills msgstr in place, sets the header for the target, and stays valid for gettext", () => {
    const { out } = translated("po", fixture("messages.pot"));
    const parsed = gettext.parse(out, { validation: true });
    expect(parsed.headers.Language).toBe("lg");
    expect(parsed.headers["Plural-Forms"]).toBe("nplurals=2; plural=(n != 1);");
    expect(parsed.headers["Content-Type"]).toBe("text/plain; charset=UTF-8");
    expect(out).not.toContain("#, fuzzy");
    expect(parsed.translations.menu.Open.msgstr).toEqual(["⟦Open⟧"]);
    expect(parsed.translations[""]["%(count)d file"].msgstr).toEqual(["⟦%(count)d file⟧", "⟦%(count)d files⟧"]);
    expect(parsed.translations[""]["%s"].msgstr).toEqual([""]); // untranslatable: left as it was
    expect(out).toContain('#~ msgid "Old"');
    // Entries stay in file order, comments with them.
    const msgids = [...out.matchAll(/^msgid "(.*)"$/gm)].map((m) => m[1]);
    expect(msgids).toEqual(["", "Welcome", "Open", "%(count)d file", "", 'Say \\"hi\\" to %s', "%s", "Old"].filter((m) => m !== "Old"));
    expect(out).toMatch(/# lugha-source: [0-9a-f]{12}\n#\. Shown on the home page\n#: app\/home\.py:10\nmsgid "Welcome"/);
  });

  it.each([
    ["yo", 1],
    ["ar", 6],
    ["ach", 2],
  ])("writes %s's %i plural forms", (lang, n) => {
    const { out } = translated("po", fixture("messages.pot"), lang as string);
    const parsed = gettext.parse(out, { validation: true });
    expect(parsed.translations[""]["%(count)d file"].msgstr).toHaveLength(n as number);
  });

  it("refuses a target whose gettext Plural-Forms is not known, which other formats still render", () => {
    const catalog = parseCatalog("po", fixture("messages.pot"));
    expect(() => renderCatalog("po", catalog.doc, new Map([["Welcome", "Добро пожаловать"]]), { sourceLang: "en", targetLang: "ru" })).toThrow(
      CatalogRenderError,
    );
    const json = parseCatalog("json", fixture("i18next.json"));
    expect(
      targetEntries(json, "ru")
        .filter((u) => u.plural)
        .map((u) => u.plural!.category),
    ).toEqual(["one", "few", "many", "other"]);
  });

  it("reads a previous translation's plural forms and hashes back", () => {
    const { out, units } = translated("po", fixture("messages.pot"), "ar");
    const existing = readExisting("po", out, { targetLang: "ar" });
    expect(existing.get("%(count)d file#zero")).toEqual({
      translation: "⟦%(count)d files⟧",
      sourceHash: sourceHash(units.find((u) => u.id === "%(count)d file#zero")!),
    });
    expect(existing.get("menu\u0004Open")?.translation).toBe("⟦Open⟧");
  });
});

describe("xliff", () => {
  it("1.2: inserts targets with state and a hash note, sets target-language, leaves translate=no alone", () => {
    const { out } = translated("xliff", fixture("angular.xlf"));
    expect(out).toContain('<file source-language="en" target-language="lg" datatype="plaintext" original="ng2.template">');
    expect(out).toMatch(
      /<source>Close<\/source>\n {8}<target state="translated">⟦Close⟧<\/target>\n {8}<note from="lugha-source">[0-9a-f]{12}<\/note>/,
    );
    expect(out).toContain('<trans-unit id="brand" translate="no">\n        <source>Lugha</source>\n      </trans-unit>');
    expect(out).toContain('<target state="translated">⟦Terms &amp; conditions⟧</target>');
    expect(out).toContain('<x id="INTERPOLATION" equiv-text="{{ n }}"/>');
  });

  it("1.2: Angular ICU plurals get the target's categories, inline elements kept", () => {
    const catalog = parseCatalog("xliff", fixture("angular.xlf"));
    expect(targetEntries(catalog, "yo").find((u) => u.id === "tasks")!.source).toBe(
      '{VAR_PLURAL, plural, =1 {One task} other {<x id="INTERPOLATION"/> tasks}}',
    );
  });

  it("2.0: sets trgLang, replaces targets, adds notes before the segments", () => {
    const { out } = translated("xliff", fixture("symfony.xlf"));
    expect(out).toContain('srcLang="en" trgLang="lg"');
    expect(out).toContain("<target>⟦You must select at least {{ limit }} choice.|You must select at least {{ limit }} choices.⟧</target>");
    expect(out).toMatch(
      /<notes>\n {8}<note category="description">Validation message<\/note>\n {8}<note category="lugha-source">[0-9a-f]{12}<\/note>\n {6}<\/notes>/,
    );
    expect(out).toMatch(/<note category="lugha-source" id="lugha-source-2">[0-9a-f]{12}<\/note>/);
    expect(out.match(/<segment state="translated">/g)).toHaveLength(4);
  });

  it("refuses a translation that is not a well-formed XML fragment", () => {
    const catalog = parseCatalog("xliff", fixture("angular.xlf"));
    expect(() => renderCatalog("xliff", catalog.doc, new Map([["close", "<b>Funga"]]), EN_TO_LUG)).toThrow(CatalogRenderError);
  });
});

describe("android", () => {
  const text = fixture("strings.xml");

  it("resolves Android escapes in the source and writes them back", () => {
    const catalog = parseCatalog("android", text);
    const byId = new Map(catalog.entries.map((e) => [e.id, e]));
    expect(byId.get("greeting")?.source).toBe('Don\'t say "hello"\nsay hi');
    expect(byId.get("at_sign")?.source).toBe("@home is ?here");
    expect(byId.get("ellipsis")?.source).toBe("Reply…");
    expect(byId.get("app_name")).toMatchObject({ translatable: false, reason: "marked" });
    expect(byId.get("ref")).toMatchObject({ translatable: false, reason: "reference" });
    expect(byId.get("songs#one")?.notes).toEqual(["One song"]);
    const out = renderCatalog(
      "android",
      catalog.doc,
      new Map([
        ["greeting", "Usiseme \"habari\"\nsema 'hi'"],
        ["at_sign", "@nyumbani ni ?hapa"],
        ["ellipsis", "Jibu…"],
        ["today_at", 'Leo saa <xliff:g id="time">%s</xliff:g>'],
        ["html", "<b>Hatua</b> nzito"],
        ["planets[0]", "Zebaki & Zuhura"],
      ]),
      { sourceLang: "en", targetLang: "sw" },
    );
    expect(out).toContain('<string name="greeting">Usiseme \\"habari\\"\\nsema \\\'hi\\\'</string>');
    expect(out).toContain('<string name="at_sign">\\@nyumbani ni ?hapa</string>');
    expect(out).toContain('<string name="ellipsis">Jibu\\u2026</string>');
    expect(out).toContain('<string name="today_at">"Leo saa <xliff:g id="time">%s</xliff:g>"</string>');
    expect(out).toContain('<string name="html"><![CDATA[<b>Hatua</b> nzito]]></string>');
    expect(out).toContain("<item>Zebaki &amp; Zuhura</item>");
    expect(out).toContain('<string name="app_name" translatable="false">Lugha</string>');
  });

  it("gives plurals the target's quantities", () => {
    const ar = translated("android", text, "ar").out;
    expect([...ar.matchAll(/<item quantity="(\w+)">/g)].map((m) => m[1])).toEqual(["zero", "one", "two", "few", "many", "other"]);
    const yo = translated("android", text, "yo").out;
    expect(yo).toContain('<plurals name="songs">\n        <!-- Several songs -->\n        <item quantity="other">⟦%d songs⟧</item>\n    </plurals>');
  });

  it("refuses a translation with broken markup", () => {
    const catalog = parseCatalog("android", text);
    expect(() => renderCatalog("android", catalog.doc, new Map([["today_at", "Leo <xliff:g>%s"]]), EN_TO_LUG)).toThrow(CatalogRenderError);
  });
});

describe("strings", () => {
  it("keeps comments and escapes the translation", () => {
    const catalog = parseCatalog("strings", fixture("Localizable.strings"));
    expect(catalog.entries.find((e) => e.id === "alert.quit")?.notes).toEqual(["Section: alerts"]);
    const out = renderCatalog("strings", catalog.doc, new Map([["alert.quit", 'Unataka "kuondoka"?\nKazi\\data itapotea.']]), EN_TO_LUG);
    expect(out).toContain('"alert.quit" = "Unataka \\"kuondoka\\"?\\nKazi\\\\data itapotea.";');
    expect(out).toContain("/* The title of the main window */\n");
  });
});

describe("yaml", () => {
  const text = fixture("en.yml");

  it("renames the locale root, keeps comments, and quotes what a plain scalar cannot hold", () => {
    const catalog = parseCatalog("yaml", text);
    expect(catalog.declaredLocale).toBe("en");
    expect(catalog.entries.find((e) => e.id === "/date/order/0")).toMatchObject({ translatable: false, reason: "symbol" });
    const out = renderCatalog(
      "yaml",
      catalog.doc,
      new Map([
        ["/greeting", "Habari: yako"],
        ["/date/day_names/0", "Jumapili, siku"],
        ["/quoted", "Iko hapa"],
        ["/terms", "Mstari wa kwanza.\nMstari wa pili.\n"],
      ]),
      { sourceLang: "en", targetLang: "sw" },
    );
    expect(out.startsWith("# Rails locale\nsw:\n  # Dates\n")).toBe(true);
    const data = parseDocument(out).toJS();
    expect(data.sw.greeting).toBe("Habari: yako");
    expect(data.sw.date.day_names).toEqual(["Jumapili, siku", "Monday", "Tuesday"]);
    expect(data.sw.quoted).toBe("Iko hapa");
    expect(out).toContain("  quoted: 'Iko hapa'\n");
    expect(out).toContain("  terms: |\n    Mstari wa kwanza.\n    Mstari wa pili.\n  size: 3\n");
    expect(data.sw.date.month_names[0]).toBeNull();
  });

  it("gives plural maps the target's keys", () => {
    const yo = parseDocument(translated("yaml", text, "yo").out).toJS();
    expect(Object.keys(yo.yo.inbox)).toEqual(["other"]);
    const ar = parseDocument(translated("yaml", text, "ar").out).toJS();
    expect(Object.keys(ar.ar.inbox).sort()).toEqual(["few", "many", "one", "other", "two", "zero"]);
  });
});

describe("srt and vtt", () => {
  it.each([
    ["captions.srt", "srt"],
    ["captions.vtt", "vtt"],
  ] as const)("%s: numbering, timings, settings and headers stay byte for byte", (file, format) => {
    const text = fixture(file);
    const { out } = translated(format, text);
    expect(structuralLines(out)).toEqual(structuralLines(text));
    if (format === "srt") expect(out.split("\r\n").length).toBe(text.split("\r\n").length);
  });

  it("drops blank lines from a translation (they would end the cue) and escapes --> in VTT", () => {
    const catalog = parseCatalog("vtt", fixture("captions.vtt"));
    const out = renderCatalog("vtt", catalog.doc, new Map([["intro", "Karibu\n\nkwa --> Lugha"]]), EN_TO_LUG);
    expect(out).toContain("00:00.000 --> 00:02.000 align:start position:10%\nKaribu\nkwa --&gt; Lugha\n\n");
    expect(parseCatalog("vtt", out).entries).toHaveLength(2);
  });
});

describe("markdown", () => {
  it("translates prose blocks only and puts container prefixes back", () => {
    const catalog = parseCatalog("markdown", fixture("guide.md"));
    expect(catalog.entries.find((e) => e.source.startsWith("Keep your"))?.source).toBe("Keep your **API key** secret.");
    expect(catalog.entries.find((e) => e.source.startsWith("A quoted"))?.source).toBe("A quoted paragraph that\nspans two lines.");
    expect(catalog.entries.at(-1)).toMatchObject({ source: "`code only`", translatable: false, reason: "placeholders-only" });
    const quoted = catalog.entries.find((e) => e.source.startsWith("A quoted"))!.id;
    const out = renderCatalog("markdown", catalog.doc, new Map([[quoted, "Aya iliyonukuliwa\nkwa mistari\nmitatu."]]), EN_TO_LUG);
    expect(out).toContain("> Aya iliyonukuliwa\n> kwa mistari\n> mitatu.\n");
    const { out: all } = translated("markdown", fixture("guide.md"));
    expect(all.startsWith("---\ntitle: A guide\ntags: [one, two]\n---\n")).toBe(true);
    expect(all).toContain('```js\nconst x = "not prose";\n```');
    expect(all).toContain("::: tip\n⟦Keep your **API key** secret.⟧\n:::");
  });
});

describe("incremental translation", () => {
  it("a changed source changes its hash; an unchanged one keeps it", () => {
    const before = parseCatalog("arb", fixture("app_en.arb"));
    const after = parseCatalog("arb", fixture("app_en.arb").replace("No metadata here", "No metadata at all"));
    const hash = (c: typeof before, id: string) => sourceHash(c.entries.find((e) => e.id === id)!);
    expect(hash(before, "hello")).toBe(hash(after, "hello"));
    expect(hash(before, "bare")).not.toBe(hash(after, "bare"));
    // The forms of a plural group share one hash, over all of the group's source forms.
    const po = parseCatalog("po", fixture("messages.pot"));
    const forms = po.entries.filter((e) => e.plural?.group === "%(count)d file");
    expect(new Set(forms.map(sourceHash)).size).toBe(1);
  });
});

// Real catalogs of public projects, kept outside the repository: the tests below exist only where the folder does.
const sharedDir = sharedCatalogsDir;

if (fs.existsSync(sharedDir)) {
  describe("real catalogs", () => {
    const files = fs
      .readdirSync(sharedDir)
      .filter((f) => SHARED_FORMATS[f.split("-")[0]])
      .sort();
    it("are there", () => {
      expect(files.length).toBeGreaterThan(0);
    });
    for (const file of files) {
      const format = SHARED_FORMATS[file.split("-")[0]];
      const text = fs.readFileSync(path.join(sharedDir, file), "utf8");
      const catalog = parseCatalog(format, text);
      const translatable = catalog.entries.filter((e) => e.translatable).length;

      it(`${file} (${format}): ${catalog.entries.length} entries, ${translatable} translatable; into its own language, the same bytes`, () => {
        expect(renderCatalog(format, catalog.doc, identity(catalog.entries), { sourceLang: "en", targetLang: "en" })).toBe(text);
      });

      it(`${file} (${format}): the fake translator into Luganda reads back with every placeholder`, () => {
        const { units, out, back } = translated(format, text);
        for (const unit of units.filter((u) => u.translatable)) {
          expect(back.get(unit.id), unit.id).toBe(`⟦${unit.source}⟧`);
          expect(placeholders(back.get(unit.id)!), unit.id).toEqual(placeholders(unit.source));
        }
        if (format === "srt" || format === "vtt") expect(structuralLines(out)).toEqual(structuralLines(text));
        if (format === "po") expect(() => gettext.parse(out, { validation: true })).not.toThrow();
      });

      it(`${file} (${format}): Arabic and Yoruba plural forms give a file that reads back`, () => {
        for (const lang of ["ar", "yo"]) {
          const { out } = translated(format, text, lang);
          expect(() => parseCatalog(format, out)).not.toThrow();
          if (format === "po") expect(() => gettext.parse(out, { validation: true })).not.toThrow();
          if (format === "json" || format === "arb") expect(() => JSON.parse(out)).not.toThrow();
        }
      });
    }
  });
} else {
  console.log(`lib/catalog: no real catalogs at ${sharedDir}; their tests are not registered`);
}
