import type { TokenTable } from "./tokens";

/**
 * Masks one run of human text: placeholders, markup tags, character references and escapes become tokens, then the
 * do-not-translate and glossary terms. What is left is what the model translates.
 *
 * Placeholders recognised, by ecosystem (each kept byte for byte):
 *  - printf (C, Objective-C/Swift, Android, gettext c-format, PHP): `%s`, `%d`, `%1$s`, `%5.2f`, `%-10s`, `%lld`,
 *    `%@`, `%1$@`, `%%`;
 *  - Python: `%(name)s`, `%(count)d`, `%(total).2f` (python-format) and str.format `{name}`, `{0}`, `{0:>10}`,
 *    `{name!r}`, `{user.name}`, `{items[0]}` (python-brace-format);
 *  - Ruby/Rails: `%{name}` and `%<name>s`, `%<total>.2f`;
 *  - i18next: `{{name}}`, `{{count, number}}`, `{{- html}}`, nesting `$t(key)`, `$t(key, {"count": 2})`;
 *  - Angular, Symfony, Vue: `{{ expr }}`, `{{ limit }}`, Symfony `%name%`; JavaScript `${name}`;
 *  - ICU MessageFormat simple arguments: `{n}`, `{n, number}`, `{d, date, short}` (plural/select: see index.ts);
 *  - markup tags (HTML, XML, XLIFF inline elements `<x/>`, `<ph/>`, `<pc>`, `<g>`, `<bpt>`/`<ept>`, `<xliff:g>`,
 *    i18next `<0>…</0>` and `<1/>`, ICU rich text `<strong>`, `<quotaUnits>`): each tag is a token, an opening and
 *    its closing tag a pair; code-like elements (`<code>`, `<xliff:g>`, `<ph>`, `<bpt>`…) are kept whole, content
 *    included. `<None>` — a capitalised word in angle brackets that the text never closes — is a label: its brackets
 *    are kept and the word translated;
 *  - character references (`&amp;`, `&#8212;`) and backslash escapes (`\n`, `\'`, `\"`, `\u2026`);
 *  - URLs (http, https).
 * `:name` is not a placeholder: it cannot be told from ordinary text ("Note: ...", "10:30") without false positives.
 */
