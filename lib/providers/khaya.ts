import { processLog } from "@/lib/kit/log";
import { codePointLength } from "@/lib/kit/text";
import type { UpstreamResponse } from "@/lib/kit/upstream-fetch";
import { transcribeWindows, type WindowTranscript, windowBody, windowsFor } from "./audio-windows";
import { BaseClient, type ClientOptions } from "./client";
import { KHAYA_ASR_LANGUAGES, KHAYA_TRANSLATE_LANGUAGES, KHAYA_TTS_LANGUAGES, toIso3 } from "./codes";
import type { AudioFormat } from "./descriptor";
import { errorForStatus, isRecord, mediaType, parseRetryAfter, tryParseJson } from "./http";
import {
  type ProviderClient,
  ProviderError,
  type SynthesizeRequest,
  type SynthesizeResult,
  type TranscribeRequest,
  type TranscribeResult,
  type TranscriptSegment,
  type TranslateRequest,
  type TranslateResult,
} from "./types";

/** Khaya's per-request limit. Longer input is refused, never truncated (that would answer 200 with half a translation). */
export const KHAYA_MAX_TEXT_CHARS = 1_000;
export const KHAYA_TRANSLATE_MODEL = "khaya-v1";
export const KHAYA_STT_MODEL = "khaya-asr-v3";
/** The formats Khaya's ASR takes (its Content-Type list); WebM is decoded and sent as WAV. */
export const KHAYA_STT_NATIVE_FORMATS: readonly AudioFormat[] = ["wav", "mp3", "flac", "ogg"];
/**
 * The longest audio sent to Khaya's ASR at once. Khaya publishes no limit; its SDK waits 30 s for an answer by default
 * and reports 3.1 s for a 22.8 s clip (about 7 times real time), so 120 s of audio comes back in about 16 s, half that wait.
 */
export const KHAYA_STT_WINDOW_SECONDS = 120;
const KHAYA_WINDOW_CONCURRENCY = 4;
export const KHAYA_TTS_MODEL = "khaya-tts-v1";
/**
 * The longest text sent to Khaya's TTS in one call. Khaya publishes no TTS limit; its gateway's translation limit
 * (1,000 characters) is the one it states, and each piece is a call of its own (a quota unit), so pieces are that long.
 */
export const KHAYA_TTS_PIECE_CHARS = KHAYA_MAX_TEXT_CHARS;
/** TTS v1 speakers; an unknown one is silently replaced upstream, so we refuse it rather than misreport the voice. */
export const KHAYA_SPEAKERS: readonly string[] = ["female", "male_low", "male_high"];

/** provider_b: GhanaNLP Khaya behind Azure API Management. */
export class KhayaClient extends BaseClient implements ProviderClient {
  constructor(opts: ClientOptions) {
    super("provider_b", opts);
  }

  /**
   * The pair code in ISO 639-3 ("eng-twi"): the form every Khaya API version accepts; two-letter codes are legacy
   * upstream and draw deprecation warnings. Khaya pairs always have English on one side.
   */
  static pairCode(source: string, target: string): string | undefined {
    const s = source.trim().toLowerCase();
    const t = target.trim().toLowerCase();
    if (s === "en" && KHAYA_TRANSLATE_LANGUAGES[t]) return `eng-${toIso3(t)}`;
    if (t === "en" && KHAYA_TRANSLATE_LANGUAGES[s]) return `${toIso3(s)}-eng`;
    return undefined;
  }

  /**
   * POST /v1/translate {in, lang}. The 200 body is a JSON string ("Wo ho te s\u025bn?"), decoded with JSON.parse;
   * stripping the quotes would break escapes.
   */
  async translate(req: TranslateRequest): Promise<TranslateResult> {
    if (!req.text.trim()) this.reject("text is empty");
    if (codePointLength(req.text) > KHAYA_MAX_TEXT_CHARS) this.reject(`text exceeds ${KHAYA_MAX_TEXT_CHARS} characters`, "TEXT_TOO_LONG");
    const lang = KhayaClient.pairCode(req.source, req.target);
    if (!lang) this.reject("language pair not supported by provider", "UNSUPPORTED_LANGUAGE_PAIR");

    return this.call({
      path: "/v1/translate",
      init: {
        method: "POST",
        headers: this.headers({ "content-type": "application/json" }),
        body: JSON.stringify({ in: req.text, lang }),
      },
      deadline: req.deadline,
      signal: req.signal,
      handle: async (res, signal) => {
        const body = await this.readJson(res, signal);
        if (typeof body !== "string") throw this.malformed("provider sent an unexpected response", res.status);
        if (!body.trim()) throw this.malformed("provider returned no translation", res.status);
        return { translatedText: body, model: KHAYA_TRANSLATE_MODEL };
      },
    });
  }

