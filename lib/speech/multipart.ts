import { formatBytes, readBodyLimited, validate } from "@/lib/http/body";
import { ApiError, type FieldError } from "@/lib/http/errors";
import { MULTIPART_OVERHEAD_BYTES } from "./limits";
import { type SpeechProviderChoice, SttFields } from "./schemas";

/**
 * Reads the STT upload: multipart/form-data with one file part `audio` and the text fields `language` and optional
 * `provider`. The body is read as a stream under a byte cap (the audio limit plus a little framing), so an oversized
 * upload is cut off with 413 while it arrives; only a body within the cap is then parsed.
 *
 *   not multipart/form-data              → 415 UNSUPPORTED_MEDIA_TYPE
 *   body over the cap / audio over limit → 413 PAYLOAD_TOO_LARGE
 *   broken multipart (boundary, cut)     → 422 VALIDATION_ERROR (type multipart_invalid)
 *   audio missing, misnamed, not a file,
 *   sent twice; language missing/invalid → 422 VALIDATION_ERROR, one {loc, msg, type} per problem
 */
export interface SttUpload {
  audio: Uint8Array;
  /** As the client sent them; informational only (the format is decided by the bytes). */
  fileName: string;
  declaredType: string;
  language: string;
  provider: SpeechProviderChoice;
}

export async function readSttUpload(req: Request, maxAudioBytes: number): Promise<SttUpload> {
  const contentType = req.headers.get("content-type") ?? "";
  const mime = contentType.split(";")[0].trim().toLowerCase();
  if (mime !== "multipart/form-data") {
    throw new ApiError(
      "UNSUPPORTED_MEDIA_TYPE",
      "Send the request as multipart/form-data with a file field `audio` and a field `language` (e.g. curl -F audio=@speech.wav -F language=lug).",
    );
  }
  if (!/;\s*boundary=("?)[^";]+\1/i.test(contentType)) {
    throw multipartInvalid("the Content-Type header has no boundary parameter");
  }

  let raw: Uint8Array;
  try {
    raw = await readBodyLimited(req, maxAudioBytes + MULTIPART_OVERHEAD_BYTES);
  } catch (err) {
    if (err instanceof ApiError && err.code === "PAYLOAD_TOO_LARGE") throw tooLarge(maxAudioBytes);
    throw err;
  }

  let form: FormData;
  try {
    form = await new Response(raw as Uint8Array<ArrayBuffer>, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw multipartInvalid(raw.byteLength === 0 ? "the body is empty" : "the body does not match its boundary, or is cut short");
  }

  const errors: FieldError[] = [];
  const parts = form.getAll("audio");
  let file: File | undefined;
  if (parts.length === 0) {
    const names = [...new Set([...form.keys()])].filter((n) => n !== "language" && n !== "provider").map(clip);
    const hint = names.length
      ? ` (the form has ${names
          .slice(0, 5)
          .map((n) => `"${n}"`)
          .join(", ")}; the file field must be named "audio")`
      : "";
    errors.push({ loc: ["body", "audio"], msg: `Field required${hint}`, type: "missing" });
  } else if (parts.length > 1) {
    errors.push({ loc: ["body", "audio"], msg: "Send exactly one audio file", type: "too_many_files" });
  } else if (typeof parts[0] === "string") {
    errors.push({ loc: ["body", "audio"], msg: "Input should be a file upload (a multipart part with a filename)", type: "file_type" });
  } else {
    file = parts[0];
  }

  const single = (name: string) => {
    const values = form.getAll(name);
    if (values.length > 1) errors.push({ loc: ["body", name], msg: "Send this field once", type: "too_many_values" });
    const value = values[0];
    return typeof value === "string" ? value : value === undefined ? undefined : 0; // a file where text belongs fails as a type error
  };
  const provider = single("provider");
  const fields = { language: single("language"), provider: provider === "" ? undefined : provider };
  try {
    validate(SttFields, fields, "body");
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    errors.push(...(err.options.errors ?? []));
  }

  if (errors.length > 0) {
    const first = errors[0];
    throw new ApiError("VALIDATION_ERROR", `Invalid request: ${first.loc.slice(1).join(".")}: ${first.msg}`, { errors });
  }
  const parsed = validate(SttFields, fields, "body");

  if (file!.size > maxAudioBytes) throw tooLarge(maxAudioBytes);
  return {
    audio: new Uint8Array(await file!.arrayBuffer()),
    fileName: file!.name,
    declaredType: file!.type,
    language: parsed.language,
    provider: parsed.provider ?? "auto",
  };
}

function tooLarge(maxAudioBytes: number) {
  return new ApiError("PAYLOAD_TOO_LARGE", `The audio upload exceeds the limit of ${formatBytes(maxAudioBytes)}.`, {
    errors: [{ loc: ["body", "audio"], msg: `File larger than ${formatBytes(maxAudioBytes)}`, type: "file_too_large" }],
  });
}

function multipartInvalid(why: string) {
  const message = `The body is not valid multipart/form-data: ${why}.`;
  return new ApiError("VALIDATION_ERROR", message, { errors: [{ loc: ["body"], msg: message, type: "multipart_invalid" }] });
}

/** Caller input quoted in a message: short, one line, no control characters. */
function clip(value: string): string {
  const clean = value.replace(/[\p{Cc}\p{Cf}]/gu, "?");
  return clean.length > 32 ? `${clean.slice(0, 32)}…` : clean;
}
