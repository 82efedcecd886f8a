import { classify, isIcuMessage } from "../classify";
import { CatalogParseError } from "../errors";
import type { DraftEntry, FormatHandler } from "../handler";
import { applyEdits, type Edit } from "../text";
import type { ExistingTranslation } from "../types";
import { elements, escapeAttribute, fixAmpersands, inner, parseFragment, parseXml, textOf, type XmlElement } from "./xml";

/**
 * XLIFF 1.2 (Angular, Xcode, Okapi) and XLIFF 2.0/2.1 (Symfony, Angular), read with saxes (xml.ts).
 *
 * Entries: each `<trans-unit>` (1.2) or each `<segment>` of a `<unit>` (2.x), in `<group>`s too. Id: the unit id
 * (`unit#2`… for the second and later segments of a 2.x unit; prefixed with the file's `original`/`id` and "/" when
 * the document has several `<file>`s). The source is `<source>`'s content as written, inline elements (`<x/>`,
 * `<g>`, `<ph>`, `<pc>`) and entity spelling included (markup: "xml"). `translate="no"` on the unit (or 2.x
 * segment's unit) marks it untranslatable. Notes: `<note>`s. Angular ICU messages (`{VAR_PLURAL, plural, …}`) are
 * marked `icu`; targetEntries() rewrites their plural categories (inline elements masked while parsing the ICU).
 *
 * Rendering: the translation (checked to be a well-formed fragment; a bare `&` escaped) goes into `<target>`, which
 * is replaced or inserted after `</source>` with the source's indentation; 1.2 targets get `state="translated"`, 2.x
 * segments `state="translated"`. `target-language` (1.2, on each `<file>`) or `trgLang` (2.x, on `<xliff>`) is set.
 * Source hashes: 1.2 `<note from="lugha-source">hash</note>` after the target; 2.x
 * `<note category="lugha-source">hash</note>` in the unit's `<notes>` (created before the first segment when
 * missing; the note of a unit's nth segment, n ≥ 2, has id="lugha-source-n").
 *
 * Not handled: Symfony's `|`-separated plural forms stay one entry (the number of forms is not adapted to the
 * target); 1.2 `<seg-source>` segmentation is not split (the whole target is written); `<alt-trans>` is kept as is.
 */

interface Segment {
  id: string;
  unit: XmlElement;
  /** 1.2: the trans-unit; 2.x: the segment. */
  container: XmlElement;
  source: XmlElement;
  target?: XmlElement;
  segmentIndex: number;
}

interface XliffDoc {
  text: string;
  version: 1 | 2;
  root: XmlElement;
  files: XmlElement[];
  segments: Segment[];
}

function collectUnits(el: XmlElement, name: string, out: XmlElement[]) {
  for (const child of elements(el)) {
    if (child.name === name) out.push(child);
    else if (child.name === "group" || child.name === "body") collectUnits(child, name, out);
  }
}

function structure(content: string): XliffDoc {
  const root = parseXml("xliff", content);
  if (root.name !== "xliff") throw new CatalogParseError("xliff", "the root element is not <xliff>", root.line);
  const versionAttr = root.attributes.get("version")?.value ?? "";
  const ns = root.attributes.get("xmlns")?.value ?? "";
  const version = versionAttr.startsWith("2") || ns.endsWith(":2.0") ? 2 : versionAttr.startsWith("1") || ns.endsWith(":1.2") ? 1 : undefined;
  if (!version) throw new CatalogParseError("xliff", "not XLIFF 1.2 or 2.x", root.line);
  const files = elements(root, "file");
  const doc: XliffDoc = { text: content, version, root, files, segments: [] };
  files.forEach((file, fileIndex) => {
    const prefix = files.length > 1 ? `${file.attributes.get(version === 1 ? "original" : "id")?.value ?? `file${fileIndex + 1}`}/` : "";
    const units: XmlElement[] = [];
    collectUnits(file, version === 1 ? "trans-unit" : "unit", units);
    for (const unit of units) {
      const unitId = unit.attributes.get("id")?.value;
      if (unitId === undefined) throw new CatalogParseError("xliff", "a unit without an id", unit.line);
      const containers = version === 1 ? [unit] : elements(unit, "segment");
      containers.forEach((container, i) => {
        const source = elements(container, "source")[0];
        if (!source) throw new CatalogParseError("xliff", "a unit without <source>", container.line);
        const target = elements(container, "target")[0];
        doc.segments.push({
          id: `${prefix}${unitId}${i > 0 ? `#${i + 1}` : ""}`,
          unit,
          container,
          source,
          ...(target ? { target } : {}),
          segmentIndex: i + 1,
        });
      });
    }
  });
  return doc;
}

