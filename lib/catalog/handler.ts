import type { PluralInfo } from "./plurals";
import type { CatalogEntry, CatalogFormat, ExistingTranslation, PluralCategory, RenderOptions } from "./types";

/** What a format's parser produces; the core adds source hashes, limits and target plurals. */
export type DraftEntry = Omit<CatalogEntry, "sourceHash">;

/** The forms of one plural message as the source file has them. */
export interface PluralGroup {
  id: string;
  ordinal?: boolean;
  /** Source forms, in file order. */
  forms: { category: PluralCategory; entryId: string }[];
  /** Id of the entry for a category of the target (whether or not the source has that category). */
  idFor(category: PluralCategory): string;
  /** i18next and Rails use a `zero` form for a count of 0 in any language: keep it where the source has it. */
  keepZero?: boolean;
}

export interface HandlerParse<D> {
  entries: DraftEntry[];
  doc: D;
  groups?: PluralGroup[];
  declaredLocale?: string;
}

export interface GroupForm {
  category: PluralCategory;
  id: string;
  text: string;
  /** Whether `text` is a translation (false: the source form, kept because the form is not translatable). */
  translated: boolean;
}

export interface RenderContext {
  format: CatalogFormat;
  options: RenderOptions;
  /** BCP 47 tag of the target. */
  targetTag: string;
  target: PluralInfo;
  writeSourceHashes: boolean;
  /**
   * Whether the file's locale metadata is to be set to the target (PO Language and Plural-Forms, XLIFF target
   * language, ARB @@locale, YAML root key): false when the target is the source language, so that rendering a file
   * into its own language changes nothing.
   */
  setLocale: boolean;
  /** The translation of a non-plural entry, when there is one to write (translatable, given, and not equal to the source). */
  translation(id: string): string | undefined;
  /** The target forms of a plural group, in the target's category order, or undefined when none is translated. */
  groupForms(groupId: string): GroupForm[] | undefined;
  /** sourceHash of an entry or of a plural group. */
  hash(idOrGroup: string): string;
}

export interface FormatHandler<D> {
  parse(content: string): HandlerParse<D>;
  render(doc: D, ctx: RenderContext): string;
  /** Translations in a target file; the default reads the file's entries' values. */
  readExisting?(content: string, targetLang: string | undefined): Map<string, ExistingTranslation>;
}
