/**
 * Opaque tokens that stand in for what machine translation must not touch (placeholders, markup, protected terms).
 *
 * A token is `QZ` + an index written in the letters A–W + `X`, e.g. `QZAX`, `QZBX`, `QZBAX`: one made-up word of capital
 * letters. Machine translation copies such a word as it would an unknown name; it carries no braces or markup to be
 * dropped, no punctuation to be spaced out, no digits to be localised, and no word to be translated. The index letters
 * exclude X, so a token ends at its first X even when the model glues a letter to it. Matching ignores case, since a
 * model may change it at the start of a sentence.
 */

const INDEX_LETTERS = "ABCDEFGHIJKLMNOPRSTUVW"; // 22 letters: no Q, X, Y or Z
const TOKEN_PATTERN = /QZ([A-W]+?)X/gi;

export function tokenName(index: number): string {
  let letters = "";
  let n = index;
  do {
    letters = INDEX_LETTERS[n % INDEX_LETTERS.length] + letters;
    n = Math.floor(n / INDEX_LETTERS.length);
  } while (n > 0);
  return `QZ${letters}X`;
}

/** Restores a token: its text may depend on the translations of other segments (a translated attribute, ICU branch). */
export type Restorer = (translated: readonly string[]) => string;

export interface TokenEntry {
  token: string;
  restore: Restorer;
  /** Markup that opens or closes: tokens of one pair must come back in order, properly nested. */
  pair?: { id: number; role: "open" | "close" };
  /** A glossary term: the target term it restores to is reported as applied. */
  glossaryTerm?: string;
  /**
   * Set by separateTokens(): whether the source had no whitespace before / after the token (`tight`), and whether a
   * space was added there (`padded`) so that the provider sees the token and its neighbour as two words.
   */
  spacing?: { tightBefore: boolean; tightAfter: boolean; paddedBefore: boolean; paddedAfter: boolean };
}

export class TokenTable {
  readonly entries = new Map<string, TokenEntry>();
  private pairs = 0;

  add(restore: string | Restorer, extra: Omit<TokenEntry, "token" | "restore"> = {}): string {
    const token = tokenName(this.entries.size);
    this.entries.set(token, { token, restore: typeof restore === "string" ? () => restore : restore, ...extra });
    return token;
  }

  newPair(): number {
    return this.pairs++;
  }
}

export interface FoundToken {
  entry: TokenEntry;
  index: number;
  length: number;
}

/** A letter, digit or mark: a token beside one would be read as part of a word. */
const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;

/**
 * Keeps every token a word of its own: where a token touches a letter, digit or another token (`QZAXcartQZBX`), a
 * space is put between them, since a provider reads `QZAXcart` as one word and translates (or garbles) it whole.
 * Each token's entry records what the source had on either side, so restore() can give back the source's spacing.
 */
export function separateTokens(masked: string, table: TokenTable): string {
  let out = "";
  let last = 0;
  for (const m of masked.matchAll(TOKEN_PATTERN)) {
    const entry = table.entries.get(`QZ${m[1].toUpperCase()}X`);
    const end = m.index + m[0].length;
    const before = masked[m.index - 1];
    const after = masked[end];
    out += masked.slice(last, m.index);
    // A token just before this one has already added its space.
    const paddedBefore = out.length > 0 && WORD_CHARACTER.test(out.at(-1)!);
    if (paddedBefore) out += " ";
    out += m[0];
    const paddedAfter = after !== undefined && WORD_CHARACTER.test(after);
    if (paddedAfter) out += " ";
    if (entry)
      entry.spacing = {
        tightBefore: before !== undefined && !/\s/.test(before),
        tightAfter: after !== undefined && !/\s/.test(after),
        paddedBefore,
        paddedAfter,
      };
    last = end;
  }
  return out + masked.slice(last);
}
/** Whether a masked segment holds anything to translate: a letter outside its tokens ("QZAX: QZBX" holds none). */
export function hasTextOutsideTokens(segment: string): boolean {
  return /\p{L}/u.test(segment.replace(TOKEN_PATTERN, ""));
}

/** The tokens in a translated segment, in order; undefined entries are tokens the model invented or mangled. */
export function findTokens(text: string, table: TokenTable): { found: FoundToken[]; unknown: string[] } {
  const found: FoundToken[] = [];
  const unknown: string[] = [];
  for (const m of text.matchAll(TOKEN_PATTERN)) {
    const entry = table.entries.get(`QZ${m[1].toUpperCase()}X`);
    if (entry) found.push({ entry, index: m.index, length: m[0].length });
    else unknown.push(m[0]);
  }
  return { found, unknown };
}
