import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MessageFormatElement, parse as parseIcu, TYPE } from "@formatjs/icu-messageformat-parser";
import { SaxesParser } from "saxes";
import { parseDocument } from "yaml";
import { type CatalogEntry, type CatalogFormat, parseCatalog, readExisting } from "@/lib/catalog";
import { HuggingFaceClient, KhayaClient, SunbirdClient } from "@/lib/providers";
import type { EmulatorServer } from "@/lib/providers/sandbox";
import type { ProviderId } from "@/lib/providers/types";
import type { TranslateDeps } from "./service";

/**
 * Checks for catalogs sent through the hostile sandbox (lib/providers/sandbox/translation.ts): what each translated
 * entry must have kept, read with a pattern list of its own (not the masker's), and each output file checked with
 * its format's own tooling (msgfmt -c, an XML parser, the ICU parser, the YAML and JSON parsers).
 */

/** The real clients on loopback emulators. */
export function emulatorDeps(servers: Record<ProviderId, EmulatorServer>): TranslateDeps {
  const common = { policy: { maxRetries: 0 }, circuit: { failureThreshold: 1000, cooldownMs: 60_000 } };
  return {
    providers: {
      provider_a: new SunbirdClient({ baseUrl: servers.provider_a.url, ...common }),
      provider_b: new KhayaClient({ baseUrl: servers.provider_b.url, ...common }),
      provider_c: new HuggingFaceClient({ baseUrl: servers.provider_c.url, ...common }),
    },
    deadlineMs: 20_000,
    batch: { deadlineMs: 120_000, concurrencyPerProvider: 8 },
  };
}

/** Everything of a source that no translation may change, each syntax written out on its own. */
const KEPT = new RegExp(
  [
    String.raw`<code>[\s\S]*?</code>`,
    String.raw`<xliff:g[^>]*>[\s\S]*?</xliff:g>`,
    String.raw`<\/?[A-Za-z][\w:.-]*(?:\s(?:[^<>"']|"[^"]*"|'[^']*')*)?\/?>`, // tags (but see `<None>` below)
    String.raw`<\/?\d+\s*\/?>`, // i18next Trans
    String.raw`\{\{[^{}]*\}\}`, // {{x}}, {{ x }}, {{x, number}}
    String.raw`\$t\([^()]*\)`,
    String.raw`%\([^()]+\)[-+ #0]*\d*(?:\.\d+)?[a-zA-Z%]`, // %(name)s
    String.raw`%\{[^{}]+\}`, // %{name}
    String.raw`%<[^<>]+>[-+ #0]*\d*(?:\.\d+)?[a-zA-Z]`, // %<name>s
    String.raw`%(?!l?[a-z@]%)[A-Za-z_][\w.-]+%`, // Symfony %name%
    String.raw`%(?:\d+\$)?[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|q)?[a-zA-Z@%]`, // printf
    String.raw`\{[^{}\s,]+(?:, ?(?:number|date|time)[^{}]*)?\}`, // {name}, {0}, {n, number}
    String.raw`&[#\w]+;`,
    String.raw`\\(?:u[0-9A-Fa-f]{4}|[nt'"\\@?])`,
    String.raw`https?://[^\s"<>)]+[^\s"<>).,:;]`,
  ].join("|"),
  "g",
);

/** A label in angle brackets (`<None>`): translated, its brackets kept. */
const LABEL = /<[A-Z][a-z]+>/g;

/** The protected parts of a text, sorted; plural and select structure is compared by icuShape(). */
export function keptParts(text: string): string[] {
  const labels = [...text.matchAll(LABEL)].filter((m) => !text.includes(`</${m[0].slice(1)}`)).map(() => "<…>");
  const rest = text.replace(LABEL, (m) => (text.includes(`</${m.slice(1)}`) ? m : " "));
  return [...labels, ...(rest.match(KEPT) ?? [])].sort();
}

/** The sandbox marker the emulators put before each translated line. */
export const withoutMarks = (s: string) => s.replace(/\[sandbox:[^\]]*\] ?/g, "");

