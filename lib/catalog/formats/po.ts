import { type GetTextTranslation, po as gettext } from "gettext-parser";
import { classify } from "../classify";
import { CatalogParseError, CatalogRenderError } from "../errors";
import type { DraftEntry, FormatHandler, PluralGroup, RenderContext } from "../handler";
import { gettextPluralCount, localeTag, pluralInfo, underscoreTag } from "../plurals";
import { applyEdits, detectEol, type Edit, type Line, splitLines } from "../text";
import type { ExistingTranslation, PluralCategory } from "../types";

/**
 * Gettext PO and POT files.
 *
 * Each entry is parsed by gettext-parser (strings, escapes, comments, flags, msgctxt, plurals). gettext-parser has
 * no source positions, and its compiler regroups entries by msgctxt and rewraps every string, so the file is not
 * written back through it: a line scanner (PO is a line-based format: comment lines, keyword lines and string
 * continuation lines, entries separated by blank lines) finds each entry's lines, each entry's text goes through
 * gettext-parser on its own, and rendering replaces only the msgstr lines of translated entries. Comments,
 * references, flags, previous msgids (#|), obsolete entries (#~), order and wrapping of everything else stay as
 * written.
 *
 * Entries: msgid is the source (msgstr, filled or not, is ignored: the source of a PO file is its msgid). The id is
 * msgid, or msgctxt + "\u0004" + msgid. A plural message (msgid_plural) is a group with the source forms `#one`
 * (msgid) and `#other` (msgid_plural); the target file gets msgstr[0..n-1] for the target's categories in CLDR order,
 * and its header gets the target's Language and Plural-Forms (plurals.ts); "charset=CHARSET" of a POT header becomes
 * UTF-8 and the header's fuzzy flag goes. Notes: translator (# ) and extracted (#.) comments.
 *
 * A translated entry gets a translator comment `# lugha-source: <hash>` first in its comments.
 */

interface KeywordLines {
  keyword: string;
  lines: Line[];
}

interface Block {
  lines: Line[];
  keywords: KeywordLines[];
  firstLine: number;
  /** Parsed by gettext-parser (keyword blocks only). */
  entry?: GetTextTranslation;
  header?: boolean;
  id?: string;
  hashLine?: Line;
}

interface PoDoc {
  text: string;
  eol: string;
  blocks: Block[];
  headers?: Record<string, string>;
}

const KEYWORD = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s*"/;
/** A keyword line or a continuation line holds one complete quoted string. */
const ONE_STRING = /^(?:[a-z_]+(?:\[\d+\])?\s*)?"(?:[^"\\]|\\.)*"\s*$/;
const HASH_COMMENT = /^#\s+lugha-source:\s*([0-9a-f]{6,64})\s*$/;

function scan(content: string): Block[] {
  const lines = splitLines(content);
  const blocks: Block[] = [];
  let cur: Block | undefined;
  let sawMsgstr = false;
  const close = () => {
    if (cur) blocks.push(cur);
    cur = undefined;
    sawMsgstr = false;
  };
  const open = (i: number) => {
    cur = { lines: [], keywords: [], firstLine: i + 1 };
    return cur;
  };
  lines.forEach((line, i) => {
    const s = (i === 0 ? line.text.replace(/^\uFEFF/, "") : line.text).trimStart();
    if (s === "") {
      close();
      return;
    }
    if (s.startsWith("#")) {
      if (sawMsgstr) close();
      const block = cur ?? open(i);
      block.lines.push(line);
      if (HASH_COMMENT.test(s)) block.hashLine = line;
      return;
    }
    if (s.startsWith('"')) {
      const last = cur?.keywords[cur.keywords.length - 1];
      if (!cur || !last) throw new CatalogParseError("po", "a string outside an entry", i + 1);
      if (!ONE_STRING.test(s)) throw new CatalogParseError("po", "a malformed string", i + 1);
      cur.lines.push(line);
      last.lines.push(line);
      return;
    }
    const m = KEYWORD.exec(s);
    if (!m) throw new CatalogParseError("po", "not a PO keyword, string or comment", i + 1);
    if (!ONE_STRING.test(s)) throw new CatalogParseError("po", "a malformed string", i + 1);
    const keyword = m[1];
    if ((keyword === "msgctxt" || keyword === "msgid") && sawMsgstr) close();
    const block = cur ?? open(i);
    if (keyword.startsWith("msgstr")) sawMsgstr = true;
    block.lines.push(line);
    block.keywords.push({ keyword, lines: [line] });
  });
  close();
  return blocks;
}

