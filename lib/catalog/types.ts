export const CATALOG_FORMATS = ["json", "po", "xliff", "android", "strings", "arb", "yaml", "srt", "vtt", "markdown"] as const;
export type CatalogFormat = (typeof CATALOG_FORMATS)[number];

/** CLDR plural categories, in CLDR order. */
export const PLURAL_CATEGORIES = ["zero", "one", "two", "few", "many", "other"] as const;
export type PluralCategory = (typeof PLURAL_CATEGORIES)[number];

/**
 * Why an entry is not sent for translation (it is written back as it is):
 *  - marked: the file says so (Android `translatable="false"`, XLIFF `translate="no"`);
 *  - empty: nothing but whitespace;
 *  - no-letters: punctuation, digits or symbols only (", ", "–", "100");
 *  - placeholders-only: nothing but placeholders, markup and punctuation ("%s", "{count}", "%m/%d/%Y", "<0></0>");
 *  - url / email: one or more URLs or e-mail addresses and nothing else;
 *  - reference: an Android resource reference (`@string/app_name`, `?attr/colorPrimary`);
 *  - symbol: a Ruby symbol in YAML (`:year`), which is code.
 */
export type UntranslatableReason = "marked" | "empty" | "no-letters" | "placeholders-only" | "url" | "email" | "reference" | "symbol";

/**
 * One translatable unit of a catalog.
 *
 * `source` is the text as a translator sees it: escapes of the file format are resolved (PO `\"`, JSON `\n`, Android
 * `\'`, .strings `\"`), but markup that belongs to the value is kept as written (see `markup`).
 */
export interface CatalogEntry {
  /** Stable key within the file (see the format notes in index.ts). Unique within one parse. */
  id: string;
  source: string;
  /** Disambiguating context that is part of the message's identity (PO `msgctxt`). */
  context?: string;
  /** Hints for a translator that are not part of the identity: comments, descriptions, notes. */
  notes?: string[];
  /** One form of a plural message: the group it belongs to and its CLDR category. */
  plural?: { group: string; category: PluralCategory; ordinal?: true };
  translatable: boolean;
  /** Set when `translatable` is false. */
  reason?: UntranslatableReason;
  /**
   * What the source holds besides text, for the masker (lib/localise):
   *  - xml: an XML fragment (XLIFF inline elements, Android `<xliff:g>`, `<b>`); entities are written as in the file
   *    (`&amp;`), and the translation must be a well-formed fragment too;
   *  - html: WebVTT cue text (`<i>`, `<v Name>`, `&amp;`);
   *  - markdown: inline Markdown (emphasis, links, code spans).
   */
  markup?: "xml" | "html" | "markdown";
  /** The source is an ICU MessageFormat message with a plural, selectordinal or select argument. */
  icu?: true;
  /** sourceHash() of this entry (for a plural form: of its whole group), computed at parse time. */
  sourceHash: string;
}

/** The parsed file, handed back to renderCatalog() unchanged. Opaque: its shape is not part of the API. */
export interface CatalogDocument {
  readonly format: CatalogFormat;
  /** @internal */
  readonly impl: unknown;
}

export interface ParsedCatalog {
  format: CatalogFormat;
  entries: CatalogEntry[];
  doc: CatalogDocument;
  /** The locale the file declares for its source text, if it declares one (PO Language, XLIFF source language, ARB @@locale, YAML root key). */
  declaredLocale?: string;
}

export interface RenderOptions {
  /** Lugha language code or BCP 47 tag of the translations (`lug`, `ach`, `tw`, `pt-BR`). */
  targetLang: string;
  /** Lugha language code or BCP 47 tag of the source text. */
  sourceLang: string;
  /**
   * Write each translated entry's sourceHash() into the file where the format has a place for it (PO translator
   * comment, ARB `x-lugha-source`, XLIFF note). Default true. Other formats never carry it: keep sourceHashes(entries)
   * beside the file instead.
   */
  writeSourceHashes?: boolean;
}

export interface ExistingTranslation {
  translation: string;
  /** The source hash the translation was made from, where the file (or the sidecar) records one. */
  sourceHash?: string;
}
