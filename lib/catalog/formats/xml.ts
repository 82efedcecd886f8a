import { SaxesParser } from "saxes";
import { CatalogParseError, CatalogRenderError } from "../errors";
import { MAX_NESTING } from "../limits";
import type { CatalogFormat } from "../types";

/**
 * XML with positions, for Android resources and XLIFF: saxes (the strict, non-validating SAX parser jsdom uses)
 * reports where every tag starts and ends, so that values are replaced in the file as written. fast-xml-parser was
 * tried first: its builder does not give the file back (attribute line breaks, self-closing tags, entity spelling
 * change), and it has no positions to edit the original with.
 *
 * A comment holding "--" (not allowed in XML) is read as Android's tools read it, up to its `-->`.
 *
 * Safety: a DOCTYPE is refused outright, so no entity is ever declared, let alone expanded (billion laughs); saxes
 * knows only the five predefined entities and character references, and fails on any other. Nesting is bounded.
 */

export interface XmlAttribute {
  value: string;
  /** Offsets of the value between its quotes. */
  valueStart: number;
  valueEnd: number;
}

export interface XmlElement {
  kind: "element";
  name: string;
  attributes: Map<string, XmlAttribute>;
  /** Offset of `<`. */
  start: number;
  /** Offset just after the start tag's `>`. */
  openEnd: number;
  /** Inner content: [contentStart, contentEnd); empty for a self-closing element. */
  contentStart: number;
  contentEnd: number;
  /** Offset just after the end tag (or the self-closing tag). */
  end: number;
  selfClosing: boolean;
  children: XmlNode[];
  line: number;
}

export interface XmlLeaf {
  kind: "text" | "comment" | "cdata";
  start: number;
  end: number;
  /** Text and CDATA: the decoded text; comment: its content. */
  value: string;
}

export type XmlNode = XmlElement | XmlLeaf;

interface ParseOptions {
  format: CatalogFormat;
  fragment?: boolean;
  onError: (line: number, column: number) => never;
}

function build(content: string, { fragment, onError }: ParseOptions): XmlElement {
  const parser = new SaxesParser({ position: true, ...(fragment ? { fragment: true } : {}) });
  const root: XmlElement = {
    kind: "element",
    name: "#document",
    attributes: new Map(),
    start: 0,
    openEnd: 0,
    contentStart: 0,
    contentEnd: content.length,
    end: content.length,
    selfClosing: false,
    children: [],
    line: 1,
  };
  const stack: XmlElement[] = [root];
  let last = 0; // end of the last node seen
  let pending: XmlElement | undefined;
  const top = () => stack[stack.length - 1];
  const fail = (): never => onError(parser.line, parser.column + 1);

  // "--" inside a comment is not XML, but it is common in hand-edited resource files (and harmless): saxes reports it
  // and reads on, taking the comment to its `-->`. Every other error stops.
  parser.on("error", (e) => {
    if (!e.message.endsWith("malformed comment.")) fail();
  });
  parser.on("doctype", fail);
  parser.on("opentagstart", (tag) => {
    const start = content.lastIndexOf("<", parser.position - 1);
    pending = {
      kind: "element",
      name: tag.name,
      attributes: new Map(),
      start,
      openEnd: -1,
      contentStart: -1,
      contentEnd: -1,
      end: -1,
      selfClosing: false,
      children: [],
      line: parser.line,
    };
  });
  parser.on("attribute", (attr) => {
    const after = parser.position; // just after the closing quote
    const quote = content[after - 1];
    const valueStart = content.lastIndexOf(quote, after - 2) + 1;
    pending?.attributes.set(attr.name, { value: attr.value, valueStart, valueEnd: after - 1 });
  });
  parser.on("opentag", (tag) => {
    const el = pending!;
    pending = undefined;
    el.openEnd = parser.position;
    el.selfClosing = tag.isSelfClosing;
    el.contentStart = el.openEnd;
    top().children.push(el);
    if (tag.isSelfClosing) {
      el.contentEnd = el.openEnd;
      el.end = el.openEnd;
    } else {
      stack.push(el);
      if (stack.length > MAX_NESTING + 1) fail();
    }
    last = el.openEnd;
  });
  parser.on("closetag", (tag) => {
    if (tag.isSelfClosing) return;
    const el = stack.pop()!;
    el.end = parser.position;
    el.contentEnd = content.lastIndexOf("</", parser.position - 1);
    last = el.end;
  });
  parser.on("text", (text) => {
    // Emitted on the `<` that ends it (or at the end of input).
    const end = parser.position >= content.length && content[content.length - 1] !== "<" ? content.length : parser.position - 1;
    top().children.push({ kind: "text", start: last, end, value: text });
    last = end;
  });
  parser.on("comment", (text) => {
    // Emitted before the closing `>` has been read.
    const start = content.indexOf("<!--", last);
    const end = content.indexOf("-->", start + 4) + 3;
    top().children.push({ kind: "comment", start, end, value: text });
    last = end;
  });
  parser.on("cdata", (text) => {
    const start = content.indexOf("<![CDATA[", last);
    top().children.push({ kind: "cdata", start, end: parser.position, value: text });
    last = parser.position;
  });
  parser.on("processinginstruction", () => {
    last = parser.position;
  });
  parser.write(content).close();
  return root;
}

/** Parses a whole XML document; throws CatalogParseError (never quoting the file). */
export function parseXml(format: CatalogFormat, content: string): XmlElement {
  const root = build(content, {
    format,
    onError: (line, column) => {
      throw new CatalogParseError(format, "not well-formed XML (or a DOCTYPE, which is refused)", line, column);
    },
  });
  const element = root.children.find((c): c is XmlElement => c.kind === "element");
  if (!element) throw new CatalogParseError(format, "no root element", 1, 1);
  return element;
}

/** Parses a translation as an XML fragment (text and inline elements); throws CatalogRenderError. */
export function parseFragment(format: CatalogFormat, id: string, fragment: string): XmlNode[] {
  const root = build(fragment, {
    format,
    fragment: true,
    onError: () => {
      throw new CatalogRenderError(format, id, "the translation is not a well-formed XML fragment");
    },
  });
  return root.children;
}

export const elements = (el: XmlElement, name?: string): XmlElement[] =>
  el.children.filter((c): c is XmlElement => c.kind === "element" && (name === undefined || c.name === name));

export const inner = (content: string, el: XmlElement) => content.slice(el.contentStart, el.contentEnd);

/** Text of an element without its markup (character references decoded, CDATA included). */
export function textOf(el: XmlElement): string {
  return el.children.map((c) => (c.kind === "element" ? textOf(c) : c.kind === "comment" ? "" : c.value)).join("");
}

export const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
export const escapeAttribute = (s: string) => escapeText(s).replace(/"/g, "&quot;");

/** A bare `&` that starts no character reference becomes `&amp;` (machine translation writes "&" for "and"). */
export const fixAmpersands = (s: string) => s.replace(/&(?!(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);)/g, "&amp;");
