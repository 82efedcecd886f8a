import type { Nodes, Parents } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import { classify } from "../classify";
import { CatalogParseError } from "../errors";
import type { DraftEntry, FormatHandler } from "../handler";
import { LimitExceeded, MAX_NESTING } from "../limits";
import { applyEdits, detectEol, type Edit, lineStartAt } from "../text";

/**
 * Markdown documents, read with mdast-util-from-markdown (micromark: CommonMark, plus GFM tables, strikethrough,
 * task lists and autolinks, plus YAML/TOML front matter), whose nodes carry source offsets.
 *
 * Entries: each block of prose — a paragraph, a heading's text, a table cell — in document order (id `#1`, `#2`…),
 * with its inline Markdown as written (markup: "markdown": emphasis, links, code spans are for the masker to keep).
 * Front matter, fenced and indented code, HTML blocks, definitions and thematic breaks are not entries and stay as
 * written. Lines of a container directive (`::: tip`, `:::`) at the start or end of a paragraph are left out of it.
 * On continuation lines the container prefix (`> `, list indentation) is not part of the source; rendering puts it
 * back on every line of the translation. A block whose text (outside code spans, HTML and URLs) has no letters is
 * untranslatable.
 */

interface Block {
  id: string;
  start: number;
  end: number;
  /** Prefix of each continuation line (index 1… of the block's lines). */
  prefixes: string[];
  /** Prefix for lines beyond those of the source. */
  defaultPrefix: string;
  singleLine: boolean;
}

interface MarkdownDoc {
  text: string;
  eol: string;
  blocks: Block[];
}

const PROSE = new Set(["paragraph", "heading", "tableCell"]);
const SKIP = new Set(["code", "html", "yaml", "toml", "definition", "thematicBreak"]);

function proseText(node: Nodes): { text: string; hidden: boolean } {
  let text = "";
  let hidden = false;
  const walk = (n: Nodes) => {
    if (n.type === "text") text += n.value;
    else if (n.type === "inlineCode" || n.type === "html") hidden = true;
    else if (n.type === "image") text += ` ${n.alt ?? ""} `;
    if ("children" in n) for (const c of n.children as Nodes[]) walk(c);
  };
  walk(node);
  return { text, hidden };
}

