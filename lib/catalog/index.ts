import { createHash } from "node:crypto";
import { z } from "zod";
import { CatalogLimitError, CatalogParseError } from "./errors";
import type { DraftEntry, FormatHandler, GroupForm, PluralGroup, RenderContext } from "./handler";
import { adaptIcuPlurals } from "./icu";
import { LimitExceeded, MAX_CATALOG_ENTRIES, MAX_TARGET_CHARS } from "./limits";
import { localeTag, type PluralInfo, pluralInfo, sameLanguage } from "./plurals";
import {
  CATALOG_FORMATS,
  type CatalogDocument,
  type CatalogEntry,
  type CatalogFormat,
  type ExistingTranslation,
  type ParsedCatalog,
  PLURAL_CATEGORIES,
  type PluralCategory,
  type RenderOptions,
} from "./types";

/**
 * Localisation catalogs: the file-format layer of `POST /api/v1/translate/catalog`. Pure: values in, values out; no
 * I/O, no configuration.
 *
 *   await loadCatalogFormat("po");                            // once per process: the format's parser, on first use
 *   const catalog = parseCatalog("po", text);                 // entries in the source's terms; throws CatalogParseError
 *   const units = targetEntries(catalog, "lug");              // what to translate for Luganda (target plural forms)
 *   const out = renderCatalog("po", catalog.doc, translations, { sourceLang: "en", targetLang: "lug" });
 *
 * - loadCatalogFormat(format) loads the format's module; the functions below throw for a format not loaded yet.
 * - parseCatalog(format, content) → { entries, doc, declaredLocale? }. Entries are in file order; `doc` is opaque.
 * - targetEntries(catalog, targetLang) → the entries to translate: plural messages get one entry per CLDR category of
 *   the target (its source text is the source's form of that category, or its `other` form); ICU plural arguments are
 *   rewritten to the target's categories (icu.ts). Other entries are those of the catalog.
 * - renderCatalog(format, doc, translations, options) → the file with values replaced. `translations` is keyed by the
 *   ids of targetEntries() (for non-plural entries the same as the catalog's). An entry without a translation, or
 *   not translatable, keeps what the file has; a plural form without one takes the group's `other` translation. The
 *   file is edited in place: what is not replaced stays byte for byte, so rendering a file into its own language with
 *   each entry's source as its translation gives back the same bytes (into the source language, plural groups keep
 *   the source's categories and locale metadata — PO Language/Plural-Forms, XLIFF target language, ARB @@locale,
 *   YAML root key — is left alone; into another language both are set for the target).
 * - sourceHash(entry) → 12 hex digits of SHA-256 over context and source (for a plural form: over all of its group's
 *   source forms, so a group is retranslated as a whole). renderCatalog writes it into the file where the format has
 *   room (sourceHashStorage(format) === "file": PO `# lugha-source: …`, ARB `x-lugha-source`, XLIFF note); for the
 *   other formats, keep sourceHashes(entries) beside the file.
 * - readExisting(format, targetContent, { targetLang, sidecar }) → id → { translation, sourceHash? } of a previously
 *   rendered target file, so that a caller can keep translations whose sourceHash is unchanged.
 *
 * Masking is the caller's (lib/localise protect()): protectionFormat(entry) says how to read the source (classify.ts:
 * text for values with placeholders, inline XML or HTML tags and ICU structure, html for cue text, markdown for
 * prose); the content of Android `<xliff:g>` and XLIFF placeholder elements is not to be translated. The format
 * modules and their limitations are described at the top of each file in ./formats.
 *
 * Ids per format: json — JSON Pointer of the value (`/a/b`, `/list/0`); arb — the key; po — msgid, or
 * msgctxt + "\u0004" + msgid (gettext's own key), plural forms `<that>#<category>`; xliff — the unit id (with the
 * file's `original` first when the document has several files; `#2`… for further segments of an XLIFF 2 unit);
 * android — the name (`name@product` with a product attribute; `name#one` for plurals, `name[0]` for array items); strings — the key; yaml — JSON
 * Pointer below the locale root key (`/date/formats/default`); srt — the cue number as written; vtt — the cue
 * identifier, or `#n` (nth cue) when it has none; markdown — `#n`, the nth block of prose.
 *
 * Limits (./limits.ts; exceeding one is a CatalogLimitError, a CatalogParseError that names the limit): at most
 * MAX_CATALOG_ENTRIES entries, in the file and again after expansion into the target's plural categories (with at
 * most MAX_TARGET_CHARS characters of text); ICU messages nested at most MAX_ICU_DEPTH deep, with at most
 * MAX_ICU_BRANCHES branches and MAX_ICU_EXPANDED_CHARS characters once expanded; nesting deeper than 64 levels is
 * refused; an XML DOCTYPE is refused (no entity is ever expanded); YAML aliases are never expanded (a document whose
 * aliases would expand past 100 nodes is refused); Markdown shapes on which the parser is slow are refused before it
 * runs (formats/markdown.ts). Any failure of a parser becomes a CatalogParseError whose message names the problem and
 * never quotes the input. The caller bounds the input's size.
 */

