import { isAlias, isMap, isScalar, isSeq, type Node, type Pair, parseDocument, parse as parseYaml, type Scalar, type YAMLMap } from "yaml";
import { type Classification, classify } from "../classify";
import { CatalogParseError } from "../errors";
import type { DraftEntry, FormatHandler, PluralGroup } from "../handler";
import { LimitExceeded, MAX_NESTING } from "../limits";
import { sameLanguage } from "../plurals";
import { applyEdits, detectEol, type Edit, indentAt, lineColumn, lineStartAt } from "../text";
import { PLURAL_CATEGORIES, type PluralCategory } from "../types";

/**
 * YAML catalogs (Rails i18n and the like), read with the `yaml` package's Document API, which keeps every node's
 * source range and comments. Its own toString() normalises layout (`[a, b]` becomes `[ a, b ]`), so values are
 * replaced in the file as written instead.
 *
 * Entries: every string scalar except plain Ruby symbols (`:year`) (id: JSON Pointer, below the locale root key when there is one: `/date/formats/long`,
 * `/date/day_names/0`); numbers, booleans, `~` and aliases are kept. Aliases are never expanded: an anchored value is
 * translated where it is defined; a document whose aliases would expand past 100 nodes is refused.
 * Rails locale root: a top-level mapping with one key that is a locale tag (`en:`); renderCatalog renames it to the
 * target tag when it is the source language.
 * Plurals: a mapping whose keys are CLDR categories, with `other`, all strings (`one: …`, `other: …`) is a plural
 * group; the target gets the target's categories (a new key is inserted before `other` with its indentation and
 * quoting; a key the target lacks is removed with its line; `zero` is kept where the source has it, as Rails uses it
 * for 0 in any language).
 * Replacement values keep the original's style (plain, single- or double-quoted, literal or folded block) when the
 * translation can be written in it; otherwise they are double-quoted.
 */

interface YamlValue {
  id: string;
  node: Scalar;
  flow: boolean;
}

interface YamlGroup {
  id: string;
  map: YAMLMap;
  members: Map<PluralCategory, Pair<Scalar, Scalar>>;
}

interface YamlDoc {
  text: string;
  eol: string;
  values: Map<string, YamlValue>;
  groups: YamlGroup[];
  root?: { key: Scalar; locale: string };
}

const escapePointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");
const RUBY_SYMBOL = /^:[A-Za-z_]\w*[?!]?$/;
const LOCALE_KEY = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;

