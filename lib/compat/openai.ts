import { z } from "zod";
import type { AvailabilityView } from "@/lib/availability";
import { bearerCredential } from "@/lib/keys/refusals";
import { formatBytes } from "@/lib/kit/bytes";
import type { Dialect, Refusal } from "@/lib/kit/dialect";
import { ApiError, type ErrorCode } from "@/lib/kit/errors";
import { readFields } from "@/lib/kit/fields";
import { resolveSpeechLanguage, speechLanguageCodes, speechLanguageName, sttOptions, ttsOptions } from "@/lib/languages/speech";
import type { ProviderDescriptor } from "@/lib/providers/descriptor";
import { PROVIDERS } from "@/lib/providers/descriptors";
import { fieldError } from "@/lib/routing";
import { analyzeAudio, type SpeechDeps, synthesizeSpeech, type TtsFormat, transcribeAudio } from "@/lib/speech";
import { encodeRawPcm } from "@/lib/speech/encode";
import type { SttResponse } from "@/lib/speech/schemas";
import { openaiModelId } from "./codes";

/**
 * OpenAI's audio API (platform.openai.com/docs/api-reference/audio), served under /compat/openai/v1 so that OpenAI's
 * SDKs work with `baseURL` set to it, and the tools built on them (Open WebUI, LibreChat, ...). The key comes as
 * `Authorization: Bearer <key>`, as on the API's own routes; errors are {"error": {message, type, param, code}} with
 * OpenAI's statuses (400 bad input, 401 the key, 404, 413, 429, 5xx); `code` is the API's own code in lower case
 * (invalid_api_key and rate_limit_exceeded are OpenAI's too), the request id is the X-Request-Id header, which the
 * SDKs read.
 *
 * Models name what is served, and may name the language: lugha-stt and lugha-tts take it from the `language` field,
 * lugha-stt-<code> and lugha-tts-<code> (lugha-tts-lg) carry it, for the tools that let their user set only a model.
 */
export const OPENAI: Dialect = {
  name: "openai",
  readFields,
  credential: (req) => bearerCredential(req),
  status,
  errorBody,
  errorSchema: "OpenAIError",
};

export const OpenAIError = z
  .object({
    error: z.object({
      message: z.string().describe("What went wrong"),
      type: z.enum(["invalid_request_error", "requests", "server_error"]).describe("requests for a rate limit, server_error for 5xx"),
      param: z.string().nullable().describe("The request field at fault, when one is"),
      code: z.string().describe("The API's error code in lower case: invalid_api_key, rate_limit_exceeded, unsupported_language, ..."),
    }),
  })
  .describe("An OpenAI error");

function status(code: ErrorCode, status: number): number {
  if (code === "MISSING_API_KEY" || code === "INVALID_API_KEY") return 401;
  if (status === 404 || status === 405 || status === 413 || status === 429 || status >= 500) return status;
  return 400;
}

/** The API's field names that this protocol calls otherwise (the services' errors name their own fields). */
const FIELD_NAMES: Record<string, string> = { text: "input", audio: "file" };

function errorBody({ code, status: own, message, errors }: Refusal) {
  const field = errors?.[0]?.loc[1];
  const param = typeof field === "string" ? (FIELD_NAMES[field] ?? field) : null;
  const renamed = Object.entries(FIELD_NAMES).reduce((m, [from, to]) => (m.startsWith(`${from} `) ? `${to}${m.slice(from.length)}` : m), message);
  const httpStatus = status(code, own);
  const type = httpStatus === 429 ? "requests" : httpStatus >= 500 ? "server_error" : "invalid_request_error";
  return { error: { message: renamed, type, param, code: code.toLowerCase() } };
}

// ---------------------------------------------------------------------------------------------------------------
// Models

const MODEL = /^lugha-(stt|tts)(?:-([a-z0-9-]{1,32}))?$/i;
type Direction = "stt" | "tts";
const WHAT: Record<Direction, string> = { stt: "transcriptions", tts: "speech" };

/**
 * The language a request speaks: its `language` field, or the one its model names. Neither is a 400 naming
 * `language`; both, naming different languages, too. An unknown code in `language` is left to the speech service.
 */