export { protectionFormat } from "./classify";
export { CatalogLimitError, CatalogParseError, CatalogRenderError } from "./errors";
export * from "./limits";
export { localeTag, type PluralInfo, pluralInfo } from "./plurals";
export * from "./types";

export const catalogFormatSchema = z.enum(CATALOG_FORMATS);

/*
 * Each format's module, loaded the first time a file of that format is read or written. Together the ten parsers and
 * their libraries (YAML; gettext with its character encodings; an XML parser; Markdown with GFM) are ≈1 MB of code,
 * ≈0.1 s of a cold function's first request (docs/benchmark.md "Cold starts on Vercel"); a request reads one format.
 */
const LOADERS: Record<CatalogFormat, () => Promise<FormatHandler<unknown>>> = {
  json: async () => (await import("./formats/json")).json as FormatHandler<unknown>,
  arb: async () => (await import("./formats/json")).arb as FormatHandler<unknown>,
  po: async () => (await import("./formats/po")).po as FormatHandler<unknown>,
  xliff: async () => (await import("./formats/xliff")).xliff as FormatHandler<unknown>,
  android: async () => (await import("./formats/android")).android as FormatHandler<unknown>,
  strings: async () => (await import("./formats/strings")).strings as FormatHandler<unknown>,
  yaml: async () => (await import("./formats/yaml")).yaml as FormatHandler<unknown>,
  srt: async () => (await import("./formats/subtitles")).srt as FormatHandler<unknown>,
  vtt: async () => (await import("./formats/subtitles")).vtt as FormatHandler<unknown>,
  markdown: async () => (await import("./formats/markdown")).markdown as FormatHandler<unknown>,
};
const loaded = new Map<CatalogFormat, FormatHandler<unknown>>();

const isCatalogFormat = (format: string): format is CatalogFormat => Object.hasOwn(LOADERS, format);

/** Loads the module of `format` (once per process): parseCatalog, renderCatalog and readExisting need it. */
export async function loadCatalogFormat(format: CatalogFormat): Promise<void> {
  if (loaded.has(format)) return;
  if (!isCatalogFormat(format)) throw new TypeError("unknown catalog format");
  loaded.set(format, await LOADERS[format]());
}

/** Loads every format's module: for tools and tests that read files of any format. */
export async function loadCatalogFormats(): Promise<void> {
  await Promise.all(CATALOG_FORMATS.map(loadCatalogFormat));
}

interface DocImpl {
  handlerDoc: unknown;
  entries: CatalogEntry[];
  byId: Map<string, CatalogEntry>;
  groups: Map<string, PluralGroup>;
}

const hex12 = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 12);

/** 12 hex digits of SHA-256 over an entry's context and source; for a plural form, its group's (see above). */
export function sourceHash(entry: Pick<CatalogEntry, "source"> & { context?: string; sourceHash?: string }): string {
  return entry.sourceHash ?? hex12(`${entry.context ?? ""}\u0000${entry.source}`);
}

/** id → sourceHash, to keep beside a rendered file whose format has no room for it. */
export function sourceHashes(entries: readonly CatalogEntry[]): Record<string, string> {
  return Object.fromEntries(entries.map((e) => [e.id, sourceHash(e)]));
}

/** Where renderCatalog() keeps source hashes for a format. */
export function sourceHashStorage(format: CatalogFormat): "file" | "sidecar" {
  return format === "po" || format === "arb" || format === "xliff" ? "file" : "sidecar";
}

function handlerFor(format: CatalogFormat): FormatHandler<unknown> {
  const handler = loaded.get(format);
  if (handler) return handler;
  if (!isCatalogFormat(format)) throw new TypeError("unknown catalog format");
  throw new Error(`the ${format} catalog format is not loaded: await loadCatalogFormat("${format}") first`);
}

/** Runs a parser; any failure that is not already a CatalogParseError becomes one that says nothing of the input. */
function guarded<T>(format: CatalogFormat, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof CatalogParseError) throw e;
    if (e instanceof LimitExceeded) throw new CatalogLimitError(format, e.problem, e.line);
    if (e instanceof RangeError) throw new CatalogParseError(format, "nested too deeply or too large to read");
    throw new CatalogParseError(format, "the file could not be read");
  }
}