export const markdown: FormatHandler<MarkdownDoc> = {
  parse(content) {
    checkShape(content);
    const tree = fromMarkdown(content, {
      extensions: [frontmatter(["yaml", "toml"]), gfm()],
      mdastExtensions: [frontmatterFromMarkdown(["yaml", "toml"]), gfmFromMarkdown()],
    });
    const doc: MarkdownDoc = { text: content, eol: detectEol(content), blocks: [] };
    const entries: DraftEntry[] = [];

    const visit = (node: Nodes, quotes: number, depth: number) => {
      if (depth > MAX_NESTING) throw new CatalogParseError("markdown", `nested deeper than ${MAX_NESTING} levels`, node.position?.start.line);
      if (SKIP.has(node.type)) return;
      if (PROSE.has(node.type)) {
        addBlock(node as Parents, quotes);
        return;
      }
      if ("children" in node) for (const child of node.children as Nodes[]) visit(child, quotes + (node.type === "blockquote" ? 1 : 0), depth + 1);
    };

    const addBlock = (node: Parents, quotes: number) => {
      const children = node.children as Nodes[];
      if (children.length === 0) return;
      let start = children[0].position!.start.offset!;
      let end = children[children.length - 1].position!.end.offset!;
      let lines = content.slice(start, end).split(/\r?\n/);
      // Container directive lines (`::: tip`, `:::`) at the edges of a paragraph are not prose.
      if (node.type === "paragraph") {
        while (lines.length > 0 && lines[0].trim().startsWith(":::")) {
          const nl = content.indexOf("\n", start);
          if (nl === -1 || nl >= end) return;
          start = nl + 1;
          lines = lines.slice(1);
        }
        while (lines.length > 0 && lines[lines.length - 1].trim().startsWith(":::")) {
          lines = lines.slice(0, -1);
          if (lines.length === 0) return;
          end = content.lastIndexOf("\n", end - 1);
          if (content[end - 1] === "\r") end--;
        }
        // `start` may now be at a line start: skip that line's container prefix.
        const prefix = prefixOf(content.slice(start, end).split(/\r?\n/)[0], quotes);
        start += prefix.length;
        lines = content.slice(start, end).split(/\r?\n/);
      }
      const prefixes = lines.slice(1).map((l) => prefixOf(l, quotes));
      const source = [lines[0], ...lines.slice(1).map((l, i) => l.slice(prefixes[i].length))].join("\n");
      // Headings and table cells are written on one line: no prefix (a cell's would be as long as the row before it).
      const lead = node.type === "paragraph" ? content.slice(lineStartAt(content, start), start) : "";
      const defaultPrefix = prefixes[prefixes.length - 1] ?? lead.replace(/[^>\t]/g, " ");
      const id = `#${doc.blocks.length + 1}`;
      doc.blocks.push({ id, start, end, prefixes, defaultPrefix, singleLine: node.type !== "paragraph" });
      const prose = proseText(node);
      const c = classify(prose.text);
      const reason = c.translatable
        ? undefined
        : prose.hidden && (c.reason === "no-letters" || c.reason === "empty")
          ? "placeholders-only"
          : c.reason;
      entries.push({ id, source, translatable: c.translatable, ...(reason ? { reason } : {}), markup: "markdown" });
    };

    visit(tree as unknown as Nodes, 0, 0);
    return { entries, doc };
  },

  render(doc, ctx) {
    const edits: Edit[] = [];
    for (const block of doc.blocks) {
      const t = ctx.translation(block.id);
      if (t === undefined) continue;
      const lines = t.split(/\r\n|\r|\n/).filter((l) => l.trim() !== "");
      if (lines.length === 0) continue;
      const written = block.singleLine
        ? lines.map((l) => l.trim()).join(" ")
        : lines.map((l, i) => (i === 0 ? l : (block.prefixes[i - 1] ?? block.defaultPrefix) + l.trimStart())).join(doc.eol);
      edits.push({ start: block.start, end: block.end, text: written });
    }
    return applyEdits(doc.text, edits);
  },
};

/** The container prefix of a continuation line: leading whitespace and up to `quotes` blockquote markers. */
function prefixOf(line: string, quotes: number): string {
  let i = 0;
  for (let q = 0; q < quotes; q++) {
    let j = i;
    while (line[j] === " " || line[j] === "\t") j++;
    if (line[j] !== ">") break;
    i = j + 1;
    if (line[i] === " ") i++;
  }
  while (line[i] === " " || line[i] === "\t") i++;
  return line.slice(0, i);
}

/**
 * Guards against inputs on which micromark is slow (time or memory growing faster than their size), checked in one
 * pass before parsing. Measured before these guards (docs/security.md has the numbers): 10,000 nested list markers on
 * one line, 40 s; 4,000 lines of `- - - x`, 4.5 s; a 180 kB line of unclosed links `[a](b `, 10 s; 119 kB of `_a**b `
 * in one paragraph of six lines, 30 s or more (emphasis is matched by scanning back over every earlier delimiter of
 * the paragraph, so the work is quadratic in their number); a table of 1,500 columns, +190 MB; and every table cell
 * costs far more than its bytes. The guards:
 *  - at most MAX_NESTING container markers (`>`, list bullets and numbers) opening a line and 4 × MAX_NESTING
 *    columns of indentation; at most 500 lines that open two or more lists at once; no line longer than 20,000
 *    characters;
 *  - at most MAX_MARKDOWN_CHARS characters in all;
 *  - at most MAX_INLINE_MARKS runs of inline syntax (`*`, `_`, `~`, a backtick, `[`, `]`, `<`) between two blank
 *    lines (the most one paragraph can hold), and MAX_DOCUMENT_MARKS in the document;
 *  - at most MAX_TABLE_COLUMNS columns in a row (pipes on a line, less one) and MAX_TABLE_CELLS in the document.
 * Real documents are well inside these bounds (this repository's longest, 67 kB: 2,165 runs of inline syntax, 155 in
 * one paragraph, 1,130 `|`, 16 on one line). Within them the parse is linear in the input's size, and its worst case
 * small (docs/security.md).
 */
