import { type ParseError, parse as parseJsonc } from "jsonc-parser";
import type { z } from "zod";
import { concatBytes, formatBytes } from "@/lib/kit/bytes";
import { ApiError, type FieldError } from "./errors";
import { exceedsJsonDepth } from "./json-depth";

/** No request payload of the API nests deeper than 4 levels (batch: body → items → item → field); 32 is generous. */
export const MAX_JSON_DEPTH = 32;

/**
 * Reads the request body as a stream and stops as soon as it passes `maxBytes`, so an oversized upload costs at most
 * maxBytes of memory (Content-Length is checked first when the client sends it, but it can lie or be absent).
 *
 * A body that cannot be read to its end — the client disconnected or aborted mid-upload, the connection broke — is the
 * request's fault, not ours: 422 VALIDATION_ERROR (type body_incomplete), never a 500 with a logged stack.
 */
export async function readBodyLimited(req: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      throw bodyIncomplete(); // the stream is errored: nothing left to cancel
    }
    const { done, value } = next;
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}

function bodyIncomplete() {
  return new ApiError("VALIDATION_ERROR", "The request body could not be read completely.", {
    errors: [{ loc: ["body"], msg: "Request body was cut off", type: "body_incomplete" }],
  });
}

/** 413 PAYLOAD_TOO_LARGE for a body over `maxBytes`. */
export function tooLarge(maxBytes: number) {
  return new ApiError("PAYLOAD_TOO_LARGE", `Request body exceeds the limit of ${formatBytes(maxBytes)}.`);
}

/** 415 UNSUPPORTED_MEDIA_TYPE for a JSON route sent something else. */
export function notJson() {
  return new ApiError("UNSUPPORTED_MEDIA_TYPE", "Send the request body as JSON with Content-Type: application/json.");
}

/**
 * 400 INVALID_JSON for a text JSON.parse refused: where parsing failed, as a 0-based position and a 1-based line and
 * column, all counted in characters (code points). Never the parser's own message, which quotes the body.
 */
export function invalidJson(text: string, parserMessage = ""): ApiError {
  const at = jsonErrorOffset(text, parserMessage);
  const before = text.slice(0, at);
  const lines = before.split("\n");
  const line = lines.length;
  const column = [...lines[lines.length - 1]].length + 1;
  const position = [...before].length;
  const where = at >= text.length ? "the body ends before the JSON value does" : `parsing failed at position ${position}`;
  return new ApiError("INVALID_JSON", `The request body is not valid JSON: ${where} (line ${line}, column ${column}).`);
}

/** The UTF-16 offset of the first syntax error: V8's when it states one, else the first error a JSON parser reports. */
function jsonErrorOffset(text: string, parserMessage: string): number {
  const stated = /at position (\d+)/.exec(parserMessage);
  if (stated) return Math.min(Number(stated[1]), text.length);
  if (/Unexpected end of JSON input/.test(parserMessage)) return text.length;
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return Math.min(errors[0]?.offset ?? text.length, text.length);
}

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const mime = value.split(";")[0].trim().toLowerCase();
  return mime === "application/json" || /^application\/[\w.+-]+\+json$/.test(mime);
}

// One decoder for every request: decode() without { stream: true } keeps no state between calls.
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Parses a JSON object body and validates it with `schema`; errors never echo the input back. */
export async function parseJsonBody<T>(req: Request, schema: z.ZodType<T>, maxBytes: number): Promise<T> {
  if (!isJsonContentType(req.headers.get("content-type"))) {
    throw notJson();
  }
  const raw = await readBodyLimited(req, maxBytes);
  if (raw.byteLength === 0) {
    throw new ApiError("VALIDATION_ERROR", "The request body is empty; a JSON object is required.", {
      errors: [{ loc: ["body"], msg: "Field required", type: "missing" }],
    });
  }
  return validate(schema, jsonObject(raw), "body");
}

