import { type MessageFormatElement, parse as parseIcu, TYPE } from "@formatjs/icu-messageformat-parser";
import type { Nodes, Parents } from "mdast";
import type { DefaultTreeAdapterTypes } from "parse5";
import { maskFragment, type TermOptions } from "./fragment";
import { type FoundToken, findTokens, type Restorer, separateTokens, TokenTable } from "./tokens";

/**
 * Localisation-safe translation: what a model must not change is masked before the call and restored after it.
 *
 *   const p = await protect("Hello {name}, <b>pay</b> now", { format: "html" });
 *   p.segments                     → ["Hello QZAX, QZBXpayQZCX now"]   (what the provider translates)
 *   p.restore(["Wasuze otya QZAX, QZBXsasula QZCX kati"])   → { ok: true, text: "Wasuze otya {name}, <b>sasula</b> kati" }
 *
 * Formats:
 *  - text: placeholders and markup tags (fragment.ts: HTML, XLIFF inline elements, i18next `<0>`, ICU rich text) and
 *    ICU MessageFormat. An ICU plural or select keeps its structure and the source's categories, tags inside it
 *    included; each branch's message is its own segment, translated on its own.
 *  - html (parse5): only text nodes and the attributes in TRANSLATED_ATTRIBUTES are translated. Tags, other attributes,
 *    comments, character references and the content of code-like elements come back unchanged and in place. Malformed
 *    HTML is not repaired: what the parser could not read as text stays as it was written.
 *  - markdown (CommonMark, mdast): only text is translated; syntax, code spans and blocks, URLs, HTML and images come
 *    back unchanged.
 * Do-not-translate and glossary terms are masked in every format (fragment.ts).
 *
 * Every segment keeps its tokens words of their own (tokens.ts separateTokens): a provider never sees `QZAXcartQZBX`;
 * restore() gives back the source's spacing around each token.
 *
 * restore() verifies every segment first: each token comes back exactly once (tokens may move: word order differs
 * between languages), no unknown token appears, and markup that opens and closes still nests. A translation that fails
 * this is never patched up: the caller treats it as that provider's failure.
 */
export type LocaliseFormat = "text" | "html" | "markdown";

/**
 * Identifies what protect() masks and how (placeholder forms, tokens, formats). Part of every translation cache key:
 * bump it whenever a change would send a provider other masked text for the same request.
 */
export const PROTECTION_VERSION = "2";

export { packTexts, SEPARATOR_BASE, separatorLength, unpackTexts } from "./pack";
export { hasTextOutsideTokens } from "./tokens";

export interface ProtectOptions extends TermOptions {
  format: LocaliseFormat;
}

export type Restored = { ok: true; text: string; glossaryTermsApplied: string[] } | { ok: false; problem: string };

export interface Protected {
  /** The texts to translate, in order; tokens stand where nothing may change. */
  segments: string[];
  restore(translated: readonly string[]): Restored;
}

/** The request cannot be protected as asked (an ICU message that does not parse). */
export class LocaliseInputError extends Error {}

export const TRANSLATED_ATTRIBUTES = new Set(["alt", "title", "placeholder", "aria-label", "aria-description"]);
const UNTRANSLATED_ELEMENTS = new Set(["script", "style", "code", "pre", "kbd", "samp", "var", "template", "textarea", "svg", "math"]);

class VerificationError extends Error {}

