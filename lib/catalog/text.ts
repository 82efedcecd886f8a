/** Small text helpers shared by the formats: positions, line endings and in-place edits. */

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Applies non-overlapping edits to `text`. Every format renders this way: the file is rewritten only where a value
 * changes, so everything else (comments, whitespace, quoting, key order, line endings) stays byte for byte.
 * An insertion and a replacement may start at the same offset: the insertion goes first.
 */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
  let at = 0;
  for (const e of sorted) {
    if (e.start < at || e.end < e.start) throw new Error("catalog: overlapping edits");
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

/** The file's line ending: the first one found ("\n" when there is none). */
export function detectEol(text: string): "\n" | "\r\n" {
  const i = text.indexOf("\n");
  return i > 0 && text[i - 1] === "\r" ? "\r\n" : "\n";
}

export interface Line {
  /** Offset of the first character. */
  start: number;
  /** Offset after the last character, before the line ending. */
  end: number;
  /** Offset after the line ending. */
  next: number;
  text: string;
}

/** The lines of a text, with their offsets; "\r\n", "\n" and a lone "\r" end a line. */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < text.length) {
    let end = start;
    while (end < text.length && text[end] !== "\n" && text[end] !== "\r") end++;
    const next = text[end] === "\r" && text[end + 1] === "\n" ? end + 2 : end < text.length ? end + 1 : end;
    lines.push({ start, end, next, text: text.slice(start, end) });
    start = next;
  }
  return lines;
}

/** Leading whitespace of the line that holds `offset`. */
export function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  let i = lineStart;
  while (text[i] === " " || text[i] === "\t") i++;
  return text.slice(lineStart, i);
}

/** Offset of the start of the line that holds `offset`. */
export const lineStartAt = (text: string, offset: number) => text.lastIndexOf("\n", offset - 1) + 1;
