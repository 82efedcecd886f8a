import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openApiDocument } from "@/lib/api/openapi/document";
import { validate } from "@/lib/kit/body";
import { ApiError } from "@/lib/kit/errors";
import { parseDelimited } from "./delimited";
import {
  CreateGlossaryRequest,
  DoNotTranslate,
  GLOSSARY_MAX_ENTRIES,
  GLOSSARY_TERM_MAX_CHARS,
  GlossaryId,
  LocalisationFields,
  TextFormat,
} from "./schemas";

const pair = { source_lang: "en", target_lang: "sw" };

function parsed(body: Record<string, unknown>) {
  return validate(CreateGlossaryRequest, { ...pair, ...body }, "body");
}

/** The ApiError thrown by validating `body` (the test fails if nothing is thrown). */
function rejected(body: Record<string, unknown>): ApiError {
  try {
    parsed(body);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected a validation error");
}

const errorsOf = (body: Record<string, unknown>) => rejected(body).options.errors?.map(({ loc, type }) => ({ loc, type }));

describe("glossary entries as JSON", () => {
  it("trims and NFC-normalises terms and keeps their order", () => {
    const decomposed = "cafe\u0301"; // "café" as e + combining acute
    const out = parsed({
      name: " clinic ",
      entries: [
        { source: `  ${decomposed} `, target: "mkahawa" },
        { source: "M-Pesa", target: "M-Pesa" },
      ],
    });
    expect(out).toEqual({
      name: "clinic",
      ...pair,
      entries: [
        { source: "caf\u00e9", target: "mkahawa" },
        { source: "M-Pesa", target: "M-Pesa" },
      ],
    });
  });

  it("points at the entry's index and field for empty, over-long and control-character terms", () => {
    const long = "x".repeat(GLOSSARY_TERM_MAX_CHARS + 1);
    expect(
      errorsOf({
        entries: [
          { source: "ok", target: "sawa" },
          { source: "   ", target: "tupu" },
          { source: "long", target: long },
          { source: "tab\there", target: "x" },
        ],
      }),
    ).toEqual([
      { loc: ["body", "entries", 1, "source"], type: "string_too_short" },
      { loc: ["body", "entries", 2, "target"], type: "string_too_long" },
      { loc: ["body", "entries", 3, "source"], type: "invalid_characters" },
    ]);
  });

  it("counts characters as code points: 200 emoji are a valid term, 201 are not", () => {
    const emoji = "🌍";
    expect(parsed({ entries: [{ source: emoji.repeat(GLOSSARY_TERM_MAX_CHARS), target: "dunia" }] }).entries).toHaveLength(1);
    expect(errorsOf({ entries: [{ source: emoji.repeat(GLOSSARY_TERM_MAX_CHARS + 1), target: "dunia" }] })).toEqual([
      { loc: ["body", "entries", 0, "source"], type: "string_too_long" },
    ]);
  });

  it("refuses a source term repeated ignoring case, at the later entry", () => {
    expect(
      errorsOf({
        entries: [
          { source: "Clinic", target: "kliniki" },
          { source: "doctor", target: "daktari" },
          { source: " CLINIC ", target: "zahanati" },
        ],
      }),
    ).toEqual([{ loc: ["body", "entries", 2, "source"], type: "duplicate_term" }]);
  });

  it("accepts the same target for different sources", () => {
    expect(
      parsed({
        entries: [
          { source: "physician", target: "daktari" },
          { source: "doctor", target: "daktari" },
        ],
      }).entries,
    ).toHaveLength(2);
  });

  it(`holds 1 to ${GLOSSARY_MAX_ENTRIES} entries`, () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ source: `term ${i}`, target: `neno ${i}` }));
    expect(parsed({ entries: entries(GLOSSARY_MAX_ENTRIES) }).entries).toHaveLength(GLOSSARY_MAX_ENTRIES);
    expect(errorsOf({ entries: entries(GLOSSARY_MAX_ENTRIES + 1) })).toEqual([{ loc: ["body", "entries"], type: "too_long" }]);
    expect(errorsOf({ entries: [] })).toEqual([{ loc: ["body", "entries"], type: "too_short" }]);
  });

  it("needs exactly one of entries, csv and tsv", () => {
    expect(errorsOf({})).toEqual([{ loc: ["body", "entries"], type: "missing" }]);
    expect(errorsOf({ entries: [{ source: "a", target: "b" }], csv: "a,b" })).toEqual([{ loc: ["body"], type: "conflicting_fields" }]);
  });

  it("validates the name like an API key's and requires both languages", () => {
    expect(errorsOf({ name: "", entries: [{ source: "a", target: "b" }] })).toEqual([{ loc: ["body", "name"], type: "string_too_short" }]);
    const err = rejected({ source_lang: undefined, entries: [{ source: "a", target: "b" }] });
    expect(err.options.errors?.[0]).toMatchObject({ loc: ["body", "source_lang"], type: "missing" });
  });

  it("never echoes a term in an error", () => {
    const secret = "SECRET-TERM-\u0007";
    const err = rejected({
      entries: [
        { source: secret, target: "x" },
        { source: "y", target: `${"z".repeat(300)}SECRET` },
      ],
    });
    expect(JSON.stringify({ message: err.message, errors: err.options.errors })).not.toContain("SECRET");
  });
});

