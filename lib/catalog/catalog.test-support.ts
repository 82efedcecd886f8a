import fs from "node:fs";
import path from "node:path";
import type { CatalogEntry, CatalogFormat } from "./types";

/** Test helpers for lib/catalog (not part of the module's API). */

export const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");

/** The fake translator of the tests: every translatable entry's source wrapped in ⟦…⟧. */
export function wrapAll(units: readonly CatalogEntry[]): Map<string, string> {
  return new Map(units.filter((u) => u.translatable).map((u) => [u.id, `⟦${u.source}⟧`]));
}

/**
 * Real catalogs of public projects, kept outside the repository (their licences are their projects'): beside the
 * checkout in CI, or wherever LUGHA_SHARED_CATALOGS points. Each file's name starts with its kind.
 */
export const sharedCatalogsDir = process.env.LUGHA_SHARED_CATALOGS ?? path.resolve(import.meta.dirname, "../../../shared/catalogs");
export const SHARED_FORMATS: Record<string, CatalogFormat> = {
  android: "android",
  arb: "arb",
  json: "json",
  markdown: "markdown",
  po: "po",
  pot: "po",
  srt: "srt",
  strings: "strings",
  vtt: "vtt",
  xliff12: "xliff",
  xliff20: "xliff",
  yaml: "yaml",
};

/** Each entry's source as its translation. */
export const identity = (entries: readonly CatalogEntry[]) => new Map(entries.map((e) => [e.id, e.source]));

const PLACEHOLDER =
  /%\([^)]+\)[a-z]|%\{[^}]+\}|%(?:\d+\$)?[-+ #0]*\d*(?:\.\d+)?[a-zA-Z@%]|\{\{[^{}]*\}\}|\{[^{}\s,]+\}|<\/?[A-Za-z][^<>]*>|https?:\/\/[^\s"<>)]+/g;

/** Placeholders, tags and URLs of a text, sorted: what a translation must keep. */
export const placeholders = (s: string) => (s.match(PLACEHOLDER) ?? []).sort();

/** Lines that are not cue text in a subtitle file: numbering, timings, headers, blank lines. */
export function structuralLines(text: string): string[] {
  return text.split(/(?<=\n)/).filter((l) => /-->|^\d+\r?\n$|^\r?\n$|^WEBVTT|^NOTE|^STYLE/.test(l));
}

/** The 720-character sentence every entry of largeCatalogs() carries (one text: a translation sends it once). */
export const LARGE_CATALOG_VALUE = "Open the settings for the item and then press the button to continue. ".repeat(10);

/**
 * An ordinary catalog as large as the request body allows (about 3.5 MB of 4,900 entries), in each format: the cost
 * of the format's own parse, not of an attack. Every entry carries the same sentence, so translating one costs a
 * single upstream call.
 */
export function largeCatalogs(entries = 4_900): [CatalogFormat, string][] {
  const value = LARGE_CATALOG_VALUE;
  const keys = Array.from({ length: entries }, (_, i) => `k${i}`);
  const cue = (i: number, comma: "," | ".") => `${i + 1}\n00:00:01${comma}000 --> 00:00:02${comma}000\n${value}\n`;
  return [
    ["json", JSON.stringify(Object.fromEntries(keys.map((k) => [k, value])))],
    ["arb", JSON.stringify({ "@@locale": "en", ...Object.fromEntries(keys.map((k) => [k, value])) })],
    ["yaml", `en:\n${keys.map((k) => `  ${k}: "${value}"`).join("\n")}`],
    ["po", keys.map((k) => `msgctxt "${k}"\nmsgid "${value}"\nmsgstr ""\n`).join("\n")],
    ["android", `<resources>${keys.map((k) => `<string name="${k}">${value}</string>`).join("\n")}</resources>`],
    [
      "xliff",
      `<xliff version="1.2"><file source-language="en"><body>${keys.map((k) => `<trans-unit id="${k}"><source>${value}</source></trans-unit>`).join("\n")}</body></file></xliff>`,
    ],
    ["strings", keys.map((k) => `"${k}" = "${value}";`).join("\n")],
    ["srt", keys.map((_, i) => cue(i, ",")).join("\n")],
    ["vtt", `WEBVTT\n\n${keys.map((_, i) => cue(i, ".")).join("\n")}`],
    // Markdown's own limit is 128 KiB: paragraphs of the sentence up to it.
    ["markdown", `${value}\n\n`.repeat(Math.floor((128 * 1024) / (value.length + 2)))],
  ];
}
