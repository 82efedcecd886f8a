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
