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

/**
 * Reading and writing a catalog's files (./off-thread.ts): files of this many characters or more (content and
 * existing together) are parsed on a worker thread, so that the server's event loop never waits on them; smaller ones
 * on the request's own thread, where starting a worker would cost more than the parse.
 */
export const OFF_THREAD_MIN_CHARS = 32 * 1024;
/** A worker reading or writing a catalog is stopped after this long, and the file refused as over a limit. */
export const FILE_WORK_TIME_BUDGET_MS = 20_000;
/** A worker reading or writing a catalog may hold this much JavaScript heap; beyond it, it is stopped and the file refused. */
export const FILE_WORK_HEAP_MB = 256;
/**
 * At most this many catalog workers at once in a process; the others wait their turn. One: the largest ordinary file
 * (3.5 MB of YAML) holds about 150 MB while it is parsed, and two at once would take the server past its memory budget.
 */
export const MAX_FILE_WORKERS = 1;
