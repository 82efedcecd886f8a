import { classify } from "../classify";
import { CatalogParseError } from "../errors";
import type { DraftEntry, FormatHandler, PluralGroup, RenderContext } from "../handler";
import { applyEdits, type Edit } from "../text";
import { PLURAL_CATEGORIES, type PluralCategory } from "../types";
import { elements, fixAmpersands, parseFragment, parseXml, type XmlElement, type XmlNode } from "./xml";

/**
 * Android string resources (res/values/strings.xml), read with saxes (xml.ts).
 *
 * Entries: `<string name>` (id: the name; with a `product` attribute: `name@product`), each `<item>` of `<plurals>`
 * (`name#one`…) and of `<string-array>` / `<array>` (`name[0]`…). `translatable="false"` (on the element or its
 * parent) makes an entry untranslatable with reason "marked"; resource references (`@string/x`) are kept too. The
 * comment right before an element (or plural item) becomes its note.
 *
 * The source is the value with Android's escapes resolved — `\'` `\"` `\\` `\n` `\t` `\@` `\?` `\uXXXX`, quotes
 * (`"…"`) removed, whitespace outside quotes collapsed — and inline markup (`<xliff:g>`, `<b>`) kept as XML
 * (markup: "xml"). A value that is one CDATA section is given as its content (markup: "html") and written back as
 * CDATA. A translation is checked to be a well-formed fragment, then escaped back: `'` `"` `\` always, a line break
 * as `\n`, a leading `@` or `?`, characters the source wrote as `\uXXXX` written so again; it is wrapped in quotes
 * when the source value was, or when it has whitespace Android would otherwise collapse.
 *
 * Plurals: the target file gets an `<item>` per target category (new ones inserted in CLDR order with the
 * indentation of their neighbours; items of categories the target lacks removed, with the comment before them).
 */

interface Value {
  id: string;
  source: string;
  element: XmlElement;
  quoted: boolean;
  cdata: boolean;
  unicodeEscaped: Set<string>;
}

interface PluralsGroup {
  id: string;
  element: XmlElement;
  items: Map<PluralCategory, XmlElement>;
}

interface AndroidDoc {
  text: string;
  values: Map<string, Value>;
  plurals: PluralsGroup[];
}

/** Android's reading of a value: escapes resolved, quotes removed, whitespace outside quotes collapsed. */
function decode(content: string, el: XmlElement): { text: string; quoted: boolean; cdata: boolean; unicodeEscaped: Set<string> } {
  const nodes = el.children;
  const unicodeEscaped = new Set<string>();
  if (nodes.length === 1 && nodes[0].kind === "cdata") return { text: nodes[0].value, quoted: false, cdata: true, unicodeEscaped };
  const raw = content.slice(el.contentStart, el.contentEnd).trim();
  const quoted = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') && !raw.endsWith('\\"');
  let inQuotes = false;
  let out = "";
  const text = (s: string) => {
    for (let i = 0; i < s.length; i++) {
      const ch = s[i];
      if (ch === "\\" && i + 1 < s.length) {
        const next = s[++i];
        if (next === "n") out += "\n";
        else if (next === "t") out += "\t";
        else if (next === "u" && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 1, i + 5))) {
          const decoded = String.fromCharCode(Number.parseInt(s.slice(i + 1, i + 5), 16));
          unicodeEscaped.add(decoded);
          out += decoded;
          i += 4;
        } else out += next;
      } else if (ch === '"') inQuotes = !inQuotes;
      else if (!inQuotes && /\s/.test(ch)) {
        if (!out.endsWith(" ")) out += " ";
      } else out += ch;
    }
  };
  const walk = (list: XmlNode[]) => {
    for (const node of list) {
      if (node.kind === "text") text(content.slice(node.start, node.end));
      else if (node.kind === "element") {
        out += content.slice(node.start, node.contentStart);
        walk(node.children);
        out += content.slice(node.contentEnd, node.end);
      } else out += content.slice(node.start, node.end);
    }
  };
  walk(nodes);
  // Unicode-escaped surrogate pairs (\uD83E\uDDD8) are recorded by their halves.
  return { text: out.trim(), quoted, cdata: false, unicodeEscaped };
}