const MAX_LINE = 20_000;
const MAX_MULTI_LIST_LINES = 500;
export const MAX_MARKDOWN_CHARS = 128 * 1024;
export const MAX_INLINE_MARKS = 200;
export const MAX_DOCUMENT_MARKS = 5_000;
export const MAX_TABLE_COLUMNS = 64;
export const MAX_TABLE_CELLS = 2_000;

const INLINE_MARKS = new Set(["*", "_", "~", "`", "[", "]", "<"]);

function checkShape(content: string) {
  if (content.length > MAX_MARKDOWN_CHARS) throw new LimitExceeded(`longer than ${MAX_MARKDOWN_CHARS} characters`);
  let line = 1;
  let multiList = 0;
  let marks = 0;
  let allMarks = 0;
  let cells = 0;
  for (let i = 0; i < content.length; line++) {
    let markers = 0;
    let lists = 0;
    let width = 0;
    let j = i;
    for (;;) {
      const ch = content[j];
      if (ch === " ") width++;
      else if (ch === "\t") width += 4;
      else if (ch === ">") markers++;
      else if ((ch === "-" || ch === "*" || ch === "+") && (content[j + 1] === " " || content[j + 1] === "\t")) {
        markers++;
        lists++;
      } else if (ch >= "0" && ch <= "9") {
        let k = j;
        while (content[k] >= "0" && content[k] <= "9") k++;
        if ((content[k] !== "." && content[k] !== ")") || (content[k + 1] !== " " && content[k + 1] !== "\t")) break;
        markers++;
        lists++;
        j = k;
      } else break;
      j++;
    }
    if (markers > MAX_NESTING || width > 4 * MAX_NESTING) throw new LimitExceeded(`nested deeper than ${MAX_NESTING} levels`, line);
    if (lists >= 2 && ++multiList > MAX_MULTI_LIST_LINES) throw new LimitExceeded(`more than ${MAX_MULTI_LIST_LINES} lines open nested lists`, line);
    const nl = content.indexOf("\n", j);
    const end = nl === -1 ? content.length : nl;
    if (end - i > MAX_LINE) throw new LimitExceeded(`a line longer than ${MAX_LINE} characters`, line);
    // A line with nothing after its container markers ends a paragraph; the marks of the next one count afresh.
    if (content.slice(j, end).trim() === "") marks = 0;
    // A row of n cells has at most n + 1 pipes (with the optional ones at its edges).
    let pipes = 0;
    for (let k = j; k < end; k++) {
      const ch = content[k];
      if (ch === "|") {
        if (++pipes > MAX_TABLE_COLUMNS + 1) throw new LimitExceeded(`a table row with more than ${MAX_TABLE_COLUMNS} columns`, line);
        if (pipes > 1 && ++cells > MAX_TABLE_CELLS) throw new LimitExceeded(`more than ${MAX_TABLE_CELLS} table cells`, line);
      } else if (INLINE_MARKS.has(ch) && content[k - 1] !== ch) {
        if (++marks > MAX_INLINE_MARKS)
          throw new LimitExceeded(`a paragraph with more than ${MAX_INLINE_MARKS} emphasis, code, link or HTML marks`, line);
        if (++allMarks > MAX_DOCUMENT_MARKS) throw new LimitExceeded(`more than ${MAX_DOCUMENT_MARKS} emphasis, code, link or HTML marks`, line);
      }
    }
    i = end + 1;
  }
}