  /**
   * POST /asr/v3/transcribe?language=<639-3>&timestamps=segment with the raw audio bytes (not multipart) →
   * {text, warnings?, timings?: {segments: [{start, end, text}]}}. Should Khaya refuse timestamps for the language
   * (400 UNSUPPORTED_TIMESTAMPS), the recording is sent again without them, and the answer has no segments.
   */
  async transcribe(req: TranscribeRequest): Promise<TranscribeResult> {
    const language = toIso3(req.language);
    if (!KHAYA_ASR_LANGUAGES.includes(language)) this.reject("language not supported for speech-to-text by provider", "UNSUPPORTED_LANGUAGE");
    if (req.audio.byteLength === 0) this.reject("audio is empty");
    const { windows, contentType } = await windowsFor(this.id, req, { native: KHAYA_STT_NATIVE_FORMATS, maxSeconds: KHAYA_STT_WINDOW_SECONDS });

    const send = (audio: Uint8Array, timestamps: boolean) =>
      this.call({
        path: `/asr/v3/transcribe?language=${encodeURIComponent(language)}${timestamps ? "&timestamps=segment" : ""}`,
        speech: true,
        init: { method: "POST", headers: this.headers({ "content-type": contentType }), body: windowBody(audio) },
        deadline: req.deadline,
        signal: req.signal,
        handle: async (res, signal): Promise<WindowTranscript> => {
          // v3 answers {text}; v1 a bare JSON string.
          const body = await this.readJson(res, signal);
          const transcript = typeof body === "string" ? body : isRecord(body) ? body.text : undefined;
          if (typeof transcript !== "string") throw this.malformed("provider sent an unexpected response", res.status);
          if (isRecord(body)) noteDeprecations(language, body.warnings);
          return { text: transcript, segments: isRecord(body) ? khayaSegments(body.timings) : null };
        },
      });
    const joined = await transcribeWindows(windows, KHAYA_WINDOW_CONCURRENCY, (window) =>
      send(window.audio, true).catch((err: unknown) => {
        if (err instanceof ProviderError && /TIMESTAMPS/.test(err.upstreamCode ?? "")) return send(window.audio, false);
        throw err;
      }),
    );
    return { ...joined, model: KHAYA_STT_MODEL };
  }

  /** POST /tts/v1/tts {text, language, speaker?} → raw WAV bytes. */
  async synthesize(req: SynthesizeRequest): Promise<SynthesizeResult> {
    const language = toIso3(req.language);
    if (!req.text.trim()) this.reject("text is empty");
    if (!KHAYA_TTS_LANGUAGES.includes(language)) this.reject("language not supported for text-to-speech by provider", "UNSUPPORTED_LANGUAGE");
    if (req.voice !== undefined && !KHAYA_SPEAKERS.includes(req.voice)) this.reject("unknown voice for provider", "UNKNOWN_VOICE");

    return this.call({
      path: "/tts/v1/tts",
      speech: true,
      init: {
        method: "POST",
        headers: this.headers({ "content-type": "application/json" }),
        body: JSON.stringify({ text: req.text, language, ...(req.voice && { speaker: req.voice }) }),
      },
      deadline: req.deadline,
      signal: req.signal,
      handle: async (res, signal) => ({ ...(await this.readAudio(res, signal)), model: KHAYA_TTS_MODEL, voice: req.voice ?? "default" }),
    });
  }

  /** An APIM subscription key, not a Bearer token; no-cache as the official SDK sends. */
  protected defaultHeaders(): Record<string, string> {
    const base = { "cache-control": "no-cache" };
    return this.credential ? { ...base, "ocp-apim-subscription-key": this.credential } : base;
  }

