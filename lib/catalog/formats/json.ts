import { createScanner, type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { classify, isIcuMessage } from "../classify";
import { CatalogParseError } from "../errors";
import type { DraftEntry, FormatHandler, PluralGroup } from "../handler";
import { MAX_NESTING } from "../limits";
import { applyEdits, type Edit, indentAt, lineColumn } from "../text";
import type { CatalogFormat, ExistingTranslation, PluralCategory } from "../types";
import { PLURAL_CATEGORIES } from "../types";

/**
 * JSON catalogs (i18next, react-intl/FormatJS, flat or nested) and Flutter ARB, read with jsonc-parser (Microsoft's
 * JSON scanner and parser, used by VS Code), which gives every node's offset: values are replaced in place and
 * everything else stays as written.
 *
 * JSON: every string leaf is an entry; its id is the JSON Pointer of the value (`/access-control/add-permission`,
 * `/components.Foo.bar` for a flat key with dots, `/list/0` in an array). Numbers, booleans and null are kept.
 * i18next plural keys (`key_one`, `key_other`, `key_ordinal_one`…, with a `_other` form) form a plural group; the
 * target file gets the target language's categories (`key_few` added, `key_one` dropped…; `key_zero` is kept where
 * the source has it, since i18next uses it for a count of 0 in any language). ICU messages are values like any other;
 * targetEntries() rewrites their plural arguments.
 *
 * ARB: every top-level string whose key does not start with `@` is an entry (id: the key). `@key` metadata stays;
 * its `description` becomes the entry's note; `@@locale` is set to the target (added first if missing); a translated
 * entry's source hash is written as `x-lugha-source` in its `@key` object (which is added if missing).
 */

// jsonc-parser's SyntaxKind is a const enum, which isolatedModules cannot read: its values, as declared.
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const END_OF_FILE = 17;

const keyOf = (property: Node) => property.children?.[0]?.value as string;
const valueNode = (property: Node | undefined): Node | undefined => property?.children?.[1];

const escapePointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

interface JsonDoc {
  text: string;
  /** Value node of every string entry. */
  values: Map<string, Node>;
  groups: { group: PluralGroup; members: Map<PluralCategory, Node>; properties: Node[]; base: string; ordinal: boolean }[];
  /** ARB: the top-level properties by key. */
  top?: Map<string, Node>;
  root: Node;
}

function parseJson(format: CatalogFormat, content: string): Node {
  // A BOM is blanked out rather than cut, so that offsets stay those of the file.
  const text = content.startsWith("\uFEFF") ? ` ${content.slice(1)}` : content;
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let kind: number = scanner.scan(); kind !== END_OF_FILE; kind = scanner.scan()) {
    if (kind === OPEN_BRACE || kind === OPEN_BRACKET) {
      if (++depth > MAX_NESTING) throw new CatalogParseError(format, `nested deeper than ${MAX_NESTING} levels`, scanner.getTokenStartLine() + 1);
    } else if (kind === CLOSE_BRACE || kind === CLOSE_BRACKET) depth--;
  }
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0) {
    const { line, column } = lineColumn(text, errors[0].offset);
    throw new CatalogParseError(format, `invalid JSON (${printParseErrorCode(errors[0].error)})`, line, column);
  }
  if (root?.type !== "object") throw new CatalogParseError(format, "the top level is not a JSON object", 1, 1);
  return root;
}

function checkDuplicates(format: CatalogFormat, text: string, object: Node) {
  const seen = new Set<string>();
  for (const property of object.children ?? []) {
    const key = property.children![0].value as string;
    if (seen.has(key)) {
      const { line, column } = lineColumn(text, property.offset);
      throw new CatalogParseError(format, "duplicate key", line, column);
    }
    seen.add(key);
  }
}

const CARDINAL = /^(.+)_(zero|one|two|few|many|other)$/s;
const ORDINAL = /^(.+)_ordinal_(zero|one|two|few|many|other)$/s;