export function parseCatalog(format: CatalogFormat, content: string): ParsedCatalog {
  const handler = handlerFor(format);
  if (typeof content !== "string") throw new TypeError("content must be a string");
  const parsed = guarded(format, () => handler.parse(content));
  if (parsed.entries.length > MAX_CATALOG_ENTRIES) throw new CatalogLimitError(format, `more than ${MAX_CATALOG_ENTRIES} entries`);
  const groups = new Map((parsed.groups ?? []).map((g) => [g.id, g]));
  const drafts = new Map<string, DraftEntry>();
  for (const e of parsed.entries) {
    if (drafts.has(e.id)) throw new CatalogParseError(format, "two entries have the same key");
    drafts.set(e.id, e);
  }
  const groupHash = new Map<string, string>();
  for (const g of groups.values()) {
    const first = drafts.get(g.forms[0].entryId)!;
    const forms = g.forms.map((f) => `${f.category}\u0002${drafts.get(f.entryId)!.source}`).join("\u0001");
    groupHash.set(g.id, hex12(`${first.context ?? ""}\u0000${forms}`));
  }
  const entries: CatalogEntry[] = parsed.entries.map((e) => ({
    ...e,
    sourceHash: e.plural ? groupHash.get(e.plural.group)! : hex12(`${e.context ?? ""}\u0000${e.source}`),
  }));
  const impl: DocImpl = { handlerDoc: parsed.doc, entries, byId: new Map(entries.map((e) => [e.id, e])), groups };
  const doc: CatalogDocument = { format, impl };
  return { format, entries, doc, ...(parsed.declaredLocale ? { declaredLocale: parsed.declaredLocale } : {}) };
}

function implOf(doc: CatalogDocument): DocImpl {
  return doc.impl as DocImpl;
}

/** A group's categories in the target: the target's (see above), or the source's own when rendering into the source language. */
function categoriesFor(group: PluralGroup, target: PluralInfo | "source"): PluralCategory[] {
  if (target === "source") return PLURAL_CATEGORIES.filter((c) => group.forms.some((f) => f.category === c));
  const base = group.ordinal ? target.ordinal : target.categories;
  const hasZero = group.forms.some((f) => f.category === "zero");
  if (group.keepZero && hasZero && !base.includes("zero")) return PLURAL_CATEGORIES.filter((c) => c === "zero" || base.includes(c));
  return [...base];
}