  /**
   * Three error shapes: the APIM gateway ({statusCode,message}), the backend ({error:{code,message,details}}) and the
   * legacy v1 backend ({type,message}); plus text/plain and HTML pages from a broken gateway.
   */
  protected failure(res: UpstreamResponse, text: string): ProviderError {
    const status = res.status;
    const body = tryParseJson(text);
    const gatewayMessage = isRecord(body) && typeof body.message === "string" ? body.message : "";
    const code = backendErrorCode(body);
    const retryAfterMs = parseRetryAfter(res.headers.get("retry-after")) ?? retryHintFromMessage(gatewayMessage);

    if (mediaType(res) === "text/html") {
      // "Web App - Unavailable" pages arrive as 403 and must not read as a credential problem.
      return new ProviderError(this.id, "unavailable", `provider unavailable (HTTP ${status})`, status);
    }
    if (status === 403 && /quota/i.test(gatewayMessage))
      return new ProviderError(this.id, "rate_limited", "provider quota exhausted", status, retryAfterMs);
    if (status === 400 || status === 422) {
      const message = code ? REJECTION_MESSAGES[code] : undefined;
      if (message) return new ProviderError(this.id, "rejected", message, status, undefined, code);
    }
    return errorForStatus(this.id, status, retryAfterMs, code);
  }
}

/** The codes whose deprecation warning was already logged by this process: logged once per code, not per request. */
const warnedCodes = new Set<string>();

/**
 * Logs Khaya's deprecation warnings (e.g. "Language code 'tw' is a legacy code. Please update to 'twi' ...") once per
 * code we sent. The upstream text is not logged: it is reduced to its length, so nothing from an upstream body reaches
 * the logs verbatim beyond our own wording.
 */
export function noteDeprecations(code: string, warnings: unknown): void {
  if (!Array.isArray(warnings) || warnings.length === 0 || warnedCodes.has(code)) return;
  const deprecations = warnings.filter((w): w is string => typeof w === "string" && /legacy|deprecat/i.test(w));
  if (deprecations.length === 0) return;
  warnedCodes.add(code);
  processLog().warn(
    { event: "language_code_deprecated", provider: "provider_b", code, warnings: deprecations.length },
    "Khaya reports a language code as deprecated; update lib/providers/codes.ts",
  );
}

/** Forget which deprecation warnings were logged (tests). */
export function resetDeprecationLog(): void {
  warnedCodes.clear();
}

/** Our wording for Khaya's documented validation codes (its own messages are not passed on). */
const REJECTION_MESSAGES: Readonly<Record<string, string>> = {
  UNSUPPORTED_LANGUAGE_PAIR: "language pair not supported by provider",
  UNSUPPORTED_LANGUAGE_CODE: "language pair not supported by provider",
  UNSUPPORTED_LANGUAGE: "language not supported by provider",
  MISSING_TEXT: "text is empty",
  EMPTY_TEXT: "text is empty",
  EMPTY_AUDIO: "audio is empty",
  INVALID_AUDIO_FORMAT: "audio could not be decoded by provider",
  INVALID_SPEAKER: "unknown voice for provider",
};

/** The most specific backend code: the first detail's code, else the envelope's, else a legacy {type}. */
function backendErrorCode(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  if (isRecord(body.error)) {
    const details = Array.isArray(body.error.details) ? body.error.details : [];
    const first = details.find((d): d is Record<string, unknown> => isRecord(d) && typeof d.code === "string");
    if (first) return String(first.code);
    if (typeof body.error.code === "string") return body.error.code;
  }
  if (typeof body.type === "string") return body.type;
  return undefined;
}

/** APIM says "Try again in 5 seconds." even when a proxy drops the Retry-After header. */
function retryHintFromMessage(message: string): number | undefined {
  const m = /try again in (\d+) seconds?/i.exec(message);
  return m ? Number(m[1]) * 1000 : undefined;
}

/** `timings.segments` of an ASR answer as segments; null when absent or empty. */
function khayaSegments(timings: unknown): TranscriptSegment[] | null {
  if (!isRecord(timings) || !Array.isArray(timings.segments)) return null;
  const segments = timings.segments.flatMap((s): TranscriptSegment[] => {
    if (!isRecord(s) || typeof s.start !== "number" || typeof s.end !== "number") return [];
    const text = typeof s.text === "string" ? s.text : typeof s.segment === "string" ? s.segment : undefined;
    return text === undefined ? [] : [{ start: s.start, end: s.end, text: text.trim() }];
  });
  return segments.length ? segments : null;
}
