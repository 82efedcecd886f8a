import type { TokenTable } from "./tokens";

/**
 * Masks one run of human text: placeholders (and, in HTML, character references) become tokens, then the
 * do-not-translate and glossary terms. What is left is what the model translates.
 *
 * Placeholders recognised (the common i18n syntaxes): `{{name}}`, `${name}`, `{name}` and `{0}`, ICU simple arguments
 * such as `{n, number}` or `{d, date, short}`, and printf forms (`%s`, `%d`, `%1$s`, `%.2f`, `%@`, `%%`). `:name` is not:
 * it cannot be told from ordinary text ("Note: ...", "10:30") without false positives. URLs (http, https) are kept too.
 */
const PLACEHOLDER = new RegExp(
  [
    String.raw`\{\{\s*[^{}\s][^{}]*?\s*\}\}`, // {{name}}, {{ user.name }}
    String.raw`\$\{[^{}\s]+\}`, // ${name}
    String.raw`\{\s*[\p{L}_][\p{L}\p{N}_.-]*\s*,\s*(?:number|date|time|duration|spellout|ordinal)\s*(?:,[^{}]*)?\}`, // {n, number}
    String.raw`\{\s*(?:[\p{L}_][\p{L}\p{N}_.-]*|\d+)\s*\}`, // {name}, {0}
    String.raw`https?://[^\s<>"'\]\[(){}]+[^\s<>"'\]\[(){}.,;:!?]`, // a URL, without trailing punctuation
    String.raw`%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcspn@%]`, // printf
  ].join("|"),
  "gu",
);
const CHARACTER_REFERENCE = /&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);/g;

export interface TermOptions {
  /** Kept exactly as written: matched case-sensitively, as whole words. */
  doNotTranslate?: readonly string[];
  /** Replaced by their target: matched case-insensitively, as whole words. */
  glossary?: readonly { source: string; target: string }[];
}

export interface FragmentOptions extends TermOptions {
  /** HTML text: character references (`&amp;`, `&#8212;`) are kept as written. */
  characterReferences?: boolean;
}

export function maskFragment(text: string, table: TokenTable, options: FragmentOptions): string {
  const protectedPattern = options.characterReferences ? joinPatterns(PLACEHOLDER, CHARACTER_REFERENCE) : PLACEHOLDER;
  let out = "";
  let last = 0;
  for (const m of text.matchAll(protectedPattern)) {
    out += maskTerms(text.slice(last, m.index), table, options) + table.add(m[0]);
    last = m.index + m[0].length;
  }
  return out + maskTerms(text.slice(last), table, options);
}

function joinPatterns(a: RegExp, b: RegExp): RegExp {
  return new RegExp(`${a.source}|${b.source}`, "gu");
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A whole word: not preceded or followed by a letter, digit or combining mark. */
const wholeWord = (term: string) => String.raw`(?<![\p{L}\p{N}\p{M}])${escapeRegExp(term)}(?![\p{L}\p{N}\p{M}])`;

function maskTerms(text: string, table: TokenTable, { doNotTranslate = [], glossary = [] }: TermOptions): string {
  if (!text) return text;
  // Longest terms first, so "M-Pesa Go" wins over "M-Pesa". Do-not-translate terms win over glossary terms.
  const keep = [...doNotTranslate].filter(Boolean).sort((a, b) => b.length - a.length);
  const replace = [...glossary].filter((g) => g.source).sort((a, b) => b.source.length - a.source.length);
  const glossed = (piece: string) => {
    if (replace.length === 0) return piece;
    const byLower = new Map(replace.map((g) => [g.source.toLocaleLowerCase(), g.target]));
    const pattern = new RegExp(replace.map((g) => wholeWord(g.source)).join("|"), "giu");
    return piece.replace(pattern, (match) => {
      const target = byLower.get(match.toLocaleLowerCase()) ?? match;
      return table.add(target, { glossaryTerm: target });
    });
  };
  if (keep.length === 0) return glossed(text);
  // Case-sensitive: "Lugha" is kept as written; "lugha" is an ordinary word.
  const pattern = new RegExp(keep.map(wholeWord).join("|"), "gu");
  let out = "";
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    out += glossed(text.slice(last, m.index)) + table.add(m[0]);
    last = m.index + m[0].length;
  }
  return out + glossed(text.slice(last));
}