function parseBlock(content: string, block: Block): { entry: GetTextTranslation; headers?: Record<string, string> } {
  const first = block.lines[0];
  const last = block.lines[block.lines.length - 1];
  const names = block.keywords.map((k) => k.keyword);
  const fail = (problem: string, line = block.firstLine): never => {
    throw new CatalogParseError("po", problem, line);
  };
  if (!names.includes("msgid")) fail("an entry without msgid");
  if (!names.some((n) => n.startsWith("msgstr"))) fail("an entry without msgstr");
  if (names.includes("msgid_plural") !== names.some((n) => n.startsWith("msgstr["))) fail("plural forms do not match msgid_plural");
  let parsed: ReturnType<typeof gettext.parse>;
  try {
    parsed = gettext.parse(content.slice(first.start, last.end), { validation: false });
  } catch (e) {
    const at = (e as { lineNumber?: unknown }).lineNumber;
    return fail("malformed entry", typeof at === "number" ? block.firstLine + at - 1 : block.firstLine);
  }
  const found: GetTextTranslation[] = [];
  for (const table of Object.values(parsed.translations)) found.push(...Object.values(table));
  if (found.length !== 1) fail("malformed entry");
  const entry = found[0];
  const isHeader = entry.msgid === "" && entry.msgctxt === undefined;
  return { entry, ...(isHeader ? { headers: parsed.headers } : {}) };
}

export const po: FormatHandler<PoDoc> = {
  parse(content) {
    const blocks = scan(content);
    const doc: PoDoc = { text: content, eol: detectEol(content), blocks };
    const entries: DraftEntry[] = [];
    const groups: PluralGroup[] = [];
    for (const block of blocks) {
      if (block.keywords.length === 0) continue;
      const { entry, headers } = parseBlock(content, block);
      block.entry = entry;
      if (headers) {
        if (doc.headers) throw new CatalogParseError("po", "two header entries", block.firstLine);
        block.header = true;
        doc.headers = headers;
        continue;
      }
      const id = entry.msgctxt !== undefined ? `${entry.msgctxt}\u0004${entry.msgid}` : entry.msgid;
      block.id = id;
      const notes = [entry.comments?.translator, entry.comments?.extracted]
        .filter((c): c is string => !!c)
        .flatMap((c) => c.split("\n"))
        .filter((c) => !c.startsWith("lugha-source:"));
      const common = { ...(entry.msgctxt !== undefined ? { context: entry.msgctxt } : {}), ...(notes.length ? { notes } : {}) };
      if (entry.msgid_plural !== undefined) {
        const forms: [PluralCategory, string][] = [
          ["one", entry.msgid],
          ["other", entry.msgid_plural],
        ];
        groups.push({ id, forms: forms.map(([category]) => ({ category, entryId: `${id}#${category}` })), idFor: (c) => `${id}#${c}` });
        for (const [category, source] of forms) {
          const c = classify(source);
          entries.push({
            id: `${id}#${category}`,
            source,
            ...common,
            plural: { group: id, category },
            translatable: c.translatable,
            ...(c.translatable ? {} : { reason: c.reason }),
          });
        }
      } else {
        const c = classify(entry.msgid);
        entries.push({ id, source: entry.msgid, ...common, translatable: c.translatable, ...(c.translatable ? {} : { reason: c.reason }) });
      }
    }
    const language = doc.headers?.Language?.trim();
    return { entries, doc, groups, ...(language ? { declaredLocale: language } : {}) };
  },

  render(doc, ctx) {
    const edits: Edit[] = [];
    const { text, eol } = doc;
    if (ctx.setLocale && !ctx.target.gettextPluralForms)
      throw new CatalogRenderError("po", "", "no gettext Plural-Forms is known for the target language");
    for (const block of doc.blocks) {
      if (block.header) {
        if (ctx.setLocale) edits.push(...headerEdits(doc, block, ctx));
        continue;
      }
      if (!block.entry || block.id === undefined) continue;
      const msgstr = block.keywords.filter((k) => k.keyword.startsWith("msgstr"));
      const start = msgstr[0].lines[0].start;
      const lastLines = msgstr[msgstr.length - 1].lines;
      const end = lastLines[lastLines.length - 1].end;
      let written: string | undefined;
      if (block.entry.msgid_plural !== undefined) {
        const forms = ctx.groupForms(block.id);
        if (forms) written = forms.map((f, i) => formatString(`msgstr[${i}]`, f.text, eol)).join(eol);
      } else {
        const t = ctx.translation(block.id);
        if (t !== undefined) written = formatString("msgstr", t, eol);
      }
      if (written === undefined) continue;
      edits.push({ start, end, text: written });
      if (ctx.writeSourceHashes) {
        const comment = `# lugha-source: ${ctx.hash(block.id)}`;
        if (block.hashLine) edits.push({ start: block.hashLine.start, end: block.hashLine.end, text: comment });
        else edits.push({ start: block.lines[0].start, end: block.lines[0].start, text: comment + eol });
      }
    }
    if (ctx.setLocale && !doc.blocks.some((b) => b.header)) {
      const fields = [
        `Language: ${underscoreTag(ctx.targetTag)}`,
        `Plural-Forms: ${ctx.target.gettextPluralForms}`,
        "Content-Type: text/plain; charset=UTF-8",
      ];
      edits.push({ start: 0, end: 0, text: [`msgid ""`, `msgstr ""`, ...fields.map((f) => `"${escapeString(`${f}\n`)}"`), "", ""].join(eol) });
    }
    return applyEdits(text, edits);
  },

  readExisting(content, targetLang) {
    const { doc } = po.parse(content);
    const lang = targetLang ?? doc.headers?.Language?.trim();
    let categories: PluralCategory[] | undefined;
    try {
      categories = lang ? pluralInfo(lang).categories : undefined;
    } catch {
      categories = undefined;
    }
    const nplurals = gettextPluralCount(doc.headers?.["Plural-Forms"]);
    const out = new Map<string, ExistingTranslation>();
    for (const block of doc.blocks) {
      const entry = block.entry;
      if (!entry || block.header || block.id === undefined) continue;
      if ((entry.comments?.flag ?? "").split(/[\s,]+/).includes("fuzzy")) continue;
      const hash = block.hashLine ? HASH_COMMENT.exec(block.hashLine.text.trimStart())?.[1] : undefined;
      const extra = hash ? { sourceHash: hash } : {};
      if (entry.msgid_plural === undefined) {
        if (entry.msgstr[0]) out.set(block.id, { translation: entry.msgstr[0], ...extra });
        continue;
      }
      // msgstr[i] is the i-th category of the language only when the file has as many forms as the language.
      if (!categories || categories.length !== entry.msgstr.length || (nplurals !== undefined && nplurals !== categories.length)) continue;
      if (entry.msgstr.some((s) => !s)) continue;
      categories.forEach((c, i) => {
        out.set(`${block.id}#${c}`, { translation: entry.msgstr[i], ...extra });
      });
    }
    return out;
  },
};

