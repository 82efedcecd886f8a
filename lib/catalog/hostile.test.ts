import { describe, expect, it } from "vitest";
import {
  type CatalogFormat,
  CatalogLimitError,
  CatalogParseError,
  loadCatalogFormats,
  MAX_CATALOG_ENTRIES,
  MAX_ICU_BRANCHES,
  parseCatalog,
  readExisting,
  renderCatalog,
  targetEntries,
} from "./index";

// parseCatalog and friends need the format's module loaded (lib/catalog/index.ts loadCatalogFormat).
await loadCatalogFormats();

/** Text that must never appear in an error message: messages name the problem, never the file's content. */
const MARKER = "ZQXSECRETMARKER";

const MALFORMED: [CatalogFormat, string, string, number | undefined][] = [
  ["json", "unterminated string", `{\n  "a": "${MARKER}\n}`, 2],
  ["json", "trailing comma", `{"${MARKER}": "x",}`, 1],
  ["json", "duplicate key", `{\n"${MARKER}": "a",\n"${MARKER}": "b"\n}`, 3],
  ["json", "not an object", `["${MARKER}"]`, 1],
  ["arb", "bad value", `{"a": ${MARKER}}`, 1],
  ["po", "unterminated string", `msgid "${MARKER}\nmsgstr ""\n`, 1],
  ["po", "garbage line", `msgid "a"\nmsgstr "b"\n${MARKER} here\n`, 3],
  ["po", "msgid_plural without msgstr[n]", `msgid "a"\nmsgid_plural "${MARKER}"\nmsgstr "b"\n`, 1],
  ["po", "string outside an entry", `"${MARKER}"\n`, 1],
  ["xliff", "unclosed element", `<xliff version="1.2"><file><body><trans-unit id="a"><source>${MARKER}</source></body></file></xliff>`, 1],
  ["xliff", "not xliff", `<root>${MARKER}</root>`, 1],
  [
    "xliff",
    "undefined entity",
    `<xliff version="1.2"><file><body><trans-unit id="a"><source>&${MARKER};</source></trans-unit></body></file></xliff>`,
    1,
  ],
  ["android", "mismatched tag", `<resources>\n<string name="a">${MARKER}</strin>\n</resources>`, 2],
  ["android", "plurals without other", `<resources><plurals name="${MARKER}"><item quantity="one">x</item></plurals></resources>`, 1],
  ["android", "text after the root", `<resources/>${MARKER}`, 1],
  ["strings", "unterminated string", `"a" = "${MARKER};\n`, 1],
  ["strings", "missing semicolon", `"a" = "b"\n"${MARKER}" = "c";`, 2],
  ["yaml", "bad indentation", `en:\n  a: b\n c: ${MARKER}\n`, 3],
  ["yaml", "duplicate key", `a: ${MARKER}\na: again\n`, 2],
  ["yaml", "not a mapping", `- ${MARKER}\n`, 1],
  ["srt", "missing timing", `1\n${MARKER}\n`, 2],
  ["srt", "garbage", `${MARKER}\n00:00:01,000 --> 00:00:02,000\nx\n`, 1],
  ["vtt", "no header", `${MARKER}\n\n00:00.000 --> 00:01.000\nx\n`, 1],
  ["vtt", "broken timing", `WEBVTT\n\n00:00.000 --> ${MARKER}\nx\n`, 3],
];

function parseError(run: () => unknown): CatalogParseError {
  try {
    run();
  } catch (e) {
    if (e instanceof CatalogParseError) return e;
    throw e;
  }
  throw new Error("no error");
}

describe("malformed files", () => {
  it.each(MALFORMED)("%s, %s: CatalogParseError with format and line, never the content", (format, _what, content, line) => {
    const error = parseError(() => parseCatalog(format, content));
    expect(error.format).toBe(format);
    if (line !== undefined) expect(error.line).toBe(line);
    expect(error.message).not.toContain(MARKER);
    expect(String(error.stack)).not.toContain(MARKER);
    expect(JSON.stringify(error)).not.toContain(MARKER);
    // The same for a previously rendered target file.
    const again = parseError(() => readExisting(format, content));
    expect(again.message).not.toContain(MARKER);
  });
});