/** An ICU message's text and simple arguments, each branch's included, as written (the braces of branches left out). */
function icuPieces(message: string): string {
  const blanked = message.replace(/<\/?[A-Za-z\d][^<>]*>/g, (m) => "_".repeat(m.length));
  const out: string[] = [];
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.plural || el.type === TYPE.select) for (const option of Object.values(el.options)) walk(option.value);
      else out.push(message.slice(el.location!.start.offset, el.location!.end.offset));
    }
  };
  walk(parseIcu(blanked, { ignoreTag: true, captureLocation: true }));
  return out.join(" ");
}

/** Arguments, selectors and nesting of an ICU message, without its text (tags blanked, as in XLIFF). */
export function icuShape(message: string): string {
  const blanked = message.replace(/<\/?[A-Za-z\d][^<>]*>/g, (m) => "_".repeat(m.length));
  return JSON.stringify(parseIcu(blanked, { ignoreTag: true }), (k, v) =>
    k === "location" ? undefined : Array.isArray(v) ? v.filter((e) => !(e && typeof e === "object" && (e.type === 0 || e.type === 7))) : v,
  );
}

/** The written file's translations: id → text. */
export function writtenTranslations(format: CatalogFormat, content: string, targetLang: string): Map<string, string> {
  if (format === "po" || format === "xliff") return new Map([...readExisting(format, content, { targetLang })].map(([id, t]) => [id, t.translation]));
  return new Map(parseCatalog(format, content).entries.map((e) => [e.id, e.source]));
}

/** Problems with one translated entry (empty: none). */
export function entryProblems(unit: CatalogEntry, translation: string | undefined): string[] {
  if (!unit.translatable) return [];
  if (translation === undefined || translation.trim() === "") return ["empty"];
  const problems: string[] = [];
  const text = withoutMarks(translation);
  if (unit.icu) {
    try {
      if (icuShape(unit.source) !== icuShape(text)) problems.push("ICU structure differs");
    } catch {
      problems.push("ICU message does not parse");
    }
  }
  const parts = (s: string) => JSON.stringify(keptParts(unit.icu ? icuPieces(s) : s));
  if (unit.markup !== "markdown" && unit.markup !== "html" && !problems.length && parts(unit.source) !== parts(text))
    problems.push(`kept parts differ: ${parts(unit.source)} vs ${parts(text)}`);
  // Every word of the source outside its protected parts was changed by the hostile sandbox: none may come back as sent.
  const icuKeywords = /\b(?:plural|selectordinal|select|offset|other|zero|one|two|few|many)\b/g;
  const words = (s: string) =>
    new Set(
      s
        .replace(KEPT, " ")
        .replace(/\{\s*\w+\s*,/g, " ")
        .replace(/[\w=]+\s*\{/g, " {")
        .replace(icuKeywords, " ")
        .match(/\b[a-z]{4,}\b/g) ?? [],
    );
  const untouched = [...words(unit.source)].filter((w) => words(text).has(w));
  if (untouched.length > 0 && unit.markup !== "markdown") problems.push(`words sent unmasked but not translated: ${untouched.join(" ")}`);
  return problems;
}

/** The format's own check of a written file: undefined when it passes, else what the tool said. */
export function toolingProblem(format: CatalogFormat, content: string): string | undefined {
  try {
    switch (format) {
      case "po": {
        const dir = mkdtempSync(join(tmpdir(), "lugha-po-"));
        try {
          writeFileSync(join(dir, "messages.po"), content);
          execFileSync("msgfmt", ["-c", "-o", "/dev/null", join(dir, "messages.po")], { stdio: "pipe" });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
        return undefined;
      }
      case "xliff":
      case "android": {
        const parser = new SaxesParser({ xmlns: true });
        let error: string | undefined;
        parser.on("error", (e) => {
          error ??= e.message;
        });
        parser.write(content).close();
        return error;
      }
      case "json":
      case "arb":
        JSON.parse(content);
        return undefined;
      case "yaml": {
        const doc = parseDocument(content);
        return doc.errors.length ? doc.errors[0].message : undefined;
      }
      default:
        parseCatalog(format, content);
        return undefined;
    }
  } catch (err) {
    const e = err as Error & { stderr?: Buffer };
    return e.stderr?.toString() || e.message;
  }
}