function headerEdits(doc: PoDoc, block: Block, ctx: RenderContext): Edit[] {
  const edits: Edit[] = [];
  const current = block.entry!.msgstr[0] ?? "";
  const fields = current.split("\n").filter((f, i, all) => f !== "" || i < all.length - 1);
  const set = (name: string, value: string) => {
    const i = fields.findIndex((f) => f.split(":")[0].trim().toLowerCase() === name.toLowerCase());
    if (i === -1) fields.push(`${name}: ${value}`);
    else fields[i] = `${name}: ${value}`;
  };
  set("Language", underscoreTag(localeTag(ctx.options.targetLang)));
  set("Plural-Forms", ctx.target.gettextPluralForms!);
  const ct = fields.findIndex((f) => f.toLowerCase().startsWith("content-type:"));
  if (ct === -1) set("Content-Type", "text/plain; charset=UTF-8");
  else fields[ct] = fields[ct].replace(/charset=CHARSET\b/i, "charset=UTF-8");
  const msgstr = block.keywords.find((k) => k.keyword === "msgstr")!;
  const start = msgstr.lines[0].start;
  const end = msgstr.lines[msgstr.lines.length - 1].end;
  edits.push({ start, end, text: [`msgstr ""`, ...fields.filter((f) => f !== "").map((f) => `"${escapeString(`${f}\n`)}"`)].join(doc.eol) });
  // The header of a POT is marked fuzzy; a translation's is not.
  for (const line of block.lines) {
    const s = line.text.trimStart();
    if (!s.startsWith("#,")) continue;
    const flags = s
      .slice(2)
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean);
    if (!flags.includes("fuzzy")) continue;
    const rest = flags.filter((f) => f !== "fuzzy");
    if (rest.length > 0) edits.push({ start: line.start, end: line.end, text: `#, ${rest.join(", ")}` });
    else edits.push({ start: line.start, end: line.next, text: "" });
  }
  return edits;
}

/** C-style escapes as gettext writes them. */
function escapeString(s: string): string {
  let out = "";
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === '"') out += '\\"';
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += `\\${code.toString(8).padStart(3, "0")}`;
    else out += ch;
  }
  return out;
}

const WIDTH = 79;

/**
 * `keyword "value"` as msgmerge writes it: on one line when it fits in 79 columns and has no inner line break,
 * otherwise `keyword ""` followed by one string per line of the value, each wrapped after spaces.
 */
export function formatString(keyword: string, value: string, eol: string): string {
  const inner = value.indexOf("\n");
  const oneLine = `${keyword} "${escapeString(value)}"`;
  if ((inner === -1 || inner === value.length - 1) && oneLine.length <= WIDTH) return oneLine;
  const pieces: string[] = [];
  for (const part of value.split(/(?<=\n)/)) {
    let rest = escapeString(part);
    while (rest.length > WIDTH - 2) {
      let cut = rest.lastIndexOf(" ", WIDTH - 3);
      if (cut <= 0) cut = WIDTH - 3;
      else cut += 1;
      // never split an escape sequence
      while (cut < rest.length && endsInsideEscape(rest.slice(0, cut))) cut++;
      pieces.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    if (rest) pieces.push(rest);
  }
  return [`${keyword} ""`, ...pieces.map((p) => `"${p}"`)].join(eol);
}

function endsInsideEscape(s: string): boolean {
  let backslashes = 0;
  for (let i = s.length - 1; i >= 0 && s[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 1;
}
