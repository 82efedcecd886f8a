import { describe, expect, it } from "vitest";
import { type CatalogFormat, loadCatalogFormats, parseCatalog, targetEntries } from "@/lib/catalog";
import { translateCatalog } from "./catalog";
import { emulatorDeps, entryProblems, toolingProblem, withoutMarks, writtenTranslations } from "./catalog.protection.test-support";
import { emulatorServersForFile } from "./emulators.test-support";

// parseCatalog and friends need the format's module loaded (lib/catalog/index.ts loadCatalogFormat).
await loadCatalogFormats();

/**
 * Every placeholder and markup syntax of the supported formats' ecosystems, in each format that carries it, through
 * translateCatalog and the emulators' hostile translation (every word changed, unknown tags dropped, placeholder names
 * translated, escapes mangled). The samples are written from each ecosystem's own documentation: printf (C, Apple
 * String Format Specifiers, Android string resources), Python's % and str.format, Ruby's format / Rails I18n,
 * i18next interpolation, nesting and Trans, ICU MessageFormat and FormatJS rich text, Angular i18n, XLIFF 1.2 and
 * 2.0 inline elements, Symfony translations, Android and Apple escapes, HTML and CommonMark.
 */

type Kind = "text" | "xml";
interface Sample {
  name: string;
  /** The value as the file holds it (escapes of the file format aside). */
  value: string;
  /** text: escaped for each file format; xml: well-formed inline XML, written as it is into XML formats. */
  kind?: Kind;
  formats: (CatalogFormat | "xliff12" | "xliff20")[];
  /** PO flag (`#, python-format`). */
  flag?: string;
}

const PRINTF: Sample["formats"] = ["po", "strings", "android", "json", "yaml", "xliff12", "xliff20"];

const SAMPLES: Sample[] = [
  { name: "printf positions and widths", value: "Downloaded %1$s of %2$s files at %5.2f%% speed", formats: PRINTF, flag: "c-format" },
  { name: "printf length modifiers", value: "Deleted %lld old items and %hd new ones", formats: PRINTF, flag: "c-format" },
  { name: "Objective-C objects", value: "Shared by %@ with %1$@ today", formats: ["strings", "json", "xliff12"] },
  { name: "Python named", value: "Hello %(name)s, you have %(count)d new messages", formats: ["po", "json", "yaml"], flag: "python-format" },
  {
    name: "Python str.format",
    value: "Hello {name}, item {0} costs {0:>10} and {price!r}",
    formats: ["po", "json", "yaml"],
    flag: "python-brace-format",
  },
  { name: "Ruby", value: "Hello %{name}, your total is %<total>.2f today", formats: ["yaml", "json"], flag: "ruby-format" },
  { name: "i18next interpolation", value: "Hello {{name}}, you have {{count, number}} unread messages", formats: ["json"] },
  { name: "i18next nesting", value: "Please read $t(common.terms) before signing", formats: ["json"] },
  { name: "i18next Trans", value: "Press <0>Save</0> to keep <1/> your changes", formats: ["json"] },
  { name: "ICU arguments", value: "Hello {name}, your balance is {amount, number} since {start, date, short}", formats: ["json", "arb"] },
  {
    name: "ICU plural with rich text",
    value: "{count, plural, =0 {No files} one {<b>#</b> file deleted} other {<b>#</b> files deleted}}",
    formats: ["json", "arb"],
  },
  { name: "ICU select", value: "{gender, select, female {She replied} male {He replied} other {They replied}}", formats: ["json", "arb"] },
  {
    name: "ICU selectordinal",
    value: "You finished {place, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} today",
    formats: ["json", "arb"],
  },
  {
    name: "FormatJS rich text",
    value: "Hello <strong>{name}</strong>, see <link>the guide</link> and <quotaUnits>days</quotaUnits>",
    formats: ["json"],
  },
  {
    name: "Angular interpolation",
    value: 'Hello <x id="INTERPOLATION" equiv-text="{{ user.name }}"/>, welcome back',
    kind: "xml",
    formats: ["xliff12"],
  },
  {
    name: "Angular ICU",
    value: '{VAR_PLURAL, plural, =1 {one task left} other {<x id="INTERPOLATION" equiv-text="{{ count }}"/> tasks left}}',
    kind: "xml",
    formats: ["xliff12"],
  },
  {
    name: "XLIFF 1.2 inline elements",
    value:
      'Click <g id="1">here</g> to <x id="2"/> continue, <bpt id="3">&lt;b&gt;</bpt>bold<ept id="3">&lt;/b&gt;</ept> and <ph id="4">{0}</ph> files',
    kind: "xml",
    formats: ["xliff12"],
  },
  { name: "XLIFF 2.0 inline elements", value: 'Click <pc id="1">here</pc> or <ph id="2"/> to continue', kind: "xml", formats: ["xliff20"] },
  { name: "Android xliff:g", value: 'You have <xliff:g id="count" example="3">%d</xliff:g> new messages', kind: "xml", formats: ["android"] },
  { name: "Symfony", value: "You may add %count% more files, {{ limit }} at most", formats: ["xliff20", "yaml"] },
  {
    name: "HTML in a value",
    value: 'Read the <a href="https://example.com/%s">setup guide</a> and run <code>npm test</code> first',
    kind: "xml",
    formats: ["po", "yaml", "strings", "json", "android"],
  },
  { name: "words beside tags", value: "Your <b>cart</b> is <i>ready</i>", kind: "xml", formats: ["po", "yaml", "strings", "json", "android"] },
  { name: "escapes", value: 'Don\'t say "hello"\nThe next line waits…', formats: ["po", "strings", "android", "json", "yaml", "arb"] },
  { name: "a label in angle brackets", value: "<None>", formats: ["strings", "json"] },
];

