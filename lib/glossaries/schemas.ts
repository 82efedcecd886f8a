import { z } from "zod";
import { IssueKeyRequest } from "@/lib/keys/schemas";
import { type DelimitedFormat, DelimitedSyntaxError, parseDelimited } from "./delimited";

/**
 * Glossary payloads (POST/GET/DELETE /api/v1/glossaries) and the localisation fields translate and batch will take.
 * The route validates with these and the OpenAPI document is built from them.
 *
 * Like translate's, the request schema checks shape and the term rules (422 VALIDATION_ERROR, loc on the entry); the
 * language codes are resolved by the service (lib/glossaries/store.ts), because unknown and equal codes have their
 * own error codes (UNSUPPORTED_LANGUAGE, SAME_LANGUAGE).
 */

export const GLOSSARY_MAX_ENTRIES = 1_000;
export const GLOSSARY_TERM_MAX_CHARS = 200;
export const GLOSSARIES_PER_KEY = 100;
export const DO_NOT_TRANSLATE_MAX_TERMS = 100;
export const DO_NOT_TRANSLATE_TERM_MAX_CHARS = 100;
/**
 * Room for 1,000 entries whose terms average about 100 Latin characters (a third of that in a script of 3-byte characters such as Ethiopic) —
 * far more than real glossaries use. The theoretical maximum (1,000 × two 200-character terms) does not fit: such a
 * list is better split into glossaries by topic anyway.
 */
export const CREATE_GLOSSARY_MAX_BODY_BYTES = 256 * 1024;

const required = (what: string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? "Field required" : `Input should be ${what}`),
});

/** C0/C1 controls (tab and line breaks included: a term is one line) and unpaired surrogates. */
const CONTROL_CHARACTERS = /\p{Cc}|\p{Cs}/u;

/** A term: trimmed, NFC, 1–max code points, no control characters. `what` names it in messages ("Source term"). */
function term(what: string, max: number) {
  return z
    .string(required("a string"))
    .transform((s) => s.trim().normalize("NFC"))
    .check((ctx) => {
      const length = [...ctx.value].length;
      const fail = (message: string, type: string) => ctx.issues.push({ code: "custom", input: ctx.value, message, params: { type } });
      if (length === 0) fail(`${what} must not be empty`, "string_too_short");
      if (length > max) fail(`${what} must be at most ${max} characters`, "string_too_long");
      if (CONTROL_CHARACTERS.test(ctx.value))
        fail(`${what} must not contain control characters (tabs and line breaks included)`, "invalid_characters");
    });
}

export const GlossaryEntry = z.object({
  // meta rather than describe: the length bounds are checked in code (code points, after trimming), and OpenAPI shows them.
  source: term("Source term", GLOSSARY_TERM_MAX_CHARS).meta({
    description: `The term as it appears in source text: 1–${GLOSSARY_TERM_MAX_CHARS} characters after trimming, matched as a whole word ignoring case`,
    minLength: 1,
    maxLength: GLOSSARY_TERM_MAX_CHARS,
  }),
  target: term("Target term", GLOSSARY_TERM_MAX_CHARS).meta({
    description: `What the source term becomes in the translation, verbatim: 1–${GLOSSARY_TERM_MAX_CHARS} characters after trimming`,
    minLength: 1,
    maxLength: GLOSSARY_TERM_MAX_CHARS,
  }),
});
export type GlossaryEntry = z.output<typeof GlossaryEntry>;

/** Source terms are matched ignoring case (lib/localise), so two entries whose sources differ only in case collide. */
const sourceKey = (source: string) => source.toLowerCase();

export const GlossaryEntries = z
  .array(GlossaryEntry, required("an array"))
  .min(1, "A glossary needs at least 1 entry")
  .max(GLOSSARY_MAX_ENTRIES, `A glossary holds at most ${GLOSSARY_MAX_ENTRIES.toLocaleString("en-US")} entries`)
  .check((ctx) => {
    const seen = new Set<string>();
    ctx.value.forEach((entry, i) => {
      const key = sourceKey(entry.source);
      if (seen.has(key))
        ctx.issues.push({
          code: "custom",
          input: entry.source,
          path: [i, "source"],
          message: "Duplicate source term: an earlier entry has the same source (compared ignoring case)",
          params: { type: "duplicate_term" },
        });
      seen.add(key);
    });
  });