export const json: FormatHandler<JsonDoc> = {
  parse(content) {
    const root = parseJson("json", content);
    const doc: JsonDoc = { text: content, values: new Map(), groups: [], root };
    const entries: DraftEntry[] = [];
    const groupOf = new Map<string, { groupId: string; category: PluralCategory; ordinal: boolean }>();

    const visit = (node: Node, pointer: string) => {
      if (node.type === "object") {
        checkDuplicates("json", content, node);
        const props = node.children ?? [];
        const strings = new Map<string, Node>();
        for (const p of props) if (p.children![1].type === "string") strings.set(p.children![0].value as string, p);
        // i18next plural groups among this object's string values
        const bases = new Map<string, { ordinal: boolean; members: Map<PluralCategory, Node> }>();
        for (const key of strings.keys()) {
          const m = ORDINAL.exec(key) ?? CARDINAL.exec(key);
          if (!m) continue;
          const ordinal = m[0] === ORDINAL.exec(key)?.[0];
          const base = m[1];
          const groupKey = `${ordinal ? "o" : "c"}:${base}`;
          if (!strings.has(ordinal ? `${base}_ordinal_other` : `${base}_other`)) continue;
          const g = bases.get(groupKey) ?? { ordinal, members: new Map() };
          g.members.set(m[2] as PluralCategory, strings.get(key)!);
          bases.set(groupKey, g);
        }
        for (const [groupKey, g] of bases) {
          const base = groupKey.slice(2);
          const groupId = `${pointer}/${escapePointer(g.ordinal ? `${base}_ordinal` : base)}`;
          const keyFor = (c: PluralCategory) => (g.ordinal ? `${base}_ordinal_${c}` : `${base}_${c}`);
          const group: PluralGroup = {
            id: groupId,
            ...(g.ordinal ? { ordinal: true } : {}),
            forms: [...g.members.keys()].map((category) => ({ category, entryId: `${pointer}/${escapePointer(keyFor(category))}` })),
            idFor: (c) => `${pointer}/${escapePointer(keyFor(c))}`,
            keepZero: true,
          };
          doc.groups.push({ group, members: g.members, properties: props, base, ordinal: g.ordinal });
          for (const [category] of g.members) groupOf.set(`${pointer}/${escapePointer(keyFor(category))}`, { groupId, category, ordinal: g.ordinal });
        }
        for (const p of props) visit(p.children![1], `${pointer}/${escapePointer(p.children![0].value as string)}`);
      } else if (node.type === "array") {
        (node.children ?? []).forEach((child, i) => {
          visit(child, `${pointer}/${i}`);
        });
      } else if (node.type === "string") {
        const source = node.value as string;
        const c = classify(source, { icu: true });
        const plural = groupOf.get(pointer);
        doc.values.set(pointer, node);
        entries.push({
          id: pointer,
          source,
          ...(plural ? { plural: { group: plural.groupId, category: plural.category, ...(plural.ordinal ? { ordinal: true as const } : {}) } } : {}),
          translatable: c.translatable,
          ...(c.translatable ? {} : { reason: c.reason }),
          ...(isIcuMessage(source) ? { icu: true as const } : {}),
        });
      }
    };
    visit(root, "");
    return { entries, doc, groups: doc.groups.map((g) => g.group) };
  },

  render(doc, ctx) {
    const edits: Edit[] = [];
    const inGroup = new Set<string>();
    for (const g of doc.groups) {
      for (const f of g.group.forms) inGroup.add(f.entryId);
      const forms = ctx.groupForms(g.group.id);
      if (forms) edits.push(...groupEdits(doc.text, g, forms));
    }
    for (const [id, node] of doc.values) {
      if (inGroup.has(id)) continue;
      const t = ctx.translation(id);
      if (t !== undefined) edits.push({ start: node.offset, end: node.offset + node.length, text: JSON.stringify(t) });
    }
    return applyEdits(doc.text, edits);
  },
};

/** Separator between two properties of an object, and between a key and its value, as the file writes them. */
function layout(text: string, properties: Node[], around: Node): { between: string; colon: string } {
  const i = properties.indexOf(around);
  const between =
    i > 0
      ? text.slice(properties[i - 1].offset + properties[i - 1].length, around.offset)
      : i + 1 < properties.length
        ? text.slice(around.offset + around.length, properties[i + 1].offset)
        : ", ";
  const key = around.children![0];
  const value = around.children![1];
  return { between, colon: text.slice(key.offset + key.length, value.offset) };
}

function groupEdits(text: string, g: JsonDoc["groups"][number], forms: { category: PluralCategory; text: string }[]): Edit[] {
  const edits: Edit[] = [];
  const wanted = new Map(forms.map((f) => [f.category, f.text]));
  const other = g.members.get("other")!;
  const { between, colon } = layout(text, g.properties, other);
  const keyFor = (c: PluralCategory) => (g.ordinal ? `${g.base}_ordinal_${c}` : `${g.base}_${c}`);
  for (const [category, property] of g.members) {
    const value = property.children![1];
    const t = wanted.get(category);
    if (t !== undefined) {
      if (t !== value.value) edits.push({ start: value.offset, end: value.offset + value.length, text: JSON.stringify(t) });
      continue;
    }
    // A category the target does not have: the property goes, with the separator before it (or after it, when no
    // kept property precedes it).
    const i = g.properties.indexOf(property);
    const keptBefore = g.properties.slice(0, i).some((p) => !isRemoved(p, g, wanted));
    if (keptBefore) edits.push({ start: g.properties[i - 1].offset + g.properties[i - 1].length, end: property.offset + property.length, text: "" });
    else edits.push({ start: property.offset, end: g.properties[i + 1].offset, text: "" });
  }
  // Categories the source lacks go before `other`, in CLDR order.
  const added = PLURAL_CATEGORIES.filter((c) => wanted.has(c) && !g.members.has(c));
  if (added.length > 0) {
    const inserted = added.map((c) => `${JSON.stringify(keyFor(c))}${colon}${JSON.stringify(wanted.get(c))}${between}`).join("");
    edits.push({ start: other.offset, end: other.offset, text: inserted });
  }
  return edits;
}

function isRemoved(property: Node, g: JsonDoc["groups"][number], wanted: Map<PluralCategory, string>): boolean {
  for (const [category, p] of g.members) if (p === property) return !wanted.has(category);
  return false;
}

