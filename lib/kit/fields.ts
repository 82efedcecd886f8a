import { jsonObject, readBodyLimited } from "./body";
import { ApiError } from "./errors";

/**
 * The fields of a request as the protocols other than the API's own send them: the query string, with the body's
 * fields over it — a JSON object, `application/x-www-form-urlencoded` or `multipart/form-data` (text fields; a file
 * part is kept as a File). A name sent more than once (DeepL's repeated `text`) becomes an array. The body is read
 * under `maxBytes`; errors never quote it.
 */
export async function readFields(req: Request, maxBytes: number): Promise<Record<string, unknown>> {
  // Without a prototype, a field named __proto__ is a field like any other.
  const fields: Record<string, unknown> = Object.create(null);
  for (const [name, value] of new URL(req.url).searchParams) add(fields, name, value);
  if (req.method === "GET" || req.method === "HEAD") return fields;
  const raw = await readBodyLimited(req, maxBytes);
  if (raw.byteLength === 0) return fields;
  const contentType = req.headers.get("content-type") ?? "";
  const mime = contentType.split(";")[0].trim().toLowerCase();
  if (mime === "application/json" || /^application\/[\w.+-]+\+json$/.test(mime)) return Object.assign(fields, jsonObject(raw));
  if (mime === "multipart/form-data") {
    let form: FormData;
    try {
      form = await new Response(raw as BodyInit, { headers: { "content-type": contentType } }).formData();
    } catch {
      throw new ApiError("VALIDATION_ERROR", "The multipart body does not match its boundary, or is cut short.", {
        errors: [{ loc: ["body"], msg: "Invalid multipart/form-data body", type: "multipart_invalid" }],
      });
    }
    const parts: Record<string, unknown> = Object.create(null);
    for (const [name, value] of form) add(parts, name, value);
    return Object.assign(fields, parts);
  }
  // Form-encoded, and a body sent without a Content-Type (curl -d, many HTTP helpers), are read as a form.
  const form: Record<string, unknown> = Object.create(null);
  for (const [name, value] of new URLSearchParams(utf8(raw))) add(form, name, value);
  return Object.assign(fields, form);
}

function add(fields: Record<string, unknown>, name: string, value: unknown) {
  // `text[]` (PHP and jQuery style) is the same field as `text`.
  const key = name.endsWith("[]") ? name.slice(0, -2) : name;
  const had = fields[key];
  if (had === undefined) fields[key] = name.endsWith("[]") ? [value] : value;
  else fields[key] = Array.isArray(had) ? [...had, value] : [had, value];
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function utf8(raw: Uint8Array): string {
  try {
    return decoder.decode(raw);
  } catch {
    throw new ApiError("INVALID_JSON", "The request body is not valid UTF-8.");
  }
}