export function requestLanguage(model: string, language: string | undefined, direction: Direction): string {
  const match = MODEL.exec(model);
  if (!match || match[1].toLowerCase() !== direction) {
    throw fieldError(
      "VALIDATION_ERROR",
      `model is not a ${WHAT[direction]} model here: lugha-${direction}, or lugha-${direction}-<language> such as lugha-${direction}-lg (GET /models lists them).`,
      ["body", "model"],
      "model_not_found",
    );
  }
  const named = match[2] === undefined ? undefined : resolveSpeechLanguage(match[2]);
  if (match[2] !== undefined && !named) {
    throw fieldError(
      "UNSUPPORTED_LANGUAGE",
      "model names a language that is not served: GET /models lists the models.",
      ["body", "model"],
      "unsupported_language",
    );
  }
  const sent = language?.trim() ? language.trim() : undefined;
  if (sent === undefined) {
    if (named) return named;
    throw fieldError(
      "VALIDATION_ERROR",
      `language is required: send the language field (lg, sw, ach, ...) or use a model that names it (lugha-${direction}-lg).`,
      ["body", "language"],
      "missing",
    );
  }
  if (named && resolveSpeechLanguage(sent) !== named) {
    throw fieldError(
      "VALIDATION_ERROR",
      "language is not the language the model names: send one of them, or the same.",
      ["body", "language"],
      "language_mismatch",
    );
  }
  return sent;
}

/** The models of GET /models: the two that take `language`, then one per language served now, in each direction. */
export function openaiModels(view: AvailabilityView, catalogue: readonly ProviderDescriptor[] = PROVIDERS) {
  const served = (direction: Direction) =>
    speechLanguageCodes(direction, catalogue)
      .filter((code) => (direction === "stt" ? sttOptions(code, catalogue, view) : ttsOptions(code, catalogue, view)).length > 0)
      .map((code) => openaiModelId(direction, code))
      .sort();
  const ids = ["lugha-stt", "lugha-tts", ...served("stt"), ...served("tts")];
  return { object: "list" as const, data: ids.map(modelObject) };
}

/** One model as OpenAI describes it; `created` is 0: the models here have no creation date of their own. */
function modelObject(id: string) {
  return { id, object: "model" as const, created: 0, owned_by: "lugha" };
}

/** GET /models/{model}: the model when GET /models lists it, else 404. */
export function openaiModel(view: AvailabilityView, id: string) {
  const model = openaiModels(view).data.find((m) => m.id === id);
  if (!model) throw new ApiError("NOT_FOUND", "No such model here: GET /compat/openai/v1/models lists them.");
  return model;
}

// ---------------------------------------------------------------------------------------------------------------
// POST /audio/transcriptions

const TRANSCRIPT_FORMATS = ["json", "text", "srt", "vtt", "verbose_json"] as const;
type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

const Granularity = z.enum(["segment"], { error: () => "timestamp_granularities takes segment only: no provider here gives word timings" });

export const OpenAITranscriptionRequest = z
  .object({
    file: z
      .file({
        error: (iss) =>
          iss.input === undefined
            ? "file is required: the recording as a multipart file part named file"
            : "file must be a file upload (a multipart part with a filename)",
      })
      .describe("The recording: WAV, MP3, OGG/Opus, WebM, FLAC or M4A, recognised by its bytes (as POST /api/v1/speech/stt takes it)"),
    model: z
      .string({ error: "model is required: lugha-stt, or lugha-stt-<language> such as lugha-stt-lg" })
      .max(64, "model is not a model here")
      .describe("lugha-stt (the language from `language`) or lugha-stt-<language> (lugha-stt-lg, lugha-stt-sw, ...): GET /models"),
    language: z
      .string({ error: "language must be a language code" })
      .max(32, "language must be a language code")
      .optional()
      .describe("lg, sw, ach, ... (ISO 639-1 where a language has one, else ISO 639-3); required unless the model names it"),
    prompt: z.string({ error: "prompt must be a string" }).optional().describe("Accepted; no effect (no provider here takes a prompt)"),
    response_format: z
      .enum(TRANSCRIPT_FORMATS, { error: () => `response_format must be one of ${TRANSCRIPT_FORMATS.join(", ")}` })
      .default("json")
      .describe(
        "json (default), text, srt, vtt or verbose_json (with segments). A provider that gives no timing makes the whole recording one segment.",
      ),
    timestamp_granularities: z
      .union([Granularity, z.array(Granularity)])
      .optional()
      .describe("segment (the default): word timings are not available"),
    temperature: z.coerce
      .number({ error: "temperature must be a number from 0 to 1" })
      .min(0, "temperature must be a number from 0 to 1")
      .max(1, "temperature must be a number from 0 to 1")
      .optional()
      .describe("Accepted; no effect"),
    stream: z
      .union([z.literal(false), z.literal("false")], { error: () => "stream is not supported here: the transcript comes in one answer" })
      .optional()
      .describe("false only"),
  })
  .describe("OpenAI POST /audio/transcriptions (multipart/form-data); other OpenAI fields are accepted and have no effect");