describe("hostile input", () => {
  it("refuses a DOCTYPE, so no entity is ever expanded (billion laughs)", () => {
    const lol = [
      '<?xml version="1.0"?>',
      "<!DOCTYPE lolz [",
      ' <!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`),
      "]>",
      `<resources><string name="a">&lol9;${MARKER}</string></resources>`,
    ].join("\n");
    const started = performance.now();
    for (const format of ["android", "xliff"] as const) {
      const error = parseError(() => parseCatalog(format, lol));
      expect(error.message).not.toContain(MARKER);
    }
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("refuses an external entity", () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><resources><string name="a">&x;</string></resources>`;
    expect(() => parseCatalog("android", xxe)).toThrow(CatalogParseError);
  });

  it.each([
    ["json", `${"[".repeat(100_000)}${"]".repeat(100_000)}`],
    ["json", `{"a":${'{"a":'.repeat(70)}"x"${"}".repeat(71)}`],
    ["arb", `${"{".repeat(100_000)}`],
    ["yaml", `a: ${"[".repeat(100_000)}${"]".repeat(100_000)}`],
    ["yaml", `${Array.from({ length: 80 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n")} x\n`],
    ["android", `<resources>${"<b>".repeat(100_000)}${"</b>".repeat(100_000)}</resources>`],
    ["xliff", `<xliff version="2.0">${"<group>".repeat(10_000)}${"</group>".repeat(10_000)}</xliff>`],
    ["markdown", `${"> ".repeat(10_000)}deep`],
    ["markdown", `${"- ".repeat(10_000)}deep`],
    ["markdown", Array.from({ length: 4000 }, () => "- - - x").join("\n")],
    ["markdown", "[a](b ".repeat(30_000)],
  ] as const)("%s nested very deeply: CatalogParseError, promptly", (format, content) => {
    const started = performance.now();
    expect(() => parseCatalog(format, content)).toThrow(CatalogParseError);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("refuses a YAML alias bomb without expanding it", () => {
    const bomb = [
      `a: &a ["${MARKER}", x, x, x, x, x, x, x, x]`,
      ...Array.from({ length: 8 }, (_, i) => {
        const prev = String.fromCharCode(97 + i);
        const cur = String.fromCharCode(98 + i);
        return `${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(", ")}]`;
      }),
    ].join("\n");
    const started = performance.now();
    const error = parseError(() => parseCatalog("yaml", bomb));
    expect(error.message).not.toContain(MARKER);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it(`refuses more than ${MAX_CATALOG_ENTRIES} entries`, () => {
    const many = JSON.stringify(Object.fromEntries(Array.from({ length: MAX_CATALOG_ENTRIES + 1 }, (_, i) => [`k${i}`, `Value ${i}`])));
    expect(() => parseCatalog("json", many)).toThrow(/more than 5000 entries/);
    const enough = JSON.stringify(Object.fromEntries(Array.from({ length: MAX_CATALOG_ENTRIES }, (_, i) => [`k${i}`, `Value ${i}`])));
    expect(parseCatalog("json", enough).entries).toHaveLength(MAX_CATALOG_ENTRIES);
  });

  it("reads an unterminated comment or CDATA as an error, not a hang", () => {
    expect(() => parseCatalog("android", `<resources><!-- ${MARKER}`)).toThrow(CatalogParseError);
    expect(() => parseCatalog("android", `<resources><string name="a"><![CDATA[${MARKER}</string></resources>`)).toThrow(CatalogParseError);
    expect(() => parseCatalog("strings", `/* ${MARKER}`)).toThrow(CatalogParseError);
  });

  it("rejects an unknown format name", () => {
    expect(() => parseCatalog("docx" as CatalogFormat, "")).toThrow(TypeError);
  });
});

describe("expansion into the target's plural categories", () => {
  const nested = (depth: number) => {
    let message = "x";
    for (let i = 0; i < depth; i++) message = `{n,plural,one{#}other{${message}}}`;
    return JSON.stringify({ k: message });
  };

  it("refuses ICU plurals nested deeper than 4 levels before expanding them (six levels into Arabic would be 46,656 branches)", () => {
    const catalog = parseCatalog("json", nested(6));
    const started = performance.now();
    expect(() => targetEntries(catalog, "ar")).toThrow(CatalogLimitError);
    expect(() => targetEntries(catalog, "ar")).toThrow(/nested deeper than 4 levels/);
    expect(performance.now() - started).toBeLessThan(1000);
    // Rendering expands the same way, so it is refused the same way.
    expect(() => renderCatalog("json", catalog.doc, new Map(), { sourceLang: "en", targetLang: "ar" })).toThrow(CatalogLimitError);
  });

  it(`refuses an ICU message with more than ${MAX_ICU_BRANCHES} branches once expanded; the same message into a language with two categories passes`, () => {
    const catalog = parseCatalog("json", nested(4));
    expect(() => targetEntries(catalog, "ar")).toThrow(/more than 256 plural and select branches/);
    expect(targetEntries(catalog, "lug")).toHaveLength(1);
    // Three levels into Arabic: 186 branches, within the budget.
    expect(targetEntries(parseCatalog("json", nested(3)), "ar")[0].source).toContain("zero");
  });

  it("counts entries after plural expansion: 5,000 source entries that would be 15,000 in Arabic are refused", () => {
    const entries: Record<string, string> = {};
    for (let i = 0; i < MAX_CATALOG_ENTRIES / 2; i++) {
      entries[`item${i}_one`] = `One item ${i}`;
      entries[`item${i}_other`] = `{{count}} items ${i}`;
    }
    const catalog = parseCatalog("json", JSON.stringify(entries));
    expect(catalog.entries).toHaveLength(MAX_CATALOG_ENTRIES);
    expect(targetEntries(catalog, "lug")).toHaveLength(MAX_CATALOG_ENTRIES);
    expect(() => targetEntries(catalog, "ar")).toThrow(/more than 5000 entries once plural forms are expanded/);
  });
});

describe("Markdown shapes refused before parsing", () => {
  it.each([
    ["a table row of 65 columns", `${"|a".repeat(65)}|\n${"|-".repeat(65)}|\n`, /more than 64 columns/],
    ["2,001 table cells", `${"|a".repeat(10)}|\n${"|-".repeat(10)}|\n${`${"|b".repeat(10)}|\n`.repeat(199)}|c|\n`, /more than 2000 table cells/],
    ["201 marks in one paragraph", "_a ".repeat(201), /more than 200 emphasis/],
    ["5,001 marks in the document", Array.from({ length: 30 }, () => "_a ".repeat(180)).join("\n\n"), /more than 5000 emphasis/],
    ["128 KiB and one character", "a".repeat(128 * 1024 + 1), /longer than 131072 characters/],
  ])("%s", (_what, content, problem) => {
    expect(() => parseCatalog("markdown", content)).toThrow(CatalogLimitError);
    expect(() => parseCatalog("markdown", content)).toThrow(problem);
  });

  it("counts marks afresh after a blank line, and a run of one character once; a 64-column table passes", () => {
    const paragraph = "**bold** and _emphasis_ and `code` ".repeat(30); // 180 runs
    expect(parseCatalog("markdown", `${paragraph}\n\n${paragraph}\n`).entries).toHaveLength(2);
    expect(parseCatalog("markdown", `${"| h ".repeat(64)}|\n${"|---".repeat(64)}|\n${"| c ".repeat(64)}|\n`).entries).toHaveLength(128);
  });
});