export const yaml: FormatHandler<YamlDoc> = {
  parse(content) {
    checkFlowDepth(content);
    const doc = parseDocument(content, { uniqueKeys: true, prettyErrors: false, strict: true });
    const error = doc.errors[0];
    if (error) {
      const { line, column } = lineColumn(content, error.pos[0]);
      throw new CatalogParseError("yaml", `invalid YAML (${error.code})`, line, column);
    }
    try {
      doc.toJS({ maxAliasCount: 100 });
    } catch {
      throw new CatalogParseError("yaml", "aliases expand too far");
    }
    if (!isMap(doc.contents)) throw new CatalogParseError("yaml", "the top level is not a mapping", 1, 1);
    const out: YamlDoc = { text: content, eol: detectEol(content), values: new Map(), groups: [] };
    const entries: DraftEntry[] = [];
    const groups: PluralGroup[] = [];
    let start: Node = doc.contents;
    const top = doc.contents.items;
    if (
      top.length === 1 &&
      isScalar(top[0].key) &&
      typeof top[0].key.value === "string" &&
      LOCALE_KEY.test(top[0].key.value) &&
      isMap(top[0].value)
    ) {
      out.root = { key: top[0].key as Scalar, locale: top[0].key.value };
      start = top[0].value;
    }
    const groupOf = new Map<string, { group: string; category: PluralCategory }>();

    const visit = (node: unknown, pointer: string, depth: number, flow: boolean) => {
      if (depth > MAX_NESTING) throw new CatalogParseError("yaml", `nested deeper than ${MAX_NESTING} levels`);
      if (isMap(node)) {
        const pairs = node.items as Pair<unknown, unknown>[];
        const keys = pairs.map((p) => (isScalar(p.key) ? String(p.key.value) : undefined));
        const isGroup =
          keys.includes("other") &&
          pairs.every((p, i) => PLURAL_CATEGORIES.includes(keys[i] as PluralCategory) && isScalar(p.value) && typeof p.value.value === "string");
        if (isGroup) {
          const members = new Map<PluralCategory, Pair<Scalar, Scalar>>();
          pairs.forEach((p, i) => {
            members.set(keys[i] as PluralCategory, p as Pair<Scalar, Scalar>);
          });
          out.groups.push({ id: pointer, map: node, members });
          groups.push({
            id: pointer,
            forms: [...members.keys()].map((category) => ({ category, entryId: `${pointer}/${category}` })),
            idFor: (c) => `${pointer}/${c}`,
            keepZero: true,
          });
          for (const category of members.keys()) groupOf.set(`${pointer}/${category}`, { group: pointer, category });
        }
        pairs.forEach((p, i) => {
          if (keys[i] === undefined) return; // complex keys are kept as they are
          visit(p.value, `${pointer}/${escapePointer(keys[i]!)}`, depth + 1, flow || !!node.flow);
        });
      } else if (isSeq(node)) {
        node.items.forEach((item, i) => {
          visit(item, `${pointer}/${i}`, depth + 1, flow || !!node.flow);
        });
      } else if (isScalar(node) && typeof node.value === "string" && !isAlias(node)) {
        const source = node.value;
        const c: Classification = node.type === "PLAIN" && RUBY_SYMBOL.test(source) ? { translatable: false, reason: "symbol" } : classify(source);
        const plural = groupOf.get(pointer);
        out.values.set(pointer, { id: pointer, node, flow });
        const comment = node.commentBefore?.trim();
        entries.push({
          id: pointer,
          source,
          ...(comment ? { notes: [comment] } : {}),
          ...(plural ? { plural } : {}),
          translatable: c.translatable,
          ...(c.translatable ? {} : { reason: c.reason }),
        });
      }
    };
    visit(start, "", 0, false);
    return { entries, doc: out, groups, ...(out.root ? { declaredLocale: out.root.locale } : {}) };
  },

  render(doc, ctx) {
    const edits: Edit[] = [];
    const inGroup = new Set<string>();
    for (const g of doc.groups) {
      for (const c of g.members.keys()) inGroup.add(`${g.id}/${c}`);
      const forms = ctx.groupForms(g.id);
      if (forms) edits.push(...groupEdits(doc, g, forms));
    }
    for (const [id, value] of doc.values) {
      if (inGroup.has(id)) continue;
      const t = ctx.translation(id);
      if (t !== undefined) edits.push(replaceScalar(doc, value.node, t, value.flow));
    }
    if (ctx.setLocale && doc.root && sameLanguage(doc.root.locale, ctx.options.sourceLang)) {
      const key = doc.root.key;
      const written = key.type === "PLAIN" ? ctx.targetTag : key.type === "QUOTE_SINGLE" ? `'${ctx.targetTag}'` : JSON.stringify(ctx.targetTag);
      edits.push({ start: key.range![0], end: key.range![1], text: written });
    }
    return applyEdits(doc.text, edits);
  },
};

function plainIsSafe(value: string, flow: boolean): boolean {
  if (value === "" || value !== value.trim() || /[\n\r\t]/.test(value)) return false;
  if (flow && /[,[\]{}]/.test(value)) return false;
  try {
    const back = parseYaml(`k: ${value}`, { strict: true });
    return back?.k === value;
  } catch {
    return false;
  }
}

