import { classify } from "../classify";
import { CatalogParseError } from "../errors";
import type { DraftEntry, FormatHandler } from "../handler";
import { applyEdits, type Edit, lineColumn } from "../text";

/**
 * Apple .strings (`"key" = "value";`, with /* *\/ and // comments), read by the small tokenizer below: no maintained
 * npm parser keeps offsets or comments (i18n-strings-files matches the file with regular expressions and drops
 * them), and the grammar is tiny — quoted or bare strings, `=`, `;`, comments and whitespace.
 *
 * Entries: one per pair (id: the key; the comment right before the pair is its note). The source has `\"`, `\\`,
 * `\n`, `\t`, `\r` and `\U` / `\u` escapes resolved; a translation is escaped back the same way, characters the
 * source wrote as `\Uxxxx` again so. Comments, order and spacing stay as written. The content is the text: a
 * UTF-16 file is decoded by the caller.
 */

interface Pair {
  key: string;
  value: string;
  /** Offsets of the value with its quotes. */
  start: number;
  end: number;
  note?: string;
  unicodeEscaped: Set<string>;
}

interface StringsDoc {
  text: string;
  pairs: Pair[];
}

const BARE = /[A-Za-z0-9_$+/:.-]/;

function tokenize(text: string): Pair[] {
  let i = text.startsWith("\uFEFF") ? 1 : 0;
  const fail = (problem: string, at = i): never => {
    const { line, column } = lineColumn(text, at);
    throw new CatalogParseError("strings", problem, line, column);
  };
  let note: string | undefined;
  const skip = () => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i])) i++;
      if (text.startsWith("/*", i)) {
        const end = text.indexOf("*/", i + 2);
        if (end === -1) fail("unterminated comment");
        note = text.slice(i + 2, end).trim();
        i = end + 2;
      } else if (text.startsWith("//", i)) {
        let end = text.indexOf("\n", i);
        if (end === -1) end = text.length;
        note = text.slice(i + 2, end).trim();
        i = end;
      } else return;
    }
  };
  const readString = (): { value: string; start: number; end: number; unicodeEscaped: Set<string> } => {
    const start = i;
    const unicodeEscaped = new Set<string>();
    if (text[i] !== '"') {
      while (i < text.length && BARE.test(text[i])) i++;
      if (i === start) fail("expected a string");
      return { value: text.slice(start, i), start, end: i, unicodeEscaped };
    }
    i++;
    let value = "";
    for (;;) {
      if (i >= text.length) fail("unterminated string", start);
      const ch = text[i++];
      if (ch === '"') break;
      if (ch !== "\\") {
        value += ch;
        continue;
      }
      const next = text[i++];
      if (next === "n") value += "\n";
      else if (next === "t") value += "\t";
      else if (next === "r") value += "\r";
      else if ((next === "U" || next === "u") && /^[0-9a-fA-F]{4}$/.test(text.slice(i, i + 4))) {
        const decoded = String.fromCharCode(Number.parseInt(text.slice(i, i + 4), 16));
        unicodeEscaped.add(decoded);
        value += decoded;
        i += 4;
      } else if (next !== undefined && /[0-7]/.test(next)) {
        let digits = next;
        while (digits.length < 3 && /[0-7]/.test(text[i] ?? "")) digits += text[i++];
        value += String.fromCharCode(Number.parseInt(digits, 8));
      } else if (next === undefined) fail("unterminated string", start);
      else value += next;
    }
    return { value, start, end: i, unicodeEscaped };
  };

  const pairs: Pair[] = [];
  for (;;) {
    note = undefined;
    skip();
    if (i >= text.length) break;
    const entryNote = note;
    const key = readString();
    skip();
    if (text[i] !== "=") fail("expected '='");
    i++;
    skip();
    const value = readString();
    skip();
    if (text[i] !== ";") fail("expected ';'");
    i++;
    pairs.push({
      key: key.value,
      value: value.value,
      start: value.start,
      end: value.end,
      unicodeEscaped: value.unicodeEscaped,
      ...(entryNote ? { note: entryNote } : {}),
    });
  }
  return pairs;
}

function escapeString(s: string, unicodeEscaped: Set<string>): string {
  let out = "";
  for (const ch of s) {
    if (ch === "\\") out += "\\\\";
    else if (ch === '"') out += '\\"';
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (unicodeEscaped.has(ch)) out += `\\U${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
    else out += ch;
  }
  return out;
}

export const strings: FormatHandler<StringsDoc> = {
  parse(content) {
    const pairs = tokenize(content);
    const entries: DraftEntry[] = pairs.map((p) => {
      const c = classify(p.value);
      return {
        id: p.key,
        source: p.value,
        ...(p.note ? { notes: [p.note] } : {}),
        translatable: c.translatable,
        ...(c.translatable ? {} : { reason: c.reason }),
      };
    });
    return { entries, doc: { text: content, pairs } };
  },
  render(doc, ctx) {
    const edits: Edit[] = [];
    for (const p of doc.pairs) {
      const t = ctx.translation(p.key);
      if (t !== undefined) edits.push({ start: p.start, end: p.end, text: `"${escapeString(t, p.unicodeEscaped)}"` });
    }
    return applyEdits(doc.text, edits);
  },
};
