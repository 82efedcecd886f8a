import { tokenName } from "./tokens";

/**
 * Several masked texts in one upstream call: joined with separator tokens (one per gap, each on a line of its own),
 * and split again on return only when every separator came back exactly once and in order.
 *
 * Separators are tokens like the masker's own (`QZ…X`), numbered from SEPARATOR_BASE, far above any index a text's
 * own tokens reach, so a separator is never mistaken for a placeholder and the reverse. A model copies them as it
 * copies any token; one that drops, repeats or reorders a separator makes the whole packed answer unusable, and the
 * caller retries its texts one by one.
 */

/** 22^4: the first separator is `QZBAAAAX`; a text's own tokens (one per placeholder) never get near it. */
export const SEPARATOR_BASE = 22 ** 4;

const TOKEN = /QZ([A-W]+?)X/gi;
const LETTERS = "ABCDEFGHIJKLMNOPRSTUVW";

function tokenIndex(letters: string): number {
  let n = 0;
  for (const c of letters.toUpperCase()) {
    const d = LETTERS.indexOf(c);
    if (d < 0) return -1;
    n = n * LETTERS.length + d;
  }
  return n;
}

/** The characters a separator adds between two texts. */
export function separatorLength(index: number): number {
  return tokenName(SEPARATOR_BASE + index).length + 2;
}

/** The texts joined into one, separated by numbered separator tokens. */
export function packTexts(texts: readonly string[]): string {
  return texts.map((t, i) => (i === 0 ? t : `\n${tokenName(SEPARATOR_BASE + i - 1)}\n${t}`)).join("");
}

/**
 * The translated texts of a packed answer, each trimmed; undefined when the separators did not all come back, exactly
 * once each and in order, or when a part is empty.
 */
export function unpackTexts(answer: string, count: number): string[] | undefined {
  const parts: string[] = [];
  let expected = 0;
  let from = 0;
  for (const m of answer.matchAll(TOKEN)) {
    const index = tokenIndex(m[1]) - SEPARATOR_BASE;
    if (index < 0) continue; // a token of the texts themselves
    if (index !== expected) return undefined;
    parts.push(answer.slice(from, m.index));
    from = m.index + m[0].length;
    expected++;
  }
  parts.push(answer.slice(from));
  if (parts.length !== count) return undefined;
  const trimmed = parts.map((p) => p.trim());
  return trimmed.some((p) => p.length === 0) ? undefined : trimmed;
}
