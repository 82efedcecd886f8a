import type { CatalogFormat } from "./types";

/**
 * A catalog file that cannot be read: malformed, too large, too deeply nested, or using something refused on purpose
 * (an XML DOCTYPE). `message` never quotes the file: it names the problem and, where the parser knows it, `line` and
 * `column` (1-based) point at it. Library error messages are never passed on (several quote the input).
 */
export class CatalogParseError extends Error {
  override readonly name = "CatalogParseError";
  constructor(
    readonly format: CatalogFormat,
    readonly problem: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${format}: ${problem}${line !== undefined ? ` (line ${line}${column !== undefined ? `, column ${column}` : ""})` : ""}`);
  }
}

/**
 * A translation that cannot be written into the file: in XML formats, a translation that is not a well-formed XML
 * fragment (an unclosed tag). `id` names the entry; the message never quotes the translation.
 */
export class CatalogRenderError extends Error {
  override readonly name = "CatalogRenderError";
  constructor(
    readonly format: CatalogFormat,
    readonly id: string,
    problem: string,
  ) {
    super(`${format}: ${problem}`);
  }
}

/**
 * A catalog that is well-formed but over one of the budgets of ./limits.ts (entries, nesting, ICU expansion, Markdown
 * shape): the message names the limit and its value, never the file's content.
 */
export class CatalogLimitError extends CatalogParseError {}
