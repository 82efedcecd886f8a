import { type MessageFormatElement, parse as parseIcu, TYPE } from "@formatjs/icu-messageformat-parser";
import type { CatalogEntry, UntranslatableReason } from "./types";

/**
 * Whether a value is worth sending for translation. Each pattern here is applied to one value, never to a file.
 *
 * What counts as "not text": markup tags (`<b>`, `<x id="…"/>`, i18next `<1>…</1>`), character references, printf
 * (`%s`, `%1$d`, `%.2f`, `%@`, `%%`), Python (`%(name)s`), strftime (`%m/%d/%Y %I:%M %p`), Ruby (`%{count}`),
 * i18next/Symfony (`{{count}}`, `{{ limit }}`, `{{-config}}`), `${x}`, ICU arguments (`{n}`, `{n, number}`), URLs,
 * e-mail addresses and Android escapes (`\n`, `\'`, `\u2026`). A value whose remainder has no letter is kept as it is.
 */
const PLACEHOLDERS: RegExp[] = [
  /<\/?\d+\s*\/?>/g, // i18next Trans tags <0>, </1>, <2/>
  /&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);/g, // character references
  /\{\{[^{}]*\}\}/g, // {{x}}, {{ x }}, {{-x}}
  /\$\{[^{}]*\}/g, // ${x}
  /%\{[^{}]*\}/g, // %{x}
  /%<[^<>]+>[-+ #0]*\d*(?:\.\d+)?[a-zA-Z]/g, // %<x>s
  /%\([^()]+\)[-+ #0]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]/g, // %(x)s
  /%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcspn@%]/g, // printf
  /%[-_0^#]?[aAbBcCdDeFgGhHIjklmMnpPrRsStTuUVwWxXyYzZ]/g, // strftime
  /\{[^{}]*\}/g, // {x}, {0}, {x, number}
  /\b(?:https?|ftp):\/\/[^\s<>"']+/g, // URLs
  /\bwww\.[^\s<>"']+/g,
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, // e-mail addresses
  /\\(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, // backslash escapes
];

const URL_ONLY = /^(?:(?:https?|ftp):\/\/|www\.)[^\s<>"']+$/;
const EMAIL_ONLY = /^(?:mailto:)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/;
const ANDROID_REFERENCE = /^[@?](?:[\w.]+:)?[\w.]+\/[\w.]+$/;
const LETTER = /\p{L}/u;

export type Classification = { translatable: true } | { translatable: false; reason: UntranslatableReason };

export interface ClassifyOptions {
  /** Android: `@string/x` and `?attr/x` are references. */
  references?: boolean;
  /** Try the value as an ICU message first (JSON, ARB, XLIFF). */
  icu?: boolean;
}

export function classify(value: string, options: ClassifyOptions = {}): Classification {
  const text = value.trim();
  if (!text) return { translatable: false, reason: "empty" };
  if (options.references && ANDROID_REFERENCE.test(text)) return { translatable: false, reason: "reference" };
  const words = text.split(/\s+/);
  if (words.every((w) => URL_ONLY.test(w))) return { translatable: false, reason: "url" };
  if (words.every((w) => EMAIL_ONLY.test(w))) return { translatable: false, reason: "email" };
  if (words.every((w) => URL_ONLY.test(w) || EMAIL_ONLY.test(w))) return { translatable: false, reason: "url" };
  const literal = options.icu ? icuLiteralText(text) : undefined;
  let rest = literal ?? text;
  const before = rest;
  rest = stripTags(rest);
  for (const pattern of PLACEHOLDERS) rest = rest.replace(pattern, " ");
  if (LETTER.test(rest)) return { translatable: true };
  const hadPlaceholders = rest !== before || (literal !== undefined && literal !== text);
  return { translatable: false, reason: hadPlaceholders ? "placeholders-only" : "no-letters" };
}

const TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:[^<>"']|"[^"]*"|'[^']*')*)>/g;

/**
 * Removes markup tags. `<None>` in "<None>" is text, not a tag: a capitalised name with no attributes counts as a tag
 * only when the value also closes it.
 */
function stripTags(value: string): string {
  return value.replace(TAG, (tag, slash: string, name: string, rest: string) => {
    const plainWord = slash === "" && rest.trim() === "" && /^[A-Z]/.test(name) && !name.includes(":") && !value.includes(`</${name}>`);
    return plainWord ? tag : " ";
  });
}

/** The literal text of an ICU message (all branches), or undefined when it is not one. */
function icuLiteralText(text: string): string | undefined {
  if (!text.includes("{")) return undefined;
  let ast: MessageFormatElement[];
  try {
    ast = parseIcu(text, { ignoreTag: true });
  } catch {
    return undefined;
  }
  const out: string[] = [];
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.literal) out.push(el.value);
      else if (el.type === TYPE.plural || el.type === TYPE.select) for (const option of Object.values(el.options)) walk(option.value);
    }
  };
  walk(ast);
  return out.join(" ");
}

/** Whether a value is an ICU message with a plural, selectordinal or select argument. */
export function isIcuMessage(text: string): boolean {
  if (!text.includes("{")) return false;
  try {
    const ast = parseIcu(text, { ignoreTag: true });
    const has = (elements: MessageFormatElement[]): boolean =>
      elements.some((el) => el.type === TYPE.plural || el.type === TYPE.select || (el.type === TYPE.tag && has(el.children)));
    return has(ast);
  } catch {
    return false;
  }
}

/**
 * How the masker (lib/localise) is to read an entry, from what the entry holds rather than from the file format alone:
 *  - "html" for markup that only an HTML parser reads right: WebVTT/SRT cue text (`<v Name>`, `<i>`, timestamps) and
 *    an Android value that is one CDATA section;
 *  - "markdown" for a block of Markdown prose;
 *  - "text" for everything else — PO, YAML, .strings, JSON and ARB values, XLIFF and Android values with inline XML —
 *    which masks every placeholder syntax, every markup tag (HTML in a PO or YAML value, XLIFF `<x/>`/`<g>`/`<pc>`,
 *    Android `<xliff:g>`, i18next `<0>`, ICU rich text), character references, escapes, and the structure of an ICU
 *    plural or select in the same value (Angular ICU inside XLIFF included).
 */
export function protectionFormat(entry: Pick<CatalogEntry, "markup">): "text" | "html" | "markdown" {
  return entry.markup === "markdown" ? "markdown" : entry.markup === "html" ? "html" : "text";
}