const PLACEHOLDER_SOURCES = [
  String.raw`\{\{\s*[^{}\s][^{}]*?\s*\}\}`, // {{name}}, {{ user.name }}, {{count, number}}
  String.raw`\$\{[^{}\s]+\}`, // ${name}
  String.raw`\$t\((?:[^()]|\([^()]*\))*\)`, // $t(key), $t(key, {"count": 2})
  String.raw`\{\s*[\p{L}_][\p{L}\p{N}_.-]*\s*,\s*(?:number|date|time|duration|spellout|ordinal)\s*(?:,[^{}]*)?\}`, // {n, number}
  String.raw`\{\s*(?:[\p{L}_][\p{L}\p{N}_.-]*|\d+)\s*\}`, // {name}, {0}
  String.raw`\{(?:[\p{L}_][\p{L}\p{N}_]*|\d+)(?:\.[\p{L}_][\p{L}\p{N}_]*|\[[^\]{}]*\])*(?:![rsa])?(?::[^{}]*)?\}`, // {0:>10}, {name!r}, {a[0]}
  // A URL, without trailing punctuation; `%` only as percent-encoding, so `https://example.com/%(path)s` ends before `%(`.
  String.raw`https?://(?:[^\s<>"'\]\[(){}%]|%[0-9A-Fa-f]{2})*(?:[^\s<>"'\]\[(){}.,;:!?%]|%[0-9A-Fa-f]{2})`,
  String.raw`%\([^()\s]+\)[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[diouxXeEfFgGcrsa%]`, // %(name)s
  String.raw`%\{[^{}\s]+\}`, // %{name}
  String.raw`%<[^<>\s]+>[-+ #0]*\d*(?:\.\d+)?[a-zA-Z]`, // %<name>s
  String.raw`%(?!(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcspn@]%)[A-Za-z_][\w.-]+%`, // Symfony %name% (not printf's %d%%)
  String.raw`%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcspn@%]`, // printf
  String.raw`&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);`, // character references
  String.raw`\\(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[nrt'"\\@?])`, // escapes
];
/** An XML/HTML tag (attributes may hold `>` inside quotes) or an i18next numbered tag. */
const TAG_SOURCE = String.raw`<\/?(?:[A-Za-z][\w:.-]*|\d+)(?:\s(?:[^<>"']|"[^"]*"|'[^']*')*)?\/?>`;
const PROTECTED = new RegExp(`${PLACEHOLDER_SOURCES.join("|")}|${TAG_SOURCE}`, "gu");
const TAG = /^<(\/?)([A-Za-z][\w:.-]*|\d+)((?:\s(?:[^<>"']|"[^"]*"|'[^']*')*)?)>$/;

/** Elements whose content is code or a placeholder's value, never text: kept whole, tags and content. */
const KEPT_WHOLE = new Set(["code", "pre", "kbd", "samp", "var", "script", "style", "xliff:g", "ph", "bpt", "ept", "it"]);

export interface TermOptions {
  /** Kept exactly as written: matched case-sensitively, as whole words. */
  doNotTranslate?: readonly string[];
  /** Replaced by their target: matched case-insensitively, as whole words. */
  glossary?: readonly { source: string; target: string }[];
}

type Part =
  | { kind: "text"; text: string }
  | { kind: "keep"; text: string }
  | { kind: "tag"; text: string; name: string; role: "open" | "close" | "empty"; pair?: number; skipTo?: number; label?: boolean };

export function maskFragment(text: string, table: TokenTable, options: TermOptions): string {
  const parts: Part[] = [];
  let last = 0;
  for (const m of text.matchAll(PROTECTED)) {
    if (m.index > last) parts.push({ kind: "text", text: text.slice(last, m.index) });
    const tag = TAG.exec(m[0]);
    if (tag) {
      const [, slash, name, rest] = tag;
      const empty = rest.trimEnd().endsWith("/");
      parts.push({ kind: "tag", text: m[0], name: name.toLowerCase(), role: slash ? "close" : empty ? "empty" : "open" });
    } else parts.push({ kind: "keep", text: m[0] });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  pairTags(parts, table);

  let out = "";
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p.kind === "text") out += maskTerms(p.text, table, options);
    else if (p.kind === "keep") out += table.add(p.text);
    else if (p.skipTo !== undefined) {
      out += table.add(parts.slice(i, p.skipTo + 1).reduce((s, q) => s + q.text, ""));
      i = p.skipTo;
    } else if (p.label) out += `${table.add("<")}${maskTerms(p.text.slice(1, -1), table, options)}${table.add(">")}`;
    else out += table.add(p.text, p.pair === undefined || p.role === "empty" ? {} : { pair: { id: p.pair, role: p.role as "open" | "close" } });
  }
  return out;
}

/** Matches opening and closing tags by name (innermost first); marks code-like elements kept whole and `<Label>`s. */
function pairTags(parts: Part[], table: TokenTable) {
  const open: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p.kind !== "tag") continue;
    if (p.role === "open") open.push(i);
    else if (p.role === "close") {
      const at = open.findLastIndex((j) => (parts[j] as { name: string }).name === p.name);
      if (at < 0) continue;
      const j = open[at];
      open.length = at;
      const opener = parts[j] as Extract<Part, { kind: "tag" }>;
      if (KEPT_WHOLE.has(p.name)) opener.skipTo = i;
      else opener.pair = p.pair = table.newPair();
    }
  }
  for (const j of open) {
    const p = parts[j] as Extract<Part, { kind: "tag" }>;
    if (/^<[A-Z][A-Za-z]*>$/.test(p.text)) p.label = true;
  }
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