/** XML tags blanked out (same length), so that an ICU parser sees only the message around them. */
const maskTags = (s: string) => s.replace(/<(?:[^<>"']|"[^"]*"|'[^']*')*>/g, (m) => "_".repeat(m.length));

/**
 * The entries for a target (see targetEntries), within the budgets: at most MAX_CATALOG_ENTRIES entries and
 * MAX_TARGET_CHARS characters of source text once plural groups and ICU plurals are expanded (CatalogLimitError,
 * thrown as soon as the count passes, so the expansion is never built in full).
 */
function computeTargetEntries(impl: DocImpl, format: CatalogFormat, target: PluralInfo, sameLanguage = false): CatalogEntry[] {
  const out = budgeted(format);
  const done = new Set<string>();
  for (const entry of impl.entries) {
    if (entry.plural) {
      const group = impl.groups.get(entry.plural.group);
      if (!group) {
        out.push(entry);
        continue;
      }
      if (done.has(group.id)) continue;
      done.add(group.id);
      const forms = new Map(group.forms.map((f) => [f.category, impl.byId.get(f.entryId)!]));
      const fallback = forms.get("other") ?? impl.byId.get(group.forms[group.forms.length - 1].entryId)!;
      for (const category of categoriesFor(group, sameLanguage ? "source" : target)) {
        const from = forms.get(category) ?? fallback;
        out.push({
          ...from,
          id: group.idFor(category),
          plural: { group: group.id, category, ...(group.ordinal ? { ordinal: true as const } : {}) },
        });
      }
    } else if (entry.icu && entry.translatable && !sameLanguage) {
      let source: string;
      try {
        source = adaptIcuPlurals(entry.source, target, entry.markup === "xml" ? maskTags(entry.source) : entry.source);
      } catch (e) {
        if (e instanceof LimitExceeded) throw new CatalogLimitError(format, e.problem);
        throw e;
      }
      out.push(source === entry.source ? entry : { ...entry, source });
    } else out.push(entry);
  }
  return out.entries;
}

/** A list of entries that refuses to grow past MAX_CATALOG_ENTRIES entries or MAX_TARGET_CHARS characters of source. */
function budgeted(format: CatalogFormat) {
  const entries: CatalogEntry[] = [];
  let chars = 0;
  return {
    entries,
    push(entry: CatalogEntry) {
      chars += entry.source.length;
      if (entries.length >= MAX_CATALOG_ENTRIES)
        throw new CatalogLimitError(format, `more than ${MAX_CATALOG_ENTRIES} entries once plural forms are expanded for the target language`);
      if (chars > MAX_TARGET_CHARS)
        throw new CatalogLimitError(
          format,
          `more than ${MAX_TARGET_CHARS} characters of text once plural forms are expanded for the target language`,
        );
      entries.push(entry);
    },
  };
}

/** The entries to translate for a target language (see the module comment). */
export function targetEntries(catalog: Pick<ParsedCatalog, "doc">, targetLang: string): CatalogEntry[] {
  return computeTargetEntries(implOf(catalog.doc), catalog.doc.format, pluralInfo(targetLang));
}

export function renderCatalog(
  format: CatalogFormat,
  doc: CatalogDocument,
  translations: ReadonlyMap<string, string>,
  options: RenderOptions,
): string {
  const handler = handlerFor(format);
  if (doc.format !== format) throw new TypeError("the document was parsed as another format");
  const impl = implOf(doc);
  const target = pluralInfo(options.targetLang);
  const intoSource = sameLanguage(options.targetLang, options.sourceLang);
  const units = computeTargetEntries(impl, format, target, intoSource);
  const byTargetId = new Map(units.map((u) => [u.id, u]));
  const given = (u: CatalogEntry | undefined) => (u?.translatable ? translations.get(u.id) : undefined);

  const ctx: RenderContext = {
    format,
    options,
    targetTag: localeTag(options.targetLang),
    target,
    writeSourceHashes: options.writeSourceHashes ?? true,
    setLocale: !intoSource,
    translation(id) {
      const unit = byTargetId.get(id);
      if (!unit || unit.plural) return undefined;
      const t = given(unit);
      // Into another language, a translation identical to its source ("OK", "%s KB") is still a translation, written
      // as such (a PO msgstr, an XLIFF target); into the source's own language it changes nothing.
      if (t === undefined || (intoSource && t === impl.byId.get(id)?.source)) return undefined;
      return t;
    },
    groupForms(groupId) {
      const group = impl.groups.get(groupId);
      if (!group) return undefined;
      const categories = categoriesFor(group, intoSource ? "source" : target);
      const other = byTargetId.get(group.idFor("other"));
      const forms: GroupForm[] = categories.map((category) => {
        const unit = byTargetId.get(group.idFor(category))!;
        const t = given(unit) ?? (unit.translatable ? given(other) : undefined);
        return { category, id: unit.id, text: t ?? unit.source, translated: t !== undefined };
      });
      if (!categories.some((c) => translations.has(group.idFor(c)))) return undefined;
      const sameCategories = categories.length === group.forms.length && group.forms.every((f) => categories.includes(f.category));
      if (intoSource && sameCategories && forms.every((f) => f.text === impl.byId.get(f.id)?.source)) return undefined;
      return forms;
    },
    hash(idOrGroup) {
      const group = impl.groups.get(idOrGroup);
      if (group) return impl.byId.get(group.forms[0].entryId)!.sourceHash;
      return (byTargetId.get(idOrGroup) ?? impl.byId.get(idOrGroup))?.sourceHash ?? "";
    },
  };
  return handler.render(impl.handlerDoc, ctx);
}

export interface ReadExistingOptions {
  /** The target file's language, for PO plural forms (default: the file's Language header). */
  targetLang?: string;
  /** id → sourceHash kept beside the file (formats with no room for it in the file). */
  sidecar?: Readonly<Record<string, string>> | ReadonlyMap<string, string>;
}

/** Translations in a previously rendered target file: id → { translation, sourceHash? }. Throws CatalogParseError. */
export function readExisting(
  format: CatalogFormat,
  existingTargetContent: string,
  options: ReadExistingOptions = {},
): Map<string, ExistingTranslation> {
  const handler = handlerFor(format);
  const found = guarded(format, () => {
    if (handler.readExisting) return handler.readExisting(existingTargetContent, options.targetLang);
    const parsed = handler.parse(existingTargetContent);
    return new Map(parsed.entries.map((e) => [e.id, { translation: e.source } as ExistingTranslation]));
  });
  if (found.size > MAX_CATALOG_ENTRIES) throw new CatalogLimitError(format, `more than ${MAX_CATALOG_ENTRIES} entries`);
  const sidecar = options.sidecar instanceof Map ? options.sidecar : new Map(Object.entries(options.sidecar ?? {}));
  for (const [id, existing] of found) {
    const hash = sidecar.get(id);
    if (existing.sourceHash === undefined && typeof hash === "string") existing.sourceHash = hash;
  }
  return found;
}