export async function protect(input: string, options: ProtectOptions): Promise<Protected> {
  const table = new TokenTable();
  const segments: string[] = [];
  const newSegment = (masked: string) => segments.push(separateTokens(masked, table)) - 1;
  const terms: TermOptions = { doNotTranslate: options.doNotTranslate, glossary: options.glossary };

  // Surrounding whitespace is kept as sent; models trim it.
  const lead = /^\s*/.exec(input)?.[0] ?? "";
  const trail = input.length > lead.length ? (/\s*$/.exec(input)?.[0] ?? "") : "";
  const body = input.slice(lead.length, input.length - trail.length);

  const main = newSegment(""); // index 0, filled below (child segments of ICU and attributes come after it)
  const ctx: Context = { table, terms, newSegment };
  segments[main] = separateTokens(
    options.format === "html" ? await maskHtml(body, ctx) : options.format === "markdown" ? await maskMarkdown(body, ctx) : maskText(body, ctx),
    table,
  );
  const icu = options.format === "text" && ctx.icu === true;

  return {
    segments,
    restore(translated) {
      if (translated.length !== segments.length) return { ok: false, problem: `expected ${segments.length} translations, got ${translated.length}` };
      const applied: string[] = [];
      try {
        const expand: Restorer = (out) => expandSegment(main, out);
        const expandSegment = (index: number, out: readonly string[]): string => restoreSegment(segments[index], out[index], table, out, applied);
        ctx.expand = expandSegment;
        const text = lead + expand(translated) + trail;
        if (icu) {
          try {
            parseIcu(blankTags(text), { ignoreTag: true });
          } catch {
            throw new VerificationError("the translation broke the ICU message syntax");
          }
        }
        return { ok: true, text, glossaryTermsApplied: [...new Set(applied)] };
      } catch (err) {
        if (err instanceof VerificationError) return { ok: false, problem: err.message };
        throw err;
      }
    },
  };
}

interface Context {
  table: TokenTable;
  terms: TermOptions;
  newSegment(masked: string): number;
  /** Set by restore(): the restored text of a segment. */
  expand?: (index: number, translated: readonly string[]) => string;
  /** The text held ICU plural/select structure. */
  icu?: boolean;
}

/** Checks one translated segment against its masked source, then puts back what each token stands for. */
function restoreSegment(masked: string, translated: string, table: TokenTable, all: readonly string[], applied: string[]): string {
  const expected = findTokens(masked, table).found;
  const { found, unknown } = findTokens(translated, table);
  // The token itself is not quoted: error messages carry no upstream text.
  if (unknown.length) throw new VerificationError("the translation contains a token that was not sent (a mangled or invented one)");
  const counts = new Map<string, number>();
  for (const f of found) counts.set(f.entry.token, (counts.get(f.entry.token) ?? 0) + 1);
  for (const e of expected) {
    const n = counts.get(e.entry.token) ?? 0;
    if (n === 0) throw new VerificationError("the translation lost a protected part (placeholder, markup or term)");
    if (n > 1) throw new VerificationError("the translation repeated a protected part (placeholder, markup or term)");
  }
  if (found.length !== expected.length) throw new VerificationError("the translation has a protected part from another segment");
  const open: number[] = [];
  for (const f of found) {
    const pair = f.entry.pair;
    if (pair?.role === "open") open.push(pair.id);
    else if (pair?.role === "close" && open.pop() !== pair.id) throw new VerificationError("the translation moved markup out of its nesting");
  }

  // The source's spacing around each token: a space added to keep a token a word of its own is taken out again, and
  // where the source had none between a tag and the text it encloses, none is added back (`** bold**` is not bold).
  const stripBefore = (f: FoundToken) => {
    const s = f.entry.spacing;
    return s !== undefined && (s.paddedBefore || (f.entry.pair?.role === "close" && s.tightBefore));
  };
  const stripAfter = (f: FoundToken) => {
    const s = f.entry.spacing;
    return s !== undefined && (s.paddedAfter || (f.entry.pair?.role === "open" && s.tightAfter));
  };
  let out = "";
  let last = 0;
  let previous: FoundToken | undefined;
  for (const f of found) {
    let between = translated.slice(last, f.index);
    if (previous && stripAfter(previous)) between = between.replace(/^\s+/, "");
    if (stripBefore(f)) between = between.replace(/\s+$/, "");
    out += between + f.entry.restore(all);
    if (f.entry.glossaryTerm) applied.push(f.entry.glossaryTerm);
    last = f.index + f.length;
    previous = f;
  }
  let rest = translated.slice(last);
  if (previous && stripAfter(previous)) rest = rest.replace(/^\s+/, "");
  return out + rest;
}