describe("glossary entries as CSV and TSV", () => {
  it("reads RFC 4180 quotes, doubled quotes, delimiters and line breaks inside quotes", () => {
    const csv = 'blood pressure,shinikizo la damu\n"Dr. ""Juma"", MD","Daktari ""Juma"""\n';
    expect(parsed({ csv }).entries).toEqual([
      { source: "blood pressure", target: "shinikizo la damu" },
      { source: 'Dr. "Juma", MD', target: 'Daktari "Juma"' },
    ]);
    // A quoted line break is parsed as part of the field (the term rules then refuse it: see below).
    expect(parseDelimited('"two\nlines",mistari', "csv").map((r) => r.fields)).toEqual([["two\nlines", "mistari"]]);
  });

  it("skips a UTF-8 BOM, a header row and empty lines; CRLF, LF and CR all end a record", () => {
    const csv = "\uFEFFSource , TARGET\r\nmarket,soko\r\n\r\nfarm,shamba\nwater,maji\rend,mwisho\r\n";
    expect(parsed({ csv }).entries).toEqual([
      { source: "market", target: "soko" },
      { source: "farm", target: "shamba" },
      { source: "water", target: "maji" },
      { source: "end", target: "mwisho" },
    ]);
  });

  it("keeps a first row that is not exactly the header", () => {
    expect(parsed({ csv: "source,lengo\nfarm,shamba" }).entries).toEqual([
      { source: "source", target: "lengo" },
      { source: "farm", target: "shamba" },
    ]);
  });

  it("reads TSV with the same quoting rules, commas being ordinary characters", () => {
    const tsv = 'source\ttarget\r\nM-Pesa, Ltd\tM-Pesa, Ltd\n"tab\tinside"\tx\n';
    expect(parseDelimited(tsv, "tsv").map((r) => r.fields)).toEqual([
      ["M-Pesa, Ltd", "M-Pesa, Ltd"],
      ["tab\tinside", "x"],
    ]);
    expect(parsed({ tsv: "farm\tshamba\n" }).entries).toEqual([{ source: "farm", target: "shamba" }]);
  });

  it("reports the line a record starts on, also after a quoted field spanning lines", () => {
    const rows = parseDelimited('a,b\n"multi\r\nline",c\n\nd,e\n', "csv");
    expect(rows.map((r) => r.line)).toEqual([1, 2, 5]);
  });

  it("puts each problem on its line: field count, empty, over-long, duplicate, multi-line term", () => {
    const csv = [
      "source,target", // 1: header
      "farm,shamba", // 2
      "lonely", // 3: one field
      "a,b,c", // 4: three fields
    ].join("\n");
    expect(errorsOf({ csv })).toEqual([
      { loc: ["body", "csv", 3], type: "field_count" },
      { loc: ["body", "csv", 4], type: "field_count" },
    ]);
    const csv2 = ["farm,shamba", `${"x".repeat(201)},y`, " ,tupu", "FARM,shamba", '"two\nlines",z'].join("\n");
    expect(errorsOf({ csv: csv2 })).toEqual([
      { loc: ["body", "csv", 2], type: "string_too_long" },
      { loc: ["body", "csv", 3], type: "string_too_short" },
      { loc: ["body", "csv", 5], type: "invalid_characters" },
    ]);
    // Duplicates are checked once every term is valid.
    expect(errorsOf({ csv: "farm,shamba\nwater,maji\nFarm,kilimo" })).toEqual([{ loc: ["body", "csv", 3], type: "duplicate_term" }]);
  });

  it("refuses malformed quoting with the line, without quoting the input", () => {
    for (const [csv, line] of [
      ['farm,shamba\nbad,"SECRET\n', 2],
      ['farm,shamba\nwater,ma"ji\n', 2],
      ['farm,shamba\n\n"water"SECRET,maji\n', 3],
    ] as const) {
      const err = rejected({ csv });
      expect(err.options.errors).toEqual([
        { loc: ["body", "csv", line], msg: expect.stringMatching(new RegExp(`^Line ${line}: `)), type: "invalid_syntax" },
      ]);
      expect(JSON.stringify(err.options.errors)).not.toMatch(/SECRET|ma"ji/);
    }
  });

  it(`refuses more than ${GLOSSARY_MAX_ENTRIES} records and an empty file`, () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `term ${i},neno ${i}`).join("\r\n");
    expect(parsed({ csv: rows(GLOSSARY_MAX_ENTRIES) }).entries).toHaveLength(GLOSSARY_MAX_ENTRIES);
    expect(errorsOf({ csv: rows(GLOSSARY_MAX_ENTRIES + 1) })).toEqual([{ loc: ["body", "csv"], type: "too_long" }]);
    expect(errorsOf({ csv: "\uFEFFsource,target\r\n\r\n" })).toEqual([{ loc: ["body", "csv"], type: "too_short" }]);
  });
});