/** A body's bytes as a JSON object (not an array or a scalar), or the 4xx that says why not, never quoting them. */
export function jsonObject(raw: Uint8Array): Record<string, unknown> {
  if (exceedsJsonDepth(raw, MAX_JSON_DEPTH)) {
    throw new ApiError("INVALID_JSON", `The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new ApiError("INVALID_JSON", "The request body is not valid UTF-8, so it is not valid JSON.");
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw invalidJson(text, err instanceof Error ? err.message : "");
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ApiError("VALIDATION_ERROR", "The request body must be a JSON object.", {
      errors: [{ loc: ["body"], msg: "Input should be an object", type: "object_type" }],
    });
  }
  return data as Record<string, unknown>;
}

/** Validates `data`; on failure throws VALIDATION_ERROR with one {loc, msg, type} per problem. */
export function validate<T>(schema: z.ZodType<T>, data: unknown, root: "body" | "query" | "form"): T {
  const result = schema.safeParse(data, { reportInput: true }); // input is read for the error type only, never echoed
  if (result.success) return result.data;
  const errors: FieldError[] = result.error.issues.map((issue) => ({
    loc: [root, ...locOf(schema, data, issue.path)],
    msg: issue.message,
    type: issueType(issue),
  }));
  const first = errors[0];
  const where = first.loc.slice(1).join(".") || root;
  throw new ApiError("VALIDATION_ERROR", `Invalid request: ${where}: ${first.msg}`, { errors });
}

/**
 * Where an issue is, without the caller's words: the path is followed through the schema, and only what the schema
 * itself names (an object's field, an array's index) is kept. A record's key is the caller's, so it becomes
 * `(key N)`, its position in the record (1-based); any step the schema cannot account for becomes `(key)`.
 */
export function locOf(schema: z.ZodType, data: unknown, path: readonly PropertyKey[]): (string | number)[] {
  const loc: (string | number)[] = [];
  let at: SchemaDef | undefined = defOf(schema);
  let value = data;
  for (const step of path) {
    const def = at ? unwrap(at, step) : undefined;
    const next = value !== null && typeof value === "object" ? (value as Record<PropertyKey, unknown>)[step] : undefined;
    if (typeof step === "number") {
      loc.push(step);
      at = def?.type === "array" ? defOf(def.element) : undefined;
    } else if (def?.type === "object" && typeof step === "string" && Object.hasOwn(def.shape ?? {}, step)) {
      loc.push(step);
      at = defOf(def.shape![step]);
    } else if (def?.type === "record" && typeof step === "string" && value !== null && typeof value === "object") {
      loc.push(`(key ${Object.keys(value).indexOf(step) + 1})`);
      at = defOf(def.valueType);
    } else {
      loc.push("(key)");
      at = undefined;
    }
    value = next;
  }
  return loc;
}

/** The parts of a zod schema's definition that locOf() reads. */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
}

const defOf = (schema: unknown): SchemaDef | undefined => (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;

/** The definition under wrappers (optional, default, pipe, lazy…); of a union, the option that has `step`. */
function unwrap(def: SchemaDef, step: PropertyKey): SchemaDef | undefined {
  for (let d: SchemaDef | undefined = def, i = 0; d && i < 32; i++) {
    if (d.innerType) d = defOf(d.innerType);
    else if (d.type === "pipe") d = defOf(defOf(d.in)?.type === "transform" ? d.out : d.in);
    else if (d.type === "lazy" && d.getter) d = defOf(d.getter());
    else if (d.type === "union" && d.options) {
      const options = d.options.map((o) => defOf(o)).filter((o): o is SchemaDef => !!o);
      return (
        options
          .map((o) => unwrap(o, step))
          .find((o) => o && (typeof step === "number" ? o.type === "array" : o.type === "object" && Object.hasOwn(o.shape ?? {}, step))) ?? undefined
      );
    } else return d;
  }
  return undefined;
}

function issueType(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type") return issue.input === undefined ? "missing" : `${issue.expected}_type`;
  if (issue.code === "too_small")
    return issue.origin === "string" ? "string_too_short" : issue.origin === "number" ? "greater_than_equal" : "too_short";
  if (issue.code === "too_big") return issue.origin === "string" ? "string_too_long" : issue.origin === "number" ? "less_than_equal" : "too_long";
  if (issue.code === "unrecognized_keys") return "extra_forbidden";
  if (issue.code === "invalid_value") return "enum";
  if (issue.code === "custom" && issue.params && typeof issue.params.type === "string") return issue.params.type;
  return issue.code;
}