// ------------------------------------------------------------------------------------------------------------- text

function maskText(text: string, ctx: Context): string {
  // Markup is blanked out for the ICU parser (an XLIFF placeholder's attributes may hold braces); literal text is
  // then taken from the source itself, tags and all, and masked like any text.
  const blanked = blankTags(text);
  if (!/\{[^{}]*,\s*(plural|select|selectordinal)\s*,/.test(blanked)) return maskFragment(text, ctx.table, ctx.terms);
  let elements: MessageFormatElement[];
  try {
    elements = parseIcu(blanked, { captureLocation: true, ignoreTag: true });
  } catch (err) {
    throw new LocaliseInputError(`The text looks like an ICU MessageFormat message but does not parse (${(err as Error).message}).`);
  }
  ctx.icu = true;
  return maskIcu(elements, text, ctx);
}

/** Tags replaced by filler of the same length, so that offsets into the result are offsets into the text. */
const blankTags = (s: string) => s.replace(/<\/?[A-Za-z\d][^<>]*>/g, (m) => "_".repeat(m.length));

function maskIcu(elements: MessageFormatElement[], source: string, ctx: Context): string {
  let out = "";
  for (const el of elements) {
    const loc = el.location!;
    if (el.type === TYPE.literal) out += maskFragment(source.slice(loc.start.offset, loc.end.offset), ctx.table, ctx.terms);
    else if (el.type === TYPE.pound) out += ctx.table.add("#");
    else if (el.type === TYPE.plural || el.type === TYPE.select) {
      const kind = el.type === TYPE.select ? "select" : el.pluralType === "ordinal" ? "selectordinal" : "plural";
      const offset = el.type === TYPE.plural && el.offset ? ` offset:${el.offset}` : "";
      const branches = Object.entries(el.options).map(([selector, option]) => ({
        selector,
        segment: ctx.newSegment(maskIcu(option.value, source, ctx)),
      }));
      out += ctx.table.add(
        (all) => `{${el.value}, ${kind},${offset} ${branches.map((b) => `${b.selector} {${ctx.expand!(b.segment, all)}}`).join(" ")}}`,
      );
    } else {
      // Arguments, formatted arguments and tags: as written.
      out += ctx.table.add(source.slice(loc.start.offset, loc.end.offset));
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------------- html and markdown

/** A range of the source: human text to translate, or markup kept as written (opening/closing pairs must nest). */
type Piece = { start: number; end: number; restore?: Restorer } & ({ kind: "text" } | { kind: "open" | "close"; pair: number } | { kind: "keep" });

/** Masks the source: text pieces through the fragment masker, every other character into tokens. */
function maskPieces(source: string, pieces: Piece[], ctx: Context): string {
  pieces.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  const keep = (from: number, to: number) => {
    if (to > from) out += ctx.table.add(source.slice(from, to));
  };
  for (const p of pieces) {
    if (p.start < at) continue; // inside a range already kept whole
    keep(at, p.start);
    const raw = source.slice(p.start, p.end);
    if (p.kind === "text") out += maskFragment(raw, ctx.table, ctx.terms);
    else if (p.kind === "keep") out += ctx.table.add(p.restore ?? raw);
    else out += ctx.table.add(p.restore ?? raw, { pair: { id: p.pair, role: p.kind } });
    at = p.end;
  }
  keep(at, source.length);
  return out;
}

type HtmlNode = DefaultTreeAdapterTypes.ChildNode;

// The HTML and Markdown parsers are imported on first use: they are large, plain text (most requests) never needs them,
// and loading them with the translate routes lengthened every cold start.
async function maskHtml(source: string, ctx: Context): Promise<string> {
  const { parseFragment } = await import("parse5");
  const fragment = parseFragment(source, { sourceCodeLocationInfo: true });
  const pieces: Piece[] = [];
  const visit = (node: HtmlNode) => {
    const loc = node.sourceCodeLocation;
    if (!loc) return;
    if (node.nodeName === "#text") {
      pieces.push({ kind: "text", start: loc.startOffset, end: loc.endOffset });
      return;
    }
    if (!("tagName" in node)) return; // comments, doctype: kept by the gap filler
    const element = node as DefaultTreeAdapterTypes.Element;
    const elementLoc = element.sourceCodeLocation!;
    if (UNTRANSLATED_ELEMENTS.has(element.tagName)) {
      pieces.push({ kind: "keep", start: elementLoc.startOffset, end: elementLoc.endOffset });
      return;
    }
    const startTag = elementLoc.startTag;
    const endTag = elementLoc.endTag;
    const pair = startTag && endTag ? ctx.table.newPair() : undefined;
    if (startTag) {
      const restore = translatedAttributes(source, element, ctx);
      const range = { start: startTag.startOffset, end: startTag.endOffset, restore };
      pieces.push(pair === undefined ? { kind: "keep", ...range } : { kind: "open", pair, ...range });
    }
    const children = "content" in element ? (element as DefaultTreeAdapterTypes.Template).content.childNodes : element.childNodes;
    for (const child of children) visit(child);
    if (endTag && pair !== undefined) pieces.push({ kind: "close", pair, start: endTag.startOffset, end: endTag.endOffset });
  };
  for (const node of fragment.childNodes) visit(node);
  return maskPieces(source, pieces, ctx);
}

/** A start tag whose alt/title/… are translated: each value is a segment of its own, put back escaped. */
function translatedAttributes(source: string, element: DefaultTreeAdapterTypes.Element, ctx: Context): Restorer | undefined {
  const location = element.sourceCodeLocation!;
  const startTag = location.startTag!;
  const targets = element.attrs
    .filter((a) => TRANSLATED_ATTRIBUTES.has(a.name) && a.value.trim())
    .map((a) => ({ loc: location.attrs?.[a.name], value: a.value }))
    .filter((a) => a.loc);
  if (targets.length === 0) return undefined;
  const parts = targets.map((t) => ({ ...t, segment: ctx.newSegment(maskFragment(t.value, ctx.table, ctx.terms)) }));
  return (all) => {
    let out = "";
    let at = startTag.startOffset;
    for (const p of parts) {
      const [from, to] = [p.loc!.startOffset, p.loc!.endOffset];
      const name = source.slice(from, to).split("=")[0].trim();
      const value = ctx.expand!(p.segment, all).replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
      out += `${source.slice(at, from)}${name}="${value}"`;
      at = to;
    }
    return out + source.slice(at, startTag.endOffset);
  };
}

async function maskMarkdown(source: string, ctx: Context): Promise<string> {
  const { fromMarkdown } = await import("mdast-util-from-markdown");
  const tree = fromMarkdown(source);
  const pieces: Piece[] = [];
  const offsets = (node: Nodes) => [node.position?.start.offset ?? 0, node.position?.end.offset ?? 0] as const;
  const visit = (node: Nodes) => {
    const [start, end] = offsets(node);
    if (node.type === "text") {
      pieces.push({ kind: "text", start, end });
      return;
    }
    if (!("children" in node) || node.children.length === 0) return; // code, inline code, html, images: kept whole
    if (node.type === "link" && source[start] === "<") return; // an autolink: its text is the URL
    const children = (node as Parents).children;
    const inline =
      node.type === "emphasis" || node.type === "strong" || node.type === "delete" || node.type === "link" || node.type === "linkReference";
    if (inline) {
      const pair = ctx.table.newPair();
      const [firstStart] = offsets(children[0]);
      const [, lastEnd] = offsets(children[children.length - 1]);
      pieces.push({ kind: "open", pair, start, end: firstStart }, { kind: "close", pair, start: lastEnd, end });
    }
    for (const child of children) visit(child);
  };
  visit(tree);
  return maskPieces(source, pieces, ctx);
}