/** Android escaping of a translation (an XML fragment), the inverse of decode(). */
function encode(ctx: RenderContext, id: string, translation: string, value: Value): string {
  if (value.cdata) return `<![CDATA[${translation.replace(/\]\]>/g, "]]]]><![CDATA[>")}]]>`;
  const fragment = fixAmpersands(translation).replace(/<(?![A-Za-z_/!?])/g, "&lt;");
  const nodes = parseFragment(ctx.format, id, fragment);
  let first = true;
  const escapeText = (s: string) => {
    let out = "";
    for (const ch of s) {
      if (ch === "\\") out += "\\\\";
      else if (ch === "'") out += "\\'";
      else if (ch === '"') out += '\\"';
      else if (ch === "\n") out += "\\n";
      else if (ch === "\t") out += "\\t";
      else if (first && (ch === "@" || ch === "?")) out += `\\${ch}`;
      else if (value.unicodeEscaped.has(ch)) out += `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
      else out += ch;
      first = false;
    }
    return out;
  };
  const walk = (list: XmlNode[]): string =>
    list
      .map((node) => {
        if (node.kind === "text") return escapeText(fragment.slice(node.start, node.end));
        first = false;
        if (node.kind === "element")
          return fragment.slice(node.start, node.contentStart) + walk(node.children) + fragment.slice(node.contentEnd, node.end);
        return fragment.slice(node.start, node.end);
      })
      .join("");
  const body = walk(nodes);
  const needsQuotes = value.quoted || /^\s|\s$|\s\s/.test(translation);
  return needsQuotes ? `"${body}"` : body;
}

function noteBefore(parent: XmlElement, el: XmlElement): string[] | undefined {
  const i = parent.children.indexOf(el);
  for (let j = i - 1; j >= 0; j--) {
    const node = parent.children[j];
    if (node.kind === "text" && node.value.trim() === "") continue;
    if (node.kind === "comment") {
      const note = node.value.trim().replace(/\s*\n\s*/g, " ");
      return note ? [note] : undefined;
    }
    return undefined;
  }
  return undefined;
}

export const android: FormatHandler<AndroidDoc> = {
  parse(content) {
    const root = parseXml("android", content);
    if (root.name !== "resources") throw new CatalogParseError("android", "the root element is not <resources>", root.line);
    const doc: AndroidDoc = { text: content, values: new Map(), plurals: [] };
    const entries: DraftEntry[] = [];
    const groups: PluralGroup[] = [];

    const add = (id: string, el: XmlElement, marked: boolean, notes: string[] | undefined, plural?: { group: string; category: PluralCategory }) => {
      const d = decode(content, el);
      const c = marked ? ({ translatable: false, reason: "marked" } as const) : classify(d.text, { references: true });
      doc.values.set(id, { id, source: d.text, element: el, quoted: d.quoted, cdata: d.cdata, unicodeEscaped: d.unicodeEscaped });
      entries.push({
        id,
        source: d.text,
        ...(notes ? { notes } : {}),
        ...(plural ? { plural } : {}),
        translatable: c.translatable,
        ...(c.translatable ? {} : { reason: c.reason }),
        ...(d.cdata ? { markup: "html" as const } : el.children.some((n) => n.kind === "element") ? { markup: "xml" as const } : {}),
      });
    };

    for (const el of elements(root)) {
      const name = el.attributes.get("name")?.value;
      if (!["string", "plurals", "string-array", "array"].includes(el.name)) continue;
      if (!name) throw new CatalogParseError("android", `a <${el.name}> without a name`, el.line);
      const product = el.attributes.get("product")?.value;
      const base = product ? `${name}@${product}` : name;
      const marked = el.attributes.get("translatable")?.value === "false";
      const notes = noteBefore(root, el);
      if (el.name === "string") add(base, el, marked, notes);
      else if (el.name === "plurals") {
        const items = new Map<PluralCategory, XmlElement>();
        for (const item of elements(el, "item")) {
          const q = item.attributes.get("quantity")?.value as PluralCategory | undefined;
          if (!q || !PLURAL_CATEGORIES.includes(q) || items.has(q))
            throw new CatalogParseError("android", "a plural <item> without a valid, unique quantity", item.line);
          items.set(q, item);
        }
        if (!items.has("other")) throw new CatalogParseError("android", "a <plurals> without an `other` item", el.line);
        doc.plurals.push({ id: base, element: el, items });
        groups.push({
          id: base,
          forms: [...items.keys()].map((category) => ({ category, entryId: `${base}#${category}` })),
          idFor: (c) => `${base}#${c}`,
        });
        for (const [category, item] of items) add(`${base}#${category}`, item, marked, noteBefore(el, item) ?? notes, { group: base, category });
      } else {
        elements(el, "item").forEach((item, i) => {
          add(`${base}[${i}]`, item, marked || item.attributes.get("translatable")?.value === "false", noteBefore(el, item) ?? notes);
        });
      }
    }
    return { entries, doc, groups };
  },

  render(doc, ctx) {
    const edits: Edit[] = [];
    const inGroup = new Set<string>();
    for (const group of doc.plurals) {
      for (const category of group.items.keys()) inGroup.add(`${group.id}#${category}`);
      const forms = ctx.groupForms(group.id);
      if (forms) edits.push(...pluralEdits(doc, group, forms, ctx));
    }
    for (const [id, value] of doc.values) {
      if (inGroup.has(id)) continue;
      const t = ctx.translation(id);
      if (t === undefined) continue;
      edits.push({ start: value.element.contentStart, end: value.element.contentEnd, text: encode(ctx, id, t, value) });
    }
    return applyEdits(doc.text, edits);
  },
};

