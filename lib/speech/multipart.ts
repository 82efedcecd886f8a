import busboy from "busboy";
import { readBodyLimited, validate } from "@/lib/kit/body";
import { formatBytes } from "@/lib/kit/bytes";
import { ApiError, type FieldError } from "@/lib/kit/errors";
import { MULTIPART_OVERHEAD_BYTES } from "./limits";
import { type SpeechProviderChoice, SttFields } from "./schemas";

/**
 * Reads the STT upload: multipart/form-data with one file part `audio` and the text fields `language` and optional
 * `provider`. The body is read as a stream under a byte cap (the audio limit plus a little framing), so an oversized
 * upload is cut off with 413 while it arrives; only a body within the cap is then parsed, by busboy, which reads
 * everything RFC 7578 allows (a preamble before the first boundary, `filename*=` with a charset, escaped quotes in a
 * quoted file name) where the platform's FormData parser refuses some of it. Error messages name our fields and
 * say what is accepted; they never quote the caller's field names or values.
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
      "Send the request as multipart/form-data with a file field `audio` and a field `language` (e.g. curl -F audio=@speech.wav -F language=lug), or as JSON with `audio_url` and `language`.",
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

  let form: ParsedForm;
  try {
    form = await parseMultipart(raw, contentType);
  } catch {
    throw multipartInvalid(raw.byteLength === 0 ? "the body is empty" : "the body does not match its boundary, or is cut short");
  }

  const errors: FieldError[] = [];
  const files = form.files.get("audio") ?? [];
  const texts = form.fields.get("audio") ?? [];
  let file: UploadedFile | undefined;
  if (files.length + texts.length === 0) {
    // A file under another name is most likely the audio, misnamed: say what the name must be (never echo theirs).
    const hint = form.files.size > 0 ? ': send the audio as a file field named "audio"' : "";
    errors.push({ loc: ["body", "audio"], msg: `Field required${hint}`, type: "missing" });
  } else if (files.length + texts.length > 1) {
    errors.push({ loc: ["body", "audio"], msg: "Send exactly one audio file", type: "too_many_files" });
  } else if (texts.length === 1) {
    errors.push({ loc: ["body", "audio"], msg: "Input should be a file upload (a multipart part with a filename)", type: "file_type" });
  } else {
    file = files[0];
  }

  const single = (name: string) => {
    const values = [...(form.fields.get(name) ?? []), ...(form.files.get(name) ?? [])];
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

  if (file!.bytes.byteLength > maxAudioBytes) throw tooLarge(maxAudioBytes);
  return {
    audio: file!.bytes,
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

interface UploadedFile {
  bytes: Uint8Array;
  name: string;
  type: string;
}

interface ParsedForm {
  /** Text parts by field name, in order. */
  fields: Map<string, string[]>;
  /** File parts (parts with a filename) by field name, in order. */
  files: Map<string, UploadedFile[]>;
}

/** Parses a whole multipart/form-data body already in memory; rejects when it is malformed or cut short. */
function parseMultipart(body: Uint8Array, contentType: string): Promise<ParsedForm> {
  return new Promise((resolve, reject) => {
    const form: ParsedForm = { fields: new Map(), files: new Map() };
    const add = <T>(map: Map<string, T[]>, name: string, value: T) => map.set(name, [...(map.get(name) ?? []), value]);
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { "content-type": contentType }, defParamCharset: "utf8" });
    } catch (err) {
      reject(err);
      return;
    }
    parser.on("field", (name, value) => add(form.fields, name, value));
    parser.on("file", (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", reject); // a body cut short inside a file part fails the part as well as the form
      stream.on("end", () => add(form.files, name, { bytes: new Uint8Array(Buffer.concat(chunks)), name: info.filename ?? "", type: info.mimeType }));
    });
    parser.on("close", () => resolve(form));
    parser.on("error", reject);
    parser.end(body);
  });
}