// ---------------------------------------------------------------------------------------------------------------
// ARB

const HASH_ATTRIBUTE = "x-lugha-source";

export const arb: FormatHandler<JsonDoc> = {
  parse(content) {
    const root = parseJson("arb", content);
    checkDuplicates("arb", content, root);
    const doc: JsonDoc = { text: content, values: new Map(), groups: [], root, top: new Map() };
    const entries: DraftEntry[] = [];
    for (const p of root.children ?? []) doc.top!.set(p.children![0].value as string, p);
    let declaredLocale: string | undefined;
    for (const [key, p] of doc.top!) {
      const value = p.children![1];
      if (key === "@@locale" && value.type === "string") declaredLocale = value.value as string;
      if (key.startsWith("@") || value.type !== "string") continue;
      const source = value.value as string;
      const meta = valueNode(doc.top!.get(`@${key}`));
      const description = meta?.type === "object" ? valueNode(meta.children?.find((m) => keyOf(m) === "description")) : undefined;
      const c = classify(source, { icu: true });
      doc.values.set(key, value);
      entries.push({
        id: key,
        source,
        ...(description?.type === "string" && description.value ? { notes: [description.value as string] } : {}),
        translatable: c.translatable,
        ...(c.translatable ? {} : { reason: c.reason }),
        ...(isIcuMessage(source) ? { icu: true as const } : {}),
      });
    }
    return { entries, doc, ...(declaredLocale ? { declaredLocale } : {}) };
  },

  render(doc, ctx) {
    const text = doc.text;
    const edits: Edit[] = [];
    const top = doc.root.children ?? [];
    const firstLayout = top.length > 0 ? layout(text, top, top[0]) : { between: ",\n  ", colon: ": " };
    const multiline = firstLayout.between.includes("\n");
    const topIndent = top.length > 0 ? indentAt(text, top[0].offset) : "  ";

    for (const [id, node] of doc.values) {
      const t = ctx.translation(id);
      if (t === undefined) continue;
      edits.push({ start: node.offset, end: node.offset + node.length, text: JSON.stringify(t) });
      if (!ctx.writeSourceHashes) continue;
      const hash = JSON.stringify(ctx.hash(id));
      const metaProperty = doc.top!.get(`@${id}`);
      const meta = valueNode(metaProperty);
      if (meta?.type === "object") {
        const props = meta.children ?? [];
        const existing = props.find((p) => p.children![0].value === HASH_ATTRIBUTE);
        if (existing) {
          const v = existing.children![1];
          edits.push({ start: v.offset, end: v.offset + v.length, text: hash });
        } else if (props.length > 0) {
          const last = props[props.length - 1];
          const { between, colon } = layout(text, props, last);
          edits.push({
            start: last.offset + last.length,
            end: last.offset + last.length,
            text: `${between}${JSON.stringify(HASH_ATTRIBUTE)}${colon}${hash}`,
          });
        } else {
          edits.push({ start: meta.offset + 1, end: meta.offset + meta.length - 1, text: `${JSON.stringify(HASH_ATTRIBUTE)}: ${hash}` });
        }
      } else if (!metaProperty) {
        const property = doc.top!.get(id)!;
        const inner = multiline
          ? `{\n${topIndent}${topIndent || "  "}${JSON.stringify(HASH_ATTRIBUTE)}${firstLayout.colon}${hash}\n${topIndent}}`
          : `{${JSON.stringify(HASH_ATTRIBUTE)}${firstLayout.colon}${hash}}`;
        const end = property.offset + property.length;
        edits.push({ start: end, end, text: `${firstLayout.between}${JSON.stringify(`@${id}`)}${firstLayout.colon}${inner}` });
      }
    }

    if (!ctx.setLocale) return applyEdits(text, edits);
    const locale = ctx.targetTag.replace(/-/g, "_");
    const localeProperty = doc.top!.get("@@locale");
    if (localeProperty) {
      const v = localeProperty.children![1];
      if (v.value !== locale) edits.push({ start: v.offset, end: v.offset + v.length, text: JSON.stringify(locale) });
    } else if (top.length > 0) {
      edits.push({ start: top[0].offset, end: top[0].offset, text: `"@@locale"${firstLayout.colon}${JSON.stringify(locale)}${firstLayout.between}` });
    } else {
      edits.push({ start: doc.root.offset + 1, end: doc.root.offset + 1, text: `"@@locale": ${JSON.stringify(locale)}` });
    }
    return applyEdits(text, edits);
  },

  readExisting(content) {
    const { doc, entries } = arb.parse(content);
    const out = new Map<string, ExistingTranslation>();
    for (const e of entries) {
      const meta = valueNode(doc.top!.get(`@${e.id}`));
      const hash = meta?.type === "object" ? valueNode(meta.children?.find((p) => keyOf(p) === HASH_ATTRIBUTE))?.value : undefined;
      out.set(e.id, { translation: e.source, ...(typeof hash === "string" ? { sourceHash: hash } : {}) });
    }
    return out;
  },
};