export type OpenAITranscriptionRequest = z.infer<typeof OpenAITranscriptionRequest>;

/** The request as the API's own transcription (POST /api/v1/speech/stt's service), under the upload limit. */
export async function openaiTranscribe(
  request: OpenAITranscriptionRequest,
  deps: SpeechDeps,
  options: { startedAt: number; maxAudioBytes: number },
): Promise<SttResponse> {
  const language = requestLanguage(request.model, request.language, "stt");
  if (request.file.size > options.maxAudioBytes) {
    throw new ApiError("PAYLOAD_TOO_LARGE", `The file exceeds the limit of ${formatBytes(options.maxAudioBytes)}.`, {
      errors: [{ loc: ["body", "file"], msg: `File larger than ${formatBytes(options.maxAudioBytes)}`, type: "file_too_large" }],
    });
  }
  const audio = new Uint8Array(await request.file.arrayBuffer());
  return transcribeAudio({ audio, language }, deps, { startedAt: options.startedAt });
}

interface Segment {
  start: number;
  end: number;
  text: string;
}

/** The transcript's timed parts: the provider's, or the whole recording as one when it gives no timing. */
function segmentsOf(result: SttResponse): Segment[] {
  if (result.segments) return result.segments;
  return result.transcript ? [{ start: 0, end: result.audio_duration_seconds, text: result.transcript }] : [];
}

/** The transcript in `format`: JSON (an object), or a text answer (text, SubRip, WebVTT). */
export function transcriptionReply(format: TranscriptFormat, result: SttResponse): object {
  const usage = { type: "duration" as const, seconds: result.audio_duration_seconds };
  switch (format) {
    case "json":
      return { text: result.transcript, usage };
    case "verbose_json":
      return {
        task: "transcribe",
        language: speechLanguageName(result.language).toLowerCase(),
        duration: result.audio_duration_seconds,
        text: result.transcript,
        segments: segmentsOf(result).map((s, id) => ({ id, start: s.start, end: s.end, text: s.text })),
        usage,
      };
    case "text":
      return textAnswer(result.transcript, "text/plain; charset=utf-8");
    case "srt":
      return textAnswer(
        segmentsOf(result)
          .map((s, i) => `${i + 1}\n${timestamp(s.start, ",")} --> ${timestamp(s.end, ",")}\n${cueText(s.text)}\n\n`)
          .join(""),
        "application/x-subrip; charset=utf-8",
      );
    case "vtt":
      return textAnswer(
        `WEBVTT\n\n${segmentsOf(result)
          .map((s) => `${timestamp(s.start, ".")} --> ${timestamp(s.end, ".")}\n${cueText(s.text)}\n\n`)
          .join("")}`,
        "text/vtt; charset=utf-8",
      );
  }
}

function textAnswer(text: string, contentType: string): Response {
  return new Response(text, { headers: { "Content-Type": contentType } });
}

/** HH:MM:SS,mmm (SubRip) or HH:MM:SS.mmm (WebVTT). */
function timestamp(seconds: number, separator: "," | "."): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** A cue's text: no blank line (it would end the cue) and no "-->" (it would read as a timing line). */
function cueText(text: string): string {
  return text
    .trim()
    .replace(/\n\s*\n/g, "\n")
    .replaceAll("-->", "->");
}

// ---------------------------------------------------------------------------------------------------------------
// POST /audio/speech

const SPEECH_FORMATS = ["mp3", "opus", "wav", "pcm"] as const;

/** OpenAI's `pcm`: 16-bit signed little-endian mono samples at 24 kHz, without a header. */
export const OPENAI_PCM_SAMPLE_RATE = 24_000;

/** OpenAI's own voices: tools send one by default (alloy); here each means the language's default voice. */
export const OPENAI_VOICES = ["alloy", "ash", "ballad", "coral", "echo", "fable", "onyx", "nova", "sage", "shimmer", "verse", "marin", "cedar"];