describe("localisation fields for translate", () => {
  const Request = z.object({ text: z.string(), ...LocalisationFields });

  it("defaults format to text and accepts html and markdown only", () => {
    expect(Request.parse({ text: "hi" })).toEqual({ text: "hi", format: "text" });
    expect(Request.parse({ text: "hi", format: "markdown" }).format).toBe("markdown");
    expect(TextFormat.safeParse("xml").success).toBe(false);
  });

  it("limits do_not_translate to 100 terms of 1–100 characters, trimmed", () => {
    expect(DoNotTranslate.parse([" Lugha ", "M-Pesa"])).toEqual(["Lugha", "M-Pesa"]);
    expect(DoNotTranslate.safeParse(Array.from({ length: 101 }, (_, i) => `t${i}`)).success).toBe(false);
    expect(DoNotTranslate.safeParse(["x".repeat(101)]).success).toBe(false);
    expect(DoNotTranslate.safeParse([""]).success).toBe(false);
  });

  it("takes a UUID as glossary_id", () => {
    expect(GlossaryId.safeParse("0b6f3c9e-2f1d-4c6a-9a43-8f0e5d7b1a22").success).toBe(true);
    expect(GlossaryId.safeParse("not-a-uuid").success).toBe(false);
  });
});

describe("OpenAPI for glossaries", () => {
  const d = openApiDocument() as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>>; example?: unknown }> };
  };

  it("documents the four operations with the errors they answer", () => {
    expect(Object.keys(d.paths["/api/v1/glossaries"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(d.paths["/api/v1/glossaries/{id}"]).sort()).toEqual(["delete", "get"]);
    expect(Object.keys(d.paths["/api/v1/glossaries"].post.responses)).toEqual(expect.arrayContaining(["201", "401", "413", "422", "429"]));
    expect(d.paths["/api/v1/glossaries/{id}"].get.responses["404"]).toBeDefined();
    expect(d.paths["/api/v1/glossaries/{id}"].delete.responses["404"]).toBeDefined();
  });

  it("is generated from the request schema, whose example it accepts, and states the term bounds", () => {
    const create = d.components.schemas.CreateGlossaryRequest;
    expect(Object.keys(create.properties ?? {}).sort()).toEqual(["csv", "entries", "name", "source_lang", "target_lang", "tsv"]);
    expect(CreateGlossaryRequest.safeParse(create.example).success).toBe(true);
    const entry = (create.properties!.entries as { items: { properties: Record<string, Record<string, unknown>> } }).items;
    expect(entry.properties.source).toMatchObject({ minLength: 1, maxLength: GLOSSARY_TERM_MAX_CHARS });
    expect(d.components.schemas.Glossary.properties?.entries).toBeDefined();
    expect(d.components.schemas.GlossaryList.properties?.glossaries).toBeDefined();
  });
});