function pluralEdits(
  doc: AndroidDoc,
  group: PluralsGroup,
  forms: { category: PluralCategory; text: string; translated: boolean }[],
  ctx: RenderContext,
): Edit[] {
  const edits: Edit[] = [];
  const text = doc.text;
  const wanted = new Map(forms.map((f) => [f.category, f]));
  const children = group.element.children;
  const leadingSpace = (item: XmlElement) => {
    const prev = children[children.indexOf(item) - 1];
    return prev?.kind === "text" && prev.value.trim() === "" ? text.slice(prev.start, prev.end) : "";
  };
  for (const [category, item] of group.items) {
    const form = wanted.get(category);
    const value = doc.values.get(`${group.id}#${category}`)!;
    if (form) {
      if (form.text !== value.source) edits.push({ start: item.contentStart, end: item.contentEnd, text: encode(ctx, value.id, form.text, value) });
      continue;
    }
    // Removed with the whitespace and the comment(s) right before it.
    let start = item.start;
    for (let j = children.indexOf(item) - 1; j >= 0; j--) {
      const node = children[j];
      if (node.kind === "text" && node.value.trim() === "") start = node.start;
      else if (node.kind === "comment") start = node.start;
      else break;
    }
    edits.push({ start, end: item.end, text: "" });
  }
  const rank = (c: PluralCategory) => PLURAL_CATEGORIES.indexOf(c);
  const kept = [...group.items].filter(([c]) => wanted.has(c));
  for (const form of forms) {
    if (group.items.has(form.category)) continue;
    const template = doc.values.get(`${group.id}#other`)!;
    const element = `<item quantity="${form.category}">${encode(ctx, `${group.id}#${form.category}`, form.text, template)}</item>`;
    const before = kept.find(([c]) => rank(c) > rank(form.category))?.[1];
    if (before) {
      // Before its successor, after that one's leading comment(s).
      let at = before.start;
      for (let j = children.indexOf(before) - 1; j >= 0; j--) {
        const node = children[j];
        if (node.kind === "comment") at = node.start;
        else if (!(node.kind === "text" && node.value.trim() === "")) break;
      }
      const space = leadingSpace(before) || " ";
      edits.push({ start: at, end: at, text: element + space });
    } else {
      const last = kept[kept.length - 1][1];
      edits.push({ start: last.end, end: last.end, text: (leadingSpace(last) || " ") + element });
    }
  }
  return edits;
}