/** A scalar in the style of `node` when the value fits it, double-quoted otherwise. */
function formatScalar(doc: YamlDoc, node: Scalar, value: string, flow: boolean): string {
  const start = node.range![0];
  switch (node.type) {
    case "PLAIN":
      if (plainIsSafe(value, flow)) return value;
      break;
    case "QUOTE_SINGLE":
      if (!/[\n\r]/.test(value)) return `'${value.replace(/'/g, "''")}'`;
      break;
    case "BLOCK_LITERAL":
    case "BLOCK_FOLDED": {
      const original = doc.text.slice(start, node.range![1]);
      const contentLine = original
        .split(/\r?\n/)
        .slice(1)
        .find((l) => l.trim() !== "");
      const indent = contentLine ? /^ */.exec(contentLine)![0] : `${indentAt(doc.text, start)}  `;
      const trailing = /\n*$/.exec(value)![0].length;
      const body = value.slice(0, value.length - trailing);
      if (body === "" || /^[ \t]/.test(body) || /\r/.test(body)) break;
      const folded = node.type === "BLOCK_FOLDED" && !body.includes("\n");
      const header = `${folded ? ">" : "|"}${trailing === 0 ? "-" : trailing > 1 ? "+" : ""}`;
      const lines = body.split("\n").map((l) => (l ? indent + l : ""));
      // The node's range ends after its last line break: so does the replacement.
      return [header, ...lines].join(doc.eol) + doc.eol.repeat(Math.max(trailing, 1));
    }
  }
  const quoted = JSON.stringify(value);
  return node.type === "BLOCK_LITERAL" || node.type === "BLOCK_FOLDED" ? quoted + doc.eol : quoted;
}

function replaceScalar(doc: YamlDoc, node: Scalar, value: string, flow: boolean): Edit {
  return { start: node.range![0], end: node.range![1], text: formatScalar(doc, node, value, flow) };
}

function groupEdits(doc: YamlDoc, g: YamlGroup, forms: { category: PluralCategory; text: string }[]): Edit[] {
  const text = doc.text;
  const edits: Edit[] = [];
  const wanted = new Map(forms.map((f) => [f.category, f.text]));
  const pairs = g.map.items as Pair<Scalar, Scalar>[];
  const other = g.members.get("other")!;
  const flow = !!g.map.flow;
  for (const [category, pair] of g.members) {
    const t = wanted.get(category);
    if (t !== undefined) {
      if (t !== pair.value!.value) edits.push(replaceScalar(doc, pair.value!, t, flow));
      continue;
    }
    if (!flow) {
      // The pair's lines go.
      const start = lineStartAt(text, pair.key!.range![0]);
      let end = pair.value!.range![1];
      if (text[end - 1] !== "\n") {
        const nl = text.indexOf("\n", end);
        end = nl === -1 ? text.length : nl + 1;
      }
      edits.push({ start, end, text: "" });
    } else {
      const i = pairs.indexOf(pair);
      const keptBefore = pairs.slice(0, i).some((p) => wanted.has(String(p.key!.value) as PluralCategory));
      if (keptBefore) edits.push({ start: pairs[i - 1].value!.range![1], end: pair.value!.range![1], text: "" });
      else edits.push({ start: pair.key!.range![0], end: pairs[i + 1].key!.range![0], text: "" });
    }
  }
  const added = PLURAL_CATEGORIES.filter((c) => wanted.has(c) && !g.members.has(c));
  if (added.length > 0) {
    const keyStart = other.key!.range![0];
    const colon = text.slice(other.key!.range![1], other.value!.range![0]);
    const render = (c: PluralCategory) => `${c}${colon}${formatScalar(doc, other.value!, wanted.get(c)!, flow).replace(/\r?\n$/, "")}`;
    if (flow) edits.push({ start: keyStart, end: keyStart, text: added.map((c) => `${render(c)}, `).join("") });
    else {
      const lineStart = lineStartAt(text, keyStart);
      const indent = text.slice(lineStart, keyStart);
      const _block = other.value!.type === "BLOCK_LITERAL" || other.value!.type === "BLOCK_FOLDED";
      edits.push({ start: lineStart, end: lineStart, text: added.map((c) => `${indent}${render(c)}${doc.eol}`).join("") });
    }
  }
  return edits;
}

/**
 * Flow collections (`[`, `{`) nested deeper than MAX_NESTING are refused before the parser sees them: its time grows
 * much faster than the depth (100,000 `[` took seconds). Brackets are counted wherever they are, quoted or not, so
 * no quote can hide them; a real file never has 64 unclosed ones.
 */
function checkFlowDepth(content: string) {
  let depth = 0;
  let line = 1;
  for (let i = 0; i < content.length; i++) {
    const ch = content.charCodeAt(i);
    if (ch === 10) line++;
    else if (ch === 91 || ch === 123) {
      if (++depth > MAX_NESTING) throw new LimitExceeded(`nested deeper than ${MAX_NESTING} levels`, line);
    } else if ((ch === 93 || ch === 125) && depth > 0) depth--;
  }
}