const isHashNote = (note: XmlElement) =>
  note.attributes.get("from")?.value === "lugha-source" || note.attributes.get("category")?.value === "lugha-source";

function notesOf(doc: XliffDoc, unit: XmlElement): XmlElement[] {
  return doc.version === 1 ? elements(unit, "note") : elements(unit, "notes").flatMap((n) => elements(n, "note"));
}

/** Blanks XML tags out (same length), for the ICU parser. */
const maskTags = (s: string) => s.replace(/<(?:[^<>"']|"[^"]*"|'[^']*')*>/g, (m) => "_".repeat(m.length));

export const xliff: FormatHandler<XliffDoc> = {
  parse(content) {
    const doc = structure(content);
    const entries: DraftEntry[] = doc.segments.map((seg) => {
      const source = inner(content, seg.source);
      const marked = seg.unit.attributes.get("translate")?.value === "no";
      const text = textOf(seg.source);
      const classified = marked ? ({ translatable: false, reason: "marked" } as const) : classify(text, { icu: true });
      // Inline elements and nothing else (`<x id="INTERPOLATION"/>`): placeholders, not an empty unit.
      const c =
        !classified.translatable && classified.reason === "empty" && source.trim() !== ""
          ? ({ translatable: false, reason: "placeholders-only" } as const)
          : classified;
      const notes = notesOf(doc, seg.unit)
        .filter((n) => !isHashNote(n))
        .map((n) => textOf(n).trim())
        .filter(Boolean);
      return {
        id: seg.id,
        source,
        ...(notes.length ? { notes } : {}),
        translatable: c.translatable,
        ...(c.translatable ? {} : { reason: c.reason }),
        markup: "xml" as const,
        ...(isIcuMessage(maskTags(source)) ? { icu: true as const } : {}),
      };
    });
    const srcLang = doc.version === 1 ? doc.files[0]?.attributes.get("source-language")?.value : doc.root.attributes.get("srcLang")?.value;
    return { entries, doc, ...(srcLang ? { declaredLocale: srcLang } : {}) };
  },

  render(doc, ctx) {
    const edits: Edit[] = [];
    const text = doc.text;
    const hashNotes = new Map<XmlElement, { index: number; hash: string }[]>();
    for (const seg of doc.segments) {
      const t = ctx.translation(seg.id);
      if (t === undefined) continue;
      const fragment = fixAmpersands(t);
      parseFragment("xliff", seg.id, fragment);
      const indent = whitespaceBefore(text, seg.container, seg.source);
      const stateful = doc.version === 1 ? seg.target : seg.container;
      let after = "";
      if (seg.target && !seg.target.selfClosing) {
        edits.push({ start: seg.target.contentStart, end: seg.target.contentEnd, text: fragment });
      } else {
        const open = doc.version === 1 ? `<target state="translated">` : "<target>";
        const element = `${open}${fragment}</target>`;
        if (seg.target) edits.push({ start: seg.target.start, end: seg.target.end, text: element });
        else after = indent + element;
      }
      if (stateful && !(doc.version === 1 && (!seg.target || seg.target.selfClosing)))
        edits.push(setAttribute(text, stateful, "state", "translated"));
      if (ctx.writeSourceHashes) {
        const hash = ctx.hash(seg.id);
        if (doc.version === 1) {
          const existing = notesOf(doc, seg.unit).find(isHashNote);
          if (existing) edits.push({ start: existing.contentStart, end: existing.contentEnd, text: hash });
          else after += `${indent}<note from="lugha-source">${hash}</note>`;
        } else {
          const list = hashNotes.get(seg.unit) ?? [];
          list.push({ index: seg.segmentIndex, hash });
          hashNotes.set(seg.unit, list);
        }
      }
      if (after) {
        const at = seg.target ? seg.target.end : seg.source.end;
        edits.push({ start: at, end: at, text: after });
      }
    }
    for (const [unit, list] of hashNotes) edits.push(...unitHashNotes(text, unit, list));
    if (ctx.setLocale) {
      if (doc.version === 1) for (const file of doc.files) edits.push(setAttribute(text, file, "target-language", ctx.targetTag, "source-language"));
      else edits.push(setAttribute(text, doc.root, "trgLang", ctx.targetTag, "srcLang"));
    }
    return applyEdits(text, edits);
  },

  readExisting(content) {
    const doc = structure(content);
    const out = new Map<string, ExistingTranslation>();
    for (const seg of doc.segments) {
      if (!seg.target) continue;
      const translation = inner(content, seg.target);
      if (!translation.trim()) continue;
      const noteId = seg.segmentIndex > 1 ? `lugha-source-${seg.segmentIndex}` : undefined;
      const note = notesOf(doc, seg.unit).find((n) => isHashNote(n) && n.attributes.get("id")?.value === noteId);
      const hash = note ? textOf(note).trim() : undefined;
      out.set(seg.id, { translation, ...(hash ? { sourceHash: hash } : {}) });
    }
    return out;
  },
};

/** Whitespace between the previous sibling and `child` inside `parent` (the child's indentation). */
function whitespaceBefore(text: string, parent: XmlElement, child: XmlElement): string {
  const i = parent.children.indexOf(child);
  const prev = parent.children[i - 1];
  if (prev?.kind === "text" && prev.value.trim() === "") return text.slice(prev.start, prev.end);
  return "";
}

/** Sets an attribute in a start tag: replaces its value, or adds it (after `after` when that attribute exists). */
function setAttribute(text: string, el: XmlElement, name: string, value: string, after?: string): Edit {
  const existing = el.attributes.get(name);
  if (existing) return { start: existing.valueStart, end: existing.valueEnd, text: escapeAttribute(value) };
  const anchor = after ? el.attributes.get(after) : undefined;
  const at = anchor ? anchor.valueEnd + 1 : text.lastIndexOf(el.selfClosing ? "/>" : ">", el.openEnd - 1);
  const atTagEnd = !anchor && text[at - 1] !== " " && text[at - 1] !== "\n";
  return { start: at, end: at, text: `${anchor || atTagEnd ? " " : ""}${name}="${escapeAttribute(value)}"${anchor || atTagEnd ? "" : " "}` };
}

function unitHashNotes(text: string, unit: XmlElement, list: { index: number; hash: string }[]): Edit[] {
  const edits: Edit[] = [];
  const notesEl = elements(unit, "notes")[0];
  const existing = notesEl ? elements(notesEl, "note").filter(isHashNote) : [];
  const fresh: string[] = [];
  for (const { index, hash } of list) {
    const id = index > 1 ? `lugha-source-${index}` : undefined;
    const note = existing.find((n) => n.attributes.get("id")?.value === id);
    if (note) edits.push({ start: note.contentStart, end: note.contentEnd, text: hash });
    else fresh.push(`<note category="lugha-source"${id ? ` id="${id}"` : ""}>${hash}</note>`);
  }
  if (fresh.length === 0) return edits;
  const firstChild = elements(unit)[0];
  const indent = firstChild ? whitespaceBefore(text, unit, firstChild) : "";
  if (notesEl) {
    const lastNote = elements(notesEl, "note").pop();
    const noteIndent = lastNote ? whitespaceBefore(text, notesEl, lastNote) : indent;
    const at = lastNote ? lastNote.end : notesEl.contentStart;
    edits.push({ start: at, end: at, text: fresh.map((n) => noteIndent + n).join("") });
  } else {
    const segment = elements(unit, "segment")[0] ?? firstChild;
    const notes = indent ? `<notes>${fresh.map((n) => `${indent}  ${n}`).join("")}${indent}</notes>${indent}` : `<notes>${fresh.join("")}</notes>`;
    edits.push({ start: segment.start, end: segment.start, text: notes });
  }
  return edits;
}
