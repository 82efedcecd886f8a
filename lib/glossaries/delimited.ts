import { CsvError, parse } from "csv-parse/sync";

/**
 * Glossary entries sent as a `csv` or `tsv` string. The rules (docs/decisions.md "Glossaries"):
 *  - one entry per record, exactly two fields: source, target;
 *  - RFC 4180 quoting in both formats: a field may be wrapped in double quotes, and then may hold the delimiter, line
 *    breaks and doubled quotes (""); a quote inside an unquoted field, or text after a closing quote, is an error
 *    (quote the whole field instead) — strict, so a mistyped quote cannot silently swallow the rest of the file;
 *  - records end with CRLF, LF or CR, mixed freely; a UTF-8 byte-order mark at the start is ignored; empty lines are
 *    skipped (a trailing newline is not an entry);
 *  - an optional header row: a first record whose fields are `source` and `target` (any case, surrounding spaces
 *    ignored) is skipped. A glossary that really translates the word "source" as "target" puts another entry first.
 * Fields are returned as written; trimming, NFC and the term rules are the entries schema's (./schemas.ts).
 */
export type DelimitedFormat = "csv" | "tsv";

export interface DelimitedRow {
  /** The fields of the record, as written. */
  fields: string[];
  /** 1-based line on which the record starts (a quoted field may span lines). */
  line: number;
}

export class DelimitedSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = "DelimitedSyntaxError";
  }
}

/** Parses the text into records; throws DelimitedSyntaxError (with a message that never quotes the input). */
export function parseDelimited(text: string, format: DelimitedFormat): DelimitedRow[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // info: true makes each record {record, info}; the overloads of parse() do not express that.
    // Line endings are unified first: csv-parse counts a CRLF inside a quoted field as two lines, which would put
    // every later error on the wrong line. (A line break is never part of a valid term, so nothing of value changes.)
    records = parse(text.replace(/\r\n?/g, "\n"), {
      delimiter: format === "csv" ? "," : "\t",
      record_delimiter: "\n",
      bom: true,
      info: true,
      relax_column_count: true, // the column count is checked per row below, with a line number and our own message
      skip_empty_lines: true,
    }) as unknown as typeof records;
  } catch (err) {
    if (err instanceof CsvError) throw new DelimitedSyntaxError(lineOf(err), syntaxMessage(err.code));
    throw err;
  }
  const rows = records.map(({ record, info }) => ({
    fields: record,
    // info.lines is where the record ends; the line breaks inside its quoted fields say how far back it started.
    line: info.lines - record.reduce((n, field) => n + (field.match(/\n/g)?.length ?? 0), 0),
  }));
  const first = rows[0];
  if (first && first.fields.length === 2 && first.fields[0].trim().toLowerCase() === "source" && first.fields[1].trim().toLowerCase() === "target")
    rows.shift();
  return rows;
}

function lineOf(err: CsvError): number {
  const lines = (err as CsvError & { lines?: unknown }).lines;
  return typeof lines === "number" && lines > 0 ? lines : 1;
}

/** csv-parse's own messages quote the offending text; these do not. */
function syntaxMessage(code: string): string {
  switch (code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "A quoted field is never closed";
    case "INVALID_OPENING_QUOTE":
      return "A double quote inside an unquoted field: wrap the whole field in quotes and double the quote inside";
    case "CSV_INVALID_CLOSING_QUOTE":
      return "Text after a closing quote: a quoted field must end at the delimiter or the end of the line";
    default:
      return "Malformed record";
  }
}
