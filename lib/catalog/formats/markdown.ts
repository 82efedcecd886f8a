import type { Nodes, Parents } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import { classify } from "../classify";
import { CatalogParseError } from "../errors";
import type { DraftEntry, FormatHandler } from "../handler";
import { MAX_NESTING } from "../limits";
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
      const lead = content.slice(lineStartAt(content, start), start);
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
 * Guards against inputs on which micromark takes time quadratic in their size (measured: 10,000 nested list markers
 * on one line, 40 s; 4,000 lines of `- - - x`, 4.5 s; a 180 kB line of unclosed links `[a](b `, 10 s), checked line by
 * line before parsing: at most MAX_NESTING container markers (`>`, list bullets and numbers) opening a line and
 * 4 × MAX_NESTING columns of indentation; at most 500 lines that open two or more lists at once; no line longer than
 * 20,000 characters. Real documents are far inside these bounds.
 */
const MAX_LINE = 20_000;
const MAX_MULTI_LIST_LINES = 500;

function checkShape(content: string) {
  let line = 1;
  let multiList = 0;
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
    if (markers > MAX_NESTING || width > 4 * MAX_NESTING) throw new CatalogParseError("markdown", `nested deeper than ${MAX_NESTING} levels`, line);
    if (lists >= 2 && ++multiList > MAX_MULTI_LIST_LINES)
      throw new CatalogParseError("markdown", `more than ${MAX_MULTI_LIST_LINES} lines open nested lists`, line);
    const nl = content.indexOf("\n", j);
    const end = nl === -1 ? content.length : nl;
    if (end - i > MAX_LINE) throw new CatalogParseError("markdown", `a line longer than ${MAX_LINE} characters`, line);
    i = end + 1;
  }
}
