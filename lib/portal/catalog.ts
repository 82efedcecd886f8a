/** Browser-safe helpers for the playground's Catalog tab (the same rules as the `lugha catalog` command). */

export const CATALOG_FORMAT_CHOICES = [
  { value: "json", label: "JSON (i18next, ICU, nested)" },
  { value: "arb", label: "ARB (Flutter)" },
  { value: "po", label: "gettext PO / POT" },
  { value: "xliff", label: "XLIFF 1.2 / 2.0" },
  { value: "android", label: "Android strings.xml" },
  { value: "strings", label: "Apple .strings" },
  { value: "yaml", label: "YAML (Rails)" },
  { value: "srt", label: "SubRip subtitles (.srt)" },
  { value: "vtt", label: "WebVTT subtitles (.vtt)" },
  { value: "markdown", label: "Markdown" },
] as const;
export type CatalogFormatChoice = (typeof CATALOG_FORMAT_CHOICES)[number]["value"];

const BY_EXTENSION: Record<string, CatalogFormatChoice> = {
  json: "json",
  arb: "arb",
  po: "po",
  pot: "po",
  xlf: "xliff",
  xliff: "xliff",
  xml: "android",
  strings: "strings",
  yml: "yaml",
  yaml: "yaml",
  srt: "srt",
  vtt: "vtt",
  md: "markdown",
  markdown: "markdown",
};

/** The format a file name's extension stands for, if any. */
export function formatFromName(name: string): CatalogFormatChoice | undefined {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? undefined : BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

/** The target file's name: the source language replaced where the name holds it (en.json → lug.json), else added. */
export function targetFileName(name: string, from: string, to: string): string {
  const dot = name.lastIndexOf(".");
  const stem = dot < 0 ? name : name.slice(0, dot);
  const ext = dot < 0 ? "" : name.slice(dot);
  const outExt = ext === ".pot" ? ".po" : ext;
  const parts = stem.split(/([._-])/);
  const at = parts.findIndex((p) => p.toLowerCase() === from.toLowerCase());
  if (at >= 0) {
    parts[at] = to;
    // A region after the language (en-US, en_GB) goes with it.
    if (/^[-_]$/.test(parts[at + 1] ?? "") && /^[A-Z]{2}$/.test(parts[at + 2] ?? "")) parts.splice(at + 1, 2);
    return parts.join("") + outExt;
  }
  return ext === ".pot" ? `${to}.po` : `${stem}.${to}${outExt}`;
}
