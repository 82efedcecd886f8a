/**
 * Budgets on the work one catalog can cause. Each is checked before the work it bounds, and exceeding one is a
 * CatalogLimitError naming it (never quoting the file). docs/security.md lists them with the tests that hold them.
 */

/**
 * At most this many entries in one catalog (plural forms, array items and cues count one each), counted both as the
 * file has them and after expansion into the target's plural categories (Arabic has six: a group of two forms
 * becomes six entries).
 */
export const MAX_CATALOG_ENTRIES = 5_000;

/** Deepest nesting accepted in JSON, YAML, XML and Markdown: a real catalog nests a handful of levels. */
export const MAX_NESTING = 64;

/**
 * ICU messages: plural/select arguments nested at most this deep. Expanding a plural into a target with more
 * categories copies its `other` message into each missing one, at every level, so the size grows with the number of
 * categories to the power of the depth (six levels into Arabic: 6⁶ = 46,656 branches).
 */
export const MAX_ICU_DEPTH = 4;
/** ICU messages: at most this many plural/select branches in one message, after expansion into the target. */
export const MAX_ICU_BRANCHES = 256;
/** ICU messages: at most this many characters in one message after expansion into the target. */
export const MAX_ICU_EXPANDED_CHARS = 50_000;
/** At most this many characters of source text in all of a catalog's entries for one target, after expansion. */
export const MAX_TARGET_CHARS = 8 * 1024 * 1024;

/** A budget that an input exceeds; `problem` names it in words (e.g. "ICU plurals nested deeper than 4 levels"). */
export class LimitExceeded extends Error {
  override readonly name = "LimitExceeded";
  constructor(
    readonly problem: string,
    readonly line?: number,
  ) {
    super(problem);
  }
}