const xmlEscape = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const cEscape = (s: string) => s.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n");

/** A one-entry file of a format holding `value` under the key "message". */
function file(format: Sample["formats"][number], sample: Sample): { format: CatalogFormat; content: string } {
  const { value, kind = "text" } = sample;
  const xml = kind === "xml" ? value : xmlEscape(value);
  switch (format) {
    case "json":
      return { format, content: `${JSON.stringify({ message: value }, null, 2)}\n` };
    case "arb":
      return { format, content: `${JSON.stringify({ "@@locale": "en", message: value, "@message": { description: sample.name } }, null, 2)}\n` };
    case "po": {
      const flag = sample.flag ? `#, ${sample.flag}\n` : "";
      return {
        format,
        content: `msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n${flag}msgid "${cEscape(value)}"\nmsgstr ""\n`,
      };
    }
    case "yaml":
      return { format, content: `en:\n  message: ${JSON.stringify(value)}\n` };
    case "strings":
      return { format, content: `/* ${sample.name} */\n"message" = "${cEscape(value)}";\n` };
    case "android": {
      // Android's own escapes: quotes and apostrophes behind a backslash, newlines as \n.
      const text = (kind === "xml" ? value : xml).replaceAll("'", "\\'").replaceAll("\n", "\\n");
      const quoted = kind === "xml" ? text : text.replaceAll('"', '\\"');
      return {
        format,
        content: `<?xml version="1.0" encoding="utf-8"?>\n<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n    <string name="message">${quoted}</string>\n</resources>\n`,
      };
    }
    case "xliff12":
      return {
        format: "xliff",
        content: `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n  <file source-language="en" datatype="plaintext" original="ng2.template">\n    <body>\n      <trans-unit id="message" datatype="html">\n        <source>${xml}</source>\n      </trans-unit>\n    </body>\n  </file>\n</xliff>\n`,
      };
    case "xliff20":
      return {
        format: "xliff",
        content: `<?xml version="1.0" encoding="UTF-8"?>\n<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">\n  <file id="messages">\n    <unit id="message">\n      <segment>\n        <source>${xml}</source>\n      </segment>\n    </unit>\n  </file>\n</xliff>\n`,
      };
    default:
      throw new Error(`no sample file for ${format}`);
  }
}

const servers = emulatorServersForFile({ translation: "hostile" });

const CASES = SAMPLES.flatMap((sample) => sample.formats.map((format) => [sample.name, format, sample] as const));

describe("every syntax of the ecosystems, in every format that carries it, through the hostile sandbox", () => {
  it.each(CASES)("%s in %s", async (_, target, sample) => {
    const { format, content } = file(target, sample);
    const r = await translateCatalog({ format, content, source_lang: "en", target_lang: "lug" }, emulatorDeps(servers));
    expect(r.entries.failed).toEqual([]);
    expect(toolingProblem(format, r.content)).toBeUndefined();
    const units = targetEntries(parseCatalog(format, content), "lug").filter((u) => u.translatable);
    expect(units.length).toBeGreaterThan(0);
    expect(r.entries.translated).toBe(units.length);
    const written = writtenTranslations(format, r.content, "lug");
    for (const unit of units) expect(entryProblems(unit, written.get(unit.id)), unit.id).toEqual([]);
  });

  it("Markdown: code spans, links and emphasis", async () => {
    const content = "# Getting started\n\nRun `npm test`, then read [the guide](https://example.com/guide) **before** you *deploy*.\n";
    const r = await translateCatalog({ format: "markdown", content, source_lang: "en", target_lang: "lug" }, emulatorDeps(servers));
    expect(r.entries).toMatchObject({ failed: [], pending: 0 });
    expect(withoutMarks(r.content)).toBe(
      "# Trggvat fgnegrq\n\nEha `npm test`, gura ernq [gur thvqr](https://example.com/guide) **orsber** lbh *qrcybl*.\n",
    );
  });
});
