import { classify } from "../classify";
import { CatalogParseError } from "../errors";
import type { DraftEntry, FormatHandler, RenderContext } from "../handler";
import { applyEdits, detectEol, type Edit, type Line, splitLines } from "../text";

/**
 * SubRip (.srt) and WebVTT (.vtt) captions, read by the line tokenizer below. Both formats are blocks of lines
 * separated by blank lines; the npm parsers (subtitle, srt-parser-2, webvtt-parser) hand back cues with parsed
 * timings and no offsets, and writing the file back through them would reformat numbering, timings and cue settings,
 * which must stay byte for byte. One regular expression reads one timing line.
 *
 * Entries: one per cue, source = its text lines joined with "\n" (markup: "html" when it has tags such as `<i>`).
 * SRT ids: the cue number as written (`#n`, the nth cue, when it is missing or repeated). VTT ids: the cue
 * identifier, or `#n`. Rendering replaces only the text lines: the translation's line breaks are kept, blank lines in
 * it are dropped (a blank line would end the cue), and in VTT `-->` becomes `--&gt;`. The file's line endings (CRLF
 * in many subtitle files) are used for the new lines. VTT header, NOTE, STYLE and REGION blocks are kept as written.
 */

interface Cue {
  id: string;
  text: Line[];
}

interface SubtitleDoc {
  text: string;
  eol: string;
  cues: Cue[];
}

const SRT_TIMING = /^\s*\d{1,3}:\d{1,2}:\d{1,2}[,.]\d{1,3}\s*-->\s*\d{1,3}:\d{1,2}:\d{1,2}[,.]\d{1,3}/;
const VTT_TIMESTAMP = String.raw`(?:\d{2,}:)?\d{2}:\d{2}\.\d{3}`;
const VTT_TIMING = new RegExp(`^${VTT_TIMESTAMP}[ \\t]+-->[ \\t]+${VTT_TIMESTAMP}(?:[ \\t]|$)`);

/** Blocks of non-blank lines. */
function blocks(lines: Line[]): { lines: Line[]; first: number }[] {
  const out: { lines: Line[]; first: number }[] = [];
  let cur: { lines: Line[]; first: number } | undefined;
  lines.forEach((line, i) => {
    if (line.text.trim() === "") {
      cur = undefined;
      return;
    }
    if (!cur) {
      cur = { lines: [], first: i + 1 };
      out.push(cur);
    }
    cur.lines.push(line);
  });
  return out;
}

function withoutBom(lines: Line[]): Line[] {
  if (lines[0]?.text.startsWith("\uFEFF")) lines[0] = { ...lines[0], start: lines[0].start + 1, text: lines[0].text.slice(1) };
  return lines;
}

function entriesOf(cues: Cue[], text: string): DraftEntry[] {
  return cues.map((cue) => {
    const source = cue.text.map((l) => l.text).join("\n");
    const c = classify(source);
    void text;
    return {
      id: cue.id,
      source,
      translatable: c.translatable,
      ...(c.translatable ? {} : { reason: c.reason }),
      ...(/<[A-Za-z/]/.test(source) ? { markup: "html" as const } : {}),
    };
  });
}

function uniqueIds(cues: { id: string | undefined; text: Line[] }[]): Cue[] {
  const seen = new Set<string>();
  const counts = new Map<string, number>();
  for (const c of cues) if (c.id) counts.set(c.id, (counts.get(c.id) ?? 0) + 1);
  return cues.map((c, i) => {
    const id = c.id && counts.get(c.id) === 1 && !c.id.startsWith("#") ? c.id : `#${i + 1}`;
    if (seen.has(id)) return { id: `#${i + 1}`, text: c.text };
    seen.add(id);
    return { id, text: c.text };
  });
}

function renderCues(doc: SubtitleDoc, ctx: RenderContext, vtt: boolean): string {
  const edits: Edit[] = [];
  for (const cue of doc.cues) {
    const t = ctx.translation(cue.id);
    if (t === undefined || cue.text.length === 0) continue;
    let lines = t
      .split(/\r\n|\r|\n/)
      .map((l) => l.trimEnd())
      .filter((l) => l.trim() !== "");
    if (lines.length === 0) lines = [""];
    if (vtt) lines = lines.map((l) => l.replace(/-->/g, "--&gt;"));
    const first = cue.text[0];
    const last = cue.text[cue.text.length - 1];
    const eol = first.next > first.end ? doc.text.slice(first.end, first.next) : doc.eol;
    edits.push({ start: first.start, end: last.end, text: lines.join(eol) });
  }
  return applyEdits(doc.text, edits);
}

export const srt: FormatHandler<SubtitleDoc> = {
  parse(content) {
    const lines = withoutBom(splitLines(content));
    const cues: { id: string | undefined; text: Line[] }[] = [];
    for (const block of blocks(lines)) {
      let k = 0;
      let id: string | undefined;
      if (!SRT_TIMING.test(block.lines[0].text)) {
        if (!/^\s*\d+\s*$/.test(block.lines[0].text)) throw new CatalogParseError("srt", "expected a cue number or a timing line", block.first);
        id = block.lines[0].text.trim();
        k = 1;
      }
      if (!block.lines[k] || !SRT_TIMING.test(block.lines[k].text)) throw new CatalogParseError("srt", "expected a timing line", block.first + k);
      cues.push({ id, text: block.lines.slice(k + 1) });
    }
    const unique = uniqueIds(cues);
    return { entries: entriesOf(unique, content), doc: { text: content, eol: detectEol(content), cues: unique } };
  },
  render: (doc, ctx) => renderCues(doc, ctx, false),
};

export const vtt: FormatHandler<SubtitleDoc> = {
  parse(content) {
    const lines = withoutBom(splitLines(content));
    const all = blocks(lines);
    const header = all[0];
    if (header?.first !== 1 || !/^WEBVTT(?:[ \t]|$)/.test(header.lines[0].text))
      throw new CatalogParseError("vtt", "the file does not start with WEBVTT", 1);
    const cues: { id: string | undefined; text: Line[] }[] = [];
    for (const block of all.slice(1)) {
      const head = block.lines[0].text;
      if (/^(?:NOTE|STYLE|REGION)(?:[ \t]|$)/.test(head)) continue;
      let k = 0;
      let id: string | undefined;
      if (!VTT_TIMING.test(head)) {
        if (head.includes("-->")) throw new CatalogParseError("vtt", "malformed timing line", block.first);
        id = head.trim();
        k = 1;
      }
      if (!block.lines[k] || !VTT_TIMING.test(block.lines[k].text)) throw new CatalogParseError("vtt", "expected a timing line", block.first + k);
      cues.push({ id, text: block.lines.slice(k + 1) });
    }
    const unique = uniqueIds(cues);
    return { entries: entriesOf(unique, content), doc: { text: content, eol: detectEol(content), cues: unique } };
  },
  render: (doc, ctx) => renderCues(doc, ctx, true),
};