const LanguageCode = (what: string) =>
  z
    .string(required("a string"))
    .max(32, "Input should be a language code")
    .describe(`${what}. Canonical code (en, lug, sw, yo, ...) or ISO 639-3 (eng, swa, ...), any case. See GET /api/v1/languages.`);

const Delimited = (format: DelimitedFormat) =>
  z
    .string(required("a string"))
    .describe(
      `The entries as ${format.toUpperCase()}: one "source${format === "csv" ? "," : "\\t"}target" record per line, RFC 4180 quotes (doubled inside), CRLF or LF, optional UTF-8 BOM and optional header row "source${format === "csv" ? "," : "\\t"}target". Errors point at the line: ["body", "${format}", <line>].`,
    );

const ENTRY_SOURCES = ["entries", "csv", "tsv"] as const;

/** A validated create request, whichever form the entries came in. */
export interface NewGlossary {
  name?: string;
  source_lang: string;
  target_lang: string;
  entries: GlossaryEntry[];
}

/** POST /api/v1/glossaries. The output always has `entries`, whichever form the terms came in. */
export const CreateGlossaryRequest = z
  .object({
    name: IssueKeyRequest.shape.name.optional().describe("A label for you (optional): 1–100 characters, like an API key's name"),
    source_lang: LanguageCode("Language of the source terms"),
    target_lang: LanguageCode("Language of the target terms"),
    entries: GlossaryEntries.optional().describe(
      `1–${GLOSSARY_MAX_ENTRIES.toLocaleString("en-US")} entries, source terms unique ignoring case. Send exactly one of entries, csv, tsv.`,
    ),
    csv: Delimited("csv").optional(),
    tsv: Delimited("tsv").optional(),
  })
  .transform((body, ctx): NewGlossary => {
    const given = ENTRY_SOURCES.filter((field) => body[field] !== undefined);
    if (given.length !== 1) {
      ctx.issues.push({
        code: "custom",
        input: undefined,
        path: given.length === 0 ? ["entries"] : [],
        message:
          given.length === 0
            ? "Field required: send the terms as entries, csv or tsv"
            : `Send exactly one of entries, csv, tsv (got ${given.join(", ")})`,
        params: { type: given.length === 0 ? "missing" : "conflicting_fields" },
      });
      return z.NEVER;
    }
    const { name, source_lang, target_lang } = body;
    if (body.entries) return { name, source_lang, target_lang, entries: body.entries };
    const format = given[0] as DelimitedFormat;
    const entries = entriesFromDelimited(body[format] ?? "", format, ctx);
    return entries ? { name, source_lang, target_lang, entries } : z.NEVER;
  })
  .describe("POST /api/v1/glossaries request")
  .meta({
    examples: [
      {
        name: "clinic terms",
        source_lang: "en",
        target_lang: "sw",
        entries: [
          { source: "blood pressure", target: "shinikizo la damu" },
          { source: "M-Pesa", target: "M-Pesa" },
        ],
      },
    ],
  });
export type CreateGlossaryRequest = z.output<typeof CreateGlossaryRequest>;

type IssueSink = { issues: { push(issue: z.core.$ZodRawIssue): void } };

/**
 * The csv/tsv form: parsed (./delimited.ts), each record checked for two fields, then the same entry rules as the JSON
 * form, with each problem placed on the record's line: loc ["body", "csv", <line>].
 */