const VoiceId = z.string().max(100, "voice must be a voice id");

export const OpenAISpeechRequest = z
  .object({
    model: z
      .string({ error: "model is required: lugha-tts, or lugha-tts-<language> such as lugha-tts-lg" })
      .max(64, "model is not a model here")
      .describe("lugha-tts (the language from `language`) or lugha-tts-<language> (lugha-tts-lg, lugha-tts-sw, ...): GET /models"),
    input: z.string({ error: "input is required: the text to speak" }).describe("The text to speak (at most 2,000 characters)"),
    voice: z
      .union([VoiceId, z.object({ id: VoiceId })], { error: () => "voice must be a voice id" })
      .optional()
      .describe(
        `A voice id of GET /api/v1/languages (248, female, ...), or {"id": …}. OpenAI's own voice names (${OPENAI_VOICES.join(", ")}) and none mean the language's default voice.`,
      ),
    language: z
      .string({ error: "language must be a language code" })
      .max(32, "language must be a language code")
      .optional()
      .describe("lg, sw, tw, ... (ISO 639-1 where a language has one, else ISO 639-3); required unless the model names it"),
    response_format: z
      .enum(SPEECH_FORMATS, { error: () => "response_format must be one of mp3, opus, wav, pcm (aac and flac are not available here)" })
      .default("mp3")
      .describe("mp3 (default), opus (Ogg/Opus), wav, or pcm (16-bit little-endian mono at 24 kHz, no header)"),
    speed: z.coerce
      .number({ error: "speed must be a number" })
      .refine((speed) => speed === 1, "speed is not supported here: the voices speak at their own pace (leave speed out, or send 1)")
      .optional()
      .describe("1 only"),
    instructions: z.string({ error: "instructions must be a string" }).optional().describe("Accepted; no effect (no voice here takes instructions)"),
    stream_format: z
      .enum(["audio"], { error: () => "stream_format must be audio: the audio comes as a file, not as events" })
      .optional()
      .describe("audio only"),
  })
  .describe("OpenAI POST /audio/speech (JSON)");
export type OpenAISpeechRequest = z.infer<typeof OpenAISpeechRequest>;

/** The request as the API's own synthesis (POST /api/v1/speech/tts's service), and its audio in the format asked for. */
export async function openaiSpeak(request: OpenAISpeechRequest, deps: SpeechDeps, options: { startedAt: number }) {
  const language = requestLanguage(request.model, request.language, "tts");
  const voice = typeof request.voice === "object" ? request.voice.id : request.voice;
  const pcm = request.response_format === "pcm";
  // pcm is made from the provider's own audio, as wav is.
  const format: TtsFormat = request.response_format === "pcm" ? "wav" : request.response_format;
  const { response: meta, audio } = await synthesizeSpeech(
    { text: request.input, language, voice: voice && !OPENAI_VOICES.includes(voice) ? voice : undefined, raw: true, format },
    deps,
    options,
  );
  if (!pcm) return { audio, contentType: meta.content_type, meta };
  const raw = await encodeRawPcm(audio, (await analyzeAudio(audio)).format, OPENAI_PCM_SAMPLE_RATE);
  return { audio: raw.audio, contentType: "audio/pcm", meta };
}

const TimedSegment = z.object({ id: z.number().int(), start: z.number(), end: z.number(), text: z.string() });

export const OpenAITranscription = z
  .object({
    text: z.string().describe("The transcript"),
    usage: z.object({ type: z.literal("duration"), seconds: z.number().describe("The recording's duration") }),
    task: z.literal("transcribe").optional().describe("verbose_json"),
    language: z.string().optional().describe("verbose_json: the language's English name, lower case (luganda)"),
    duration: z.number().optional().describe("verbose_json: seconds"),
    segments: z.array(TimedSegment).optional().describe("verbose_json: the timed parts (id, start, end, text)"),
  })
  .describe("An OpenAI transcription (json or verbose_json)");

export const OpenAIModel = z
  .object({ id: z.string(), object: z.literal("model"), created: z.number().int().describe("0"), owned_by: z.string() })
  .describe("An OpenAI model");

export const OpenAIModelList = z.object({ object: z.literal("list"), data: z.array(OpenAIModel) }).describe("OpenAI models");