function entriesFromDelimited(text: string, format: DelimitedFormat, ctx: IssueSink): GlossaryEntry[] | undefined {
  const fail = (path: (string | number)[], message: string, type: string) =>
    ctx.issues.push({ code: "custom", input: undefined, path, message, params: { type } });
  let rows: ReturnType<typeof parseDelimited>;
  try {
    rows = parseDelimited(text, format);
  } catch (err) {
    if (!(err instanceof DelimitedSyntaxError)) throw err;
    fail([format, err.line], `Line ${err.line}: ${err.message}`, "invalid_syntax");
    return undefined;
  }
  let shapeOk = true;
  for (const row of rows)
    if (row.fields.length !== 2) {
      shapeOk = false;
      fail([format, row.line], `Line ${row.line}: expected 2 fields (source, target), found ${row.fields.length}`, "field_count");
    }
  if (!shapeOk) return undefined;
  const result = GlossaryEntries.safeParse(rows.map(({ fields: [source, target] }) => ({ source, target })));
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const [index] = issue.path;
    const line = typeof index === "number" ? rows[index]?.line : undefined;
    const type = issue.code === "custom" && typeof issue.params?.type === "string" ? issue.params.type : issue.code;
    if (line === undefined) fail([format], issue.message, type === "too_big" ? "too_long" : type === "too_small" ? "too_short" : type);
    else fail([format, line], `Line ${line}: ${issue.message}`, type);
  }
  return undefined;
}

export const GlossarySummary = z.object({
  id: z.string().describe("The glossary's id, which is also its version: a glossary never changes, a new version is a new glossary"),
  name: z.string().nullable(),
  source_lang: z.string().describe("Canonical code of the source terms' language"),
  target_lang: z.string().describe("Canonical code of the target terms' language"),
  entry_count: z.number().int(),
  created_at: z.string().describe("ISO 8601 UTC"),
});

export const Glossary = GlossarySummary.extend({
  entries: z.array(z.object({ source: z.string(), target: z.string() })).describe("In the order given, terms as stored: trimmed and NFC-normalised"),
}).describe("A glossary with its entries");

export const GlossaryList = z
  .object({
    glossaries: z.array(GlossarySummary).describe("The calling key's glossaries, newest first, without their entries"),
    total: z.number().int(),
    limit: z.number().int().describe("How many glossaries one key may hold"),
  })
  .describe("GET /api/v1/glossaries response");

export const DeletedGlossary = z.object({ deleted: z.literal(true), id: z.string() }).describe("DELETE /api/v1/glossaries/{id} response");

/*
 * Localisation fields of POST /api/v1/translate, each batch item and the batch as a whole (lib/translate/schemas.ts).
 * Applied by lib/translate/localised.ts: mask → segment → translate → verify → unmask.
 */
export const TEXT_FORMATS = ["text", "html", "markdown"] as const;

/** Without a default: a batch item without a format takes the batch's (LocalisationFields adds the default "text"). */
export const TextFormat = z
  .enum(TEXT_FORMATS, { error: () => "Input should be 'text', 'html' or 'markdown'" })
  .describe(
    "text (default): placeholders and ICU MessageFormat are kept. html: only text nodes and the alt, title, placeholder, aria-label and aria-description attributes are translated. markdown: only text is translated; code, URLs and syntax are kept.",
  );

export const DoNotTranslate = z
  .array(term("Do-not-translate term", DO_NOT_TRANSLATE_TERM_MAX_CHARS), required("an array of strings"))
  .max(DO_NOT_TRANSLATE_MAX_TERMS, `do_not_translate holds at most ${DO_NOT_TRANSLATE_MAX_TERMS} terms`)
  .describe(
    `Up to ${DO_NOT_TRANSLATE_MAX_TERMS} terms (1–${DO_NOT_TRANSLATE_TERM_MAX_CHARS} characters each) kept exactly as written: matched case-sensitively, as whole words`,
  );

export const GlossaryId = z
  .uuid({ error: "Input should be a glossary id (a UUID from POST /api/v1/glossaries)" })
  .describe("A glossary of the calling key whose language pair is the request's (the detected source counts)");

/** Spread into a z.object: `z.object({ ...existing, ...LocalisationFields })`. */
export const LocalisationFields = {
  format: TextFormat.default("text"),
  do_not_translate: DoNotTranslate.optional(),
  glossary_id: GlossaryId.optional(),
};
