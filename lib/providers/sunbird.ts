import { codePointLength } from "@/lib/kit/text";
import type { UpstreamResponse } from "@/lib/kit/upstream-fetch";
import { audioFileName } from "./audio";
import { mapLimited, transcribeWindows, windowBody, windowsFor } from "./audio-windows";
import { CircuitBreaker, DEFAULT_CIRCUIT_OPTIONS, DEFAULT_HANG_OPTIONS } from "./circuit";
import { BaseClient, type ClientOptions } from "./client";
import { SUNBIRD_ORPHEUS_VOICES, SUNBIRD_SPARK_VOICES, SUNBIRD_STT_LANGUAGES, SUNBIRD_TRANSLATE_LANGUAGES, toIso3 } from "./codes";
import { catalogueSettings } from "./deployment";
import type { AudioFormat } from "./descriptor";
import { errorForStatus, isRecord, parseRetryAfter, tryParseJson } from "./http";
import {
  type ProviderClient,
  ProviderError,
  type SynthesizeBatchRequest,
  type SynthesizeRequest,
  type SynthesizeResult,
  type TranscribeRequest,
  type TranscribeResult,
  type TranslateRequest,
  type TranslateResult,
} from "./types";

/** provider_a's own limit; Sunflower has no hard cap but generates at most 1024 tokens. */
export const SUNBIRD_MAX_TEXT_CHARS = 5_000;
/**
 * The longest text sent to Sunflower in one call, so that its translation fits the 1,024 tokens it generates (a longer
 * answer comes back cut, with no error). Sized for the worst case of its pairs: an African-language side tokenised at
 * about 2 characters per token and a translation up to 1.3 times the source's length gives 1,200 × 1.3 / 2 = 780
 * tokens, a quarter below the cap. Longer texts are split at sentence boundaries and translated chunk by chunk.
 */
export const SUNBIRD_MAX_CHUNK_CHARS = 1_200;
/** Sunbird does not name the model in its answer; /tasks/translate runs Sunflower since 2026-06-13. */
export const SUNBIRD_TRANSLATE_MODEL = "sunflower";
/** Sunbird does not name its STT model either (Whisper large-v3 fine-tuned, on Modal). */
export const SUNBIRD_STT_MODEL = "sunbird-stt";
/** The longest text one synthesis takes, per model (a batch item too). */
export const SUNBIRD_TTS_TEXT_LIMITS = { "orpheus-3b-tts": 2_000, "spark-tts": 10_000 } as const;
type TtsModel = keyof typeof SUNBIRD_TTS_TEXT_LIMITS;
/** Items of one POST /tasks/audio/speech/batch (Sunbird refuses more); more pieces go in further requests. */
export const SUNBIRD_BATCH_MAX_ITEMS = 128;
/**
 * The longest piece of a long text sent as one Orpheus batch item (an item may hold 2,000 characters). Sunbird
 * synthesises a batch's items side by side (continuous batching on its GPU), so a batch answers when its longest item is
 * done: pieces of a few sentences (500 characters, under a minute of speech) answer a long text about as fast as one
 * paragraph, for the same single quota unit that fewer, longer items would cost.
 */
export const SUNBIRD_TTS_PIECE_CHARS = 500;
/** Signed audio links of a batch downloaded at once (Cloud Storage: no quota unit). */
const DOWNLOAD_CONCURRENCY = 4;

/**
 * How long Sunbird's own backend works on one speech request before it gives up: 120 s for a transcription (Modal
 * Whisper), 180 s for a synthesis (Orpheus). Silence shorter than that is Sunbird working, not Sunbird hung, so the
 * circuit breaker's hang detection waits at least this long on a speech call (the attempt timeout and the request's
 * deadline still apply).
 */
export const SUNBIRD_SPEECH_BACKEND_MS = 180_000;
/**
 * What the default (Modal) transcription path takes: it forwards any bytes to the model, which decodes these; FLAC is
 * sent as WAV. How much audio goes in one request is SUNBIRD_STT_WINDOW_SECONDS (the catalogue settings).
 */
export const SUNBIRD_STT_NATIVE_FORMATS: readonly AudioFormat[] = ["wav", "mp3", "ogg", "m4a", "webm"];
/** Windows of one recording in flight at once. */
export const SUNBIRD_WINDOW_CONCURRENCY = 4;
/** Sunbird's body limit (a middleware answers 413 past it); windows are far below it, an upload sent whole may not be. */
export const SUNBIRD_MAX_BODY_BYTES = 100 * 1024 * 1024;

/**
 * Sunbird counts a request against its quotas before doing the work, so a request that timed out, failed with a 5xx or
 * lost its connection may well have been charged: none is sent again. Only a quota refusal that says when to come back
 * (429 with Retry-After) was refused before the work, and is waited out when the wait fits the deadline.
 */
export function sunbirdRetryable(err: ProviderError): boolean {
  return err.status === 429 && err.retryAfterMs !== undefined;
}

/** The labels of Sunbird's language identification (ISO 639-3). */
export const SUNBIRD_LANGUAGE_ID_LABELS: readonly string[] = ["ach", "teo", "eng", "lug", "lgg", "nyn"];
/** What /tasks/classify_language takes: 3 to 200 characters. */
const LANGUAGE_ID_TEXT = { min: 3, max: 200 } as const;
const LANGUAGE_NOT_DETECTED = "language not detected";

/** provider_a: Sunbird AI. */
export class SunbirdClient extends BaseClient implements ProviderClient {
  /**
   * Language identification's own circuit: a failing or slow classifier must not open translation's circuit, and a
   * translation outage must not stop identification (a different service behind the same API).
   */
  readonly languageIdCircuit: CircuitBreaker;

  constructor(opts: ClientOptions) {
    const hang = opts.circuit?.hang ?? DEFAULT_HANG_OPTIONS;
    super("provider_a", {
      ...opts,
      policy: { retryable: sunbirdRetryable, ...opts.policy },
      circuit: {
        ...opts.circuit,
        hang: {
          ...hang,
          floorMs: { ...hang.floorMs, speech: Math.max(hang.floorMs.speech, SUNBIRD_SPEECH_BACKEND_MS) },
          coldMs: { ...hang.coldMs, speech: Math.max(hang.coldMs.speech, SUNBIRD_SPEECH_BACKEND_MS) },
        },
      },
    });
    this.languageIdCircuit = new CircuitBreaker(this.id, { ...DEFAULT_CIRCUIT_OPTIONS, ...opts.circuit });
  }

  /**
   * POST /tasks/classify_language {text}: the language's ISO 639-3 code (one of SUNBIRD_LANGUAGE_ID_LABELS), or null
   * when Sunbird answers "language not detected" (its best label under 0.9 probability) or the text is too short to
   * ask. Sunbird neither counts nor rate-limits language identification, so the call bypasses the upstream budget;
   * it is made once (no retry) under its own circuit, within the caller's deadline. Over 200 characters, the first
   * 200 up to a word boundary are sent.
   */
  async classifyLanguage(text: string, req: { deadline: number; signal?: AbortSignal }): Promise<string | null> {
    if (!this.isConfigured) throw new ProviderError(this.id, "auth", "provider is not configured");
    const sample = languageIdSample(text);
    if (sample === undefined) return null;
    return this.languageIdCircuit.run(
      () =>
        this.sendTo(`${this.baseUrl}/tasks/classify_language`, false, {
          init: { method: "POST", headers: this.headers({ "content-type": "application/json" }), body: JSON.stringify({ text: sample }) },
          deadline: req.deadline,
          signal: req.signal,
          handle: async (res, signal) => {
            const body = await this.readJson(res, signal);
            const language = isRecord(body) ? body.language : undefined;
            if (language === LANGUAGE_NOT_DETECTED) return null;
            if (typeof language !== "string" || !SUNBIRD_LANGUAGE_ID_LABELS.includes(language))
              throw this.malformed("provider sent an unexpected response", res.status);
            return language;
          },
        }),
      req.signal,
    );
  }

  /** POST /tasks/translate {source_language, target_language, text} with ISO 639-3 codes. */
  async translate(req: TranslateRequest): Promise<TranslateResult> {
    const source = toIso3(req.source);
    const target = toIso3(req.target);
    if (!req.text.trim()) this.reject("text is empty");
    if (codePointLength(req.text) > SUNBIRD_MAX_TEXT_CHARS) this.reject(`text exceeds ${SUNBIRD_MAX_TEXT_CHARS} characters`, "TEXT_TOO_LONG");
    if (!SUNBIRD_TRANSLATE_LANGUAGES[source] || !SUNBIRD_TRANSLATE_LANGUAGES[target])
      this.reject("language not supported by provider", "UNSUPPORTED_LANGUAGE");
    if (source === target) this.reject("source and target languages must differ", "SAME_LANGUAGE");

    return this.call({
      path: "/tasks/translate",
      init: {
        method: "POST",
        headers: this.headers({ "content-type": "application/json" }),
        body: JSON.stringify({ ...(!req.inferSource && { source_language: source }), target_language: target, text: req.text }),
      },
      deadline: req.deadline,
      signal: req.signal,
      handle: async (res, signal) => ({
        translatedText: this.parseTranslation(res, await this.readJson(res, signal)),
        model: SUNBIRD_TRANSLATE_MODEL,
      }),
    });
  }

  /**
   * POST /tasks/audio/transcriptions, multipart `audio` + `language` (ISO 639-3, one of ten). The default path does not
   * shorten a long recording: its backend waits 120 s and then answers 502 (a request Sunbird has already charged). So a
   * recording longer than the window setting goes in windows (./audio-windows.ts), each its own request.
   */
  async transcribe(req: TranscribeRequest): Promise<TranscribeResult> {
    const language = toIso3(req.language);
    if (!SUNBIRD_STT_LANGUAGES.includes(language)) this.reject("language not supported for speech-to-text by provider", "UNSUPPORTED_LANGUAGE");
    if (req.audio.byteLength === 0) this.reject("audio is empty");
    const { windows, contentType } = await windowsFor(this.id, req, {
      native: SUNBIRD_STT_NATIVE_FORMATS,
      maxSeconds: catalogueSettings().sunbirdSttWindowSeconds,
    });
    if (windows.some((w) => w.byteLength > SUNBIRD_MAX_BODY_BYTES))
      this.reject("recording is larger than the provider accepts in one request", "AUDIO_TOO_LARGE");
    const joined = await transcribeWindows(windows, SUNBIRD_WINDOW_CONCURRENCY, (window) => {
      const form = new FormData();
      form.set("audio", new Blob([windowBody(window.audio)], { type: contentType }), audioFileName(contentType));
      form.set("language", language);
      return this.call({
        path: "/tasks/audio/transcriptions",
        speech: true,
        init: { method: "POST", headers: this.headers(), body: form },
        deadline: req.deadline,
        signal: req.signal,
        handle: async (res, signal) => {
          const body = await this.readJson(res, signal);
          if (!isRecord(body) || typeof body.audio_transcription !== "string")
            throw this.malformed("provider sent an unexpected response", res.status);
          // The RunPod paths transcribe only the first ten minutes: a partial transcript is never passed off as whole.
          if (body.was_audio_trimmed === true)
            throw new ProviderError(
              this.id,
              "rejected",
              "provider transcribed only the first 10 minutes of the recording",
              res.status,
              undefined,
              "AUDIO_TRIMMED",
            );
          // diarization_output is filled only on the RunPod path with recognise_speakers; the default path gives no timing.
          return { text: body.audio_transcription };
        },
      });
    });
    return { ...joined, model: SUNBIRD_STT_MODEL };
  }

  /**
   * POST /tasks/audio/speech answers with a signed Cloud Storage URL that expires; the audio is fetched here, within the
   * same deadline and under a size cap, so callers always get bytes and never a link. The URL is fetched without our
   * token: it carries its own signature.
   */
  async synthesize(req: SynthesizeRequest): Promise<SynthesizeResult> {
    if (!req.text.trim()) this.reject("text is empty");
    const { model, voice, language } = this.chooseVoice(req);
    if (codePointLength(req.text) > SUNBIRD_TTS_TEXT_LIMITS[model])
      this.reject(`text exceeds ${SUNBIRD_TTS_TEXT_LIMITS[model]} characters`, "TEXT_TOO_LONG");
    const body = { text: req.text, model, voice, response_mode: "url", ...(language && { language }) };

    return this.guard(async (upstream) => {
      const meta = await this.sendTo(
        `${this.baseUrl}/tasks/audio/speech`,
        true,
        {
          init: { method: "POST", headers: this.headers({ "content-type": "application/json" }), body: JSON.stringify(body) },
          deadline: req.deadline,
          signal: req.signal,
          handle: async (res, signal) => this.parseSpeech(res, await this.readJson(res, signal)),
        },
        upstream,
      );
      const { audio, contentType } = await this.download(meta.audioUrl, req);
      return { audio, contentType, model: meta.model ?? model, voice: meta.voice ?? voice };
    }, req.signal);
  }

  /**
   * POST /tasks/audio/speech/batch {model, items: [{text, voice, language}]}: Orpheus only, up to 128 items a request,
   * one quota unit a request however many items it holds (checked once, before the work). Each item answers with its own
   * status: the request is 200 when any item succeeded, 502 when all failed. Items that failed in a 200 answer (their
   * audio did not reach storage) are sent once more, together, in one further request (one more quota unit); an item
   * that fails again fails the whole call — no piece of the text is ever left out of the audio. A 502 for the whole
   * batch is not sent again (it was charged, as any Sunbird 5xx; see sunbirdRetryable). The signed links are then
   * downloaded as in `synthesize`.
   */
  async synthesizeBatch(req: SynthesizeBatchRequest): Promise<SynthesizeResult[]> {
    if (req.texts.length === 0 || req.texts.some((text) => !text.trim())) this.reject("text is empty");
    const { model, voice, language } = this.chooseVoice(req);
    if (model !== "orpheus-3b-tts") this.reject("provider synthesises batches with Orpheus voices only", "BATCH_UNSUPPORTED");
    const limit = SUNBIRD_TTS_TEXT_LIMITS[model];
    if (req.texts.some((text) => codePointLength(text) > limit)) this.reject(`text exceeds ${limit} characters`, "TEXT_TOO_LONG");

    return this.guard(async (upstream) => {
      const links = new Array<SpeechLink>(req.texts.length);
      const send = async (indexes: readonly number[]): Promise<number[]> => {
        const body = { model, items: indexes.map((i) => ({ text: req.texts[i], voice, ...(language && { language }) })) };
        const answers = await this.sendTo(
          `${this.baseUrl}/tasks/audio/speech/batch`,
          true,
          {
            init: { method: "POST", headers: this.headers({ "content-type": "application/json" }), body: JSON.stringify(body) },
            deadline: req.deadline,
            signal: req.signal,
            handle: async (res, signal) => this.parseBatch(res, await this.readJson(res, signal), indexes.length),
          },
          upstream,
        );
        answers.forEach((link, j) => {
          if (link) links[indexes[j]] = link;
        });
        return indexes.filter((_, j) => !answers[j]);
      };
      const all = req.texts.map((_, i) => i);
      for (let first = 0; first < all.length; first += SUNBIRD_BATCH_MAX_ITEMS) {
        const failed = await send(all.slice(first, first + SUNBIRD_BATCH_MAX_ITEMS));
        const lost = failed.length > 0 ? await send(failed) : [];
        if (lost.length > 0)
          throw new ProviderError(
            this.id,
            "unavailable",
            `provider failed to synthesise ${lost.length} of the ${req.texts.length} parts of the text, also when asked again`,
            200,
            undefined,
            "BATCH_ITEMS_FAILED",
          );
      }
      return mapLimited(links, DOWNLOAD_CONCURRENCY, async (link) => ({
        ...(await this.download(link.audioUrl, req)),
        model: link.model ?? model,
        voice: link.voice ?? voice,
      }));
    }, req.signal);
  }

  /** The signed link's audio, fetched without our token (it carries its own signature) within the call's deadline. */
  private download(url: string, req: { deadline: number; signal?: AbortSignal }) {
    return this.sendTo(url, true, {
      init: { method: "GET" },
      deadline: req.deadline,
      signal: req.signal,
      handle: (res, signal) => this.readAudio(res, signal, DOWNLOAD),
    });
  }

  /**
   * An explicit voice picks the model (spark-tts ids 241..248, or an Orpheus catalog tag). Without one: Orpheus (the
   * API default) with the first catalog voice for the language, else the spark-tts speaker for it (Lugbara has no
   * Orpheus voice).
   */
  private chooseVoice(req: Pick<SynthesizeRequest, "language" | "voice">): { model: TtsModel; voice: string; language?: string } {
    const language = toIso3(req.language);
    if (req.voice !== undefined) {
      const voice = req.voice;
      if (SUNBIRD_SPARK_VOICES[voice]) return { model: "spark-tts", voice };
      const orpheusLanguage = Object.keys(SUNBIRD_ORPHEUS_VOICES).find((l) => SUNBIRD_ORPHEUS_VOICES[l].includes(voice));
      if (orpheusLanguage) return { model: "orpheus-3b-tts", voice, language: orpheusLanguage };
      return this.reject("unknown voice for provider", "UNKNOWN_VOICE");
    }
    const orpheus = SUNBIRD_ORPHEUS_VOICES[language]?.[0];
    if (orpheus) return { model: "orpheus-3b-tts", voice: orpheus, language };
    const spark = Object.keys(SUNBIRD_SPARK_VOICES).find((id) => SUNBIRD_SPARK_VOICES[id] === language);
    if (spark) return { model: "spark-tts", voice: spark };
    return this.reject("language not supported for text-to-speech by provider", "UNSUPPORTED_LANGUAGE");
  }

  /** Reads output.translated_text, falling back to output.text (2024-era shape); output.Error means the job failed. */
  private parseTranslation(res: UpstreamResponse, body: unknown): string {
    if (!isRecord(body) || !isRecord(body.output)) throw this.malformed("provider sent an unexpected response", res.status);
    const { output } = body;
    const jobError = output.Error ?? output.error;
    if (jobError !== undefined && jobError !== null && jobError !== "")
      throw new ProviderError(this.id, "unavailable", "provider reported a failed translation job", res.status);
    const translated = typeof output.translated_text === "string" ? output.translated_text : output.text;
    if (typeof translated !== "string" || !translated.trim()) throw this.malformed("provider returned no translation", res.status);
    return translated;
  }

  private parseSpeech(res: UpstreamResponse, body: unknown): SpeechLink {
    const link = isRecord(body) ? this.speechLink(body, body.model) : undefined;
    if (!link) throw this.malformed("provider sent an unexpected response", res.status);
    return link;
  }

  /**
   * A batch answer: {model, results: [{index, status: "ok" | "error", audio_url?, voice, ...}]}, one result per item
   * sent. Each item's link in the order sent, or undefined for an item that failed.
   */
  private parseBatch(res: UpstreamResponse, body: unknown, items: number): (SpeechLink | undefined)[] {
    const results = isRecord(body) && Array.isArray(body.results) ? body.results : undefined;
    if (!isRecord(body) || !results || results.length !== items) throw this.malformed("provider sent an unexpected response", res.status);
    const links = new Array<SpeechLink | undefined>(items);
    const seen = new Set<number>();
    for (const result of results) {
      const index = isRecord(result) ? result.index : undefined;
      if (!isRecord(result) || typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= items || seen.has(index))
        throw this.malformed("provider sent an unexpected response", res.status);
      seen.add(index);
      if (result.status === "error") continue;
      const link = result.status === "ok" ? this.speechLink(result, body.model) : undefined;
      if (!link) throw this.malformed("provider sent an unexpected response", res.status);
      links[index] = link;
    }
    return links;
  }

  /** The signed link and the model and voice an answer (or a batch item) names; undefined without a usable link. */
  private speechLink(fields: Record<string, unknown>, model: unknown): SpeechLink | undefined {
    const audioUrl = typeof fields.audio_url === "string" ? fields.audio_url : undefined;
    if (!audioUrl || !this.isAllowedAudioUrl(audioUrl)) return undefined;
    return {
      audioUrl,
      model: typeof model === "string" ? model : undefined,
      voice: typeof fields.voice === "string" || typeof fields.voice === "number" ? String(fields.voice) : undefined,
    };
  }

  /** http(s) only, and https whenever the API itself is reached over https. */
  private isAllowedAudioUrl(value: string): boolean {
    try {
      const { protocol } = new URL(value);
      return protocol === "https:" || (protocol === "http:" && !this.baseUrl.startsWith("https:"));
    } catch {
      return false;
    }
  }

  /**
   * Maps the four Sunbird error shapes ({detail}, {error_code,message,details}, {errors:[...]}, {error}) to a safe
   * ProviderError. A 405 is the SPA catch-all answering a POST to a path that no longer exists, not a token problem.
   */
  protected failure(res: UpstreamResponse, text: string, context?: string): ProviderError {
    const status = res.status;
    // Cloud Storage answers an expired or bad signature with 400/403 XML: that is a failed download, not our request.
    if (context === DOWNLOAD) return new ProviderError(this.id, "unavailable", "could not download the synthesized audio", status);
    const info = parseSunbirdError(tryParseJson(text));
    const retryAfterMs = parseRetryAfter(res.headers.get("retry-after")) ?? info.retryAfterMs;
    const message = info.message ?? "";
    if (status === 422 && info.invalidField === "language")
      return new ProviderError(this.id, "rejected", "language not supported by provider", status, undefined, "UNSUPPORTED_LANGUAGE");
    if (status === 400 || status === 422) {
      if (/unsupported language/i.test(message))
        return new ProviderError(this.id, "rejected", "language not supported by provider", status, undefined, info.code ?? "UNSUPPORTED_LANGUAGE");
      if (/must be different/i.test(message))
        return new ProviderError(this.id, "rejected", "source and target languages must differ", status, undefined, info.code);
    }
    if (status === 429 && /quota/i.test(message))
      return new ProviderError(this.id, "rate_limited", "provider quota exhausted", status, retryAfterMs, info.code);
    if (status === 503 && /loading/i.test(message))
      return new ProviderError(this.id, "unavailable", "provider model is loading", status, retryAfterMs, info.code);
    // The default STT path gives up on a long transcription after 120 s: charged, so never sent again (see sunbirdRetryable).
    if (status === 502 && /timeout/i.test(message))
      return new ProviderError(
        this.id,
        "timeout",
        "provider timed out transcribing the recording (its backend waits 120 s)",
        status,
        undefined,
        info.code ?? "STT_TIMEOUT",
      );
    if (status === 413)
      return new ProviderError(this.id, "rejected", "recording is larger than the provider accepts (100 MB)", status, undefined, "AUDIO_TOO_LARGE");
    if (status === 503 && /timed out|timeout/i.test(message))
      return new ProviderError(this.id, "unavailable", "provider timed out", status, retryAfterMs, info.code);
    return errorForStatus(this.id, status, retryAfterMs, info.code);
  }
}

/** Marks the signed-URL download step for `failure`. */
const DOWNLOAD = "download";

/** Where a synthesis's audio waits (a signed Cloud Storage link), and the model and voice that spoke. */
interface SpeechLink {
  audioUrl: string;
  model?: string;
  voice?: string;
}

interface SunbirdErrorInfo {
  code?: string;
  message?: string;
  retryAfterMs?: number;
  /** The body field a 422 validation error names (its loc's last part), e.g. "language" for a value outside the enum. */
  invalidField?: string;
}

function parseSunbirdError(body: unknown): SunbirdErrorInfo {
  if (!isRecord(body)) return {};
  if (typeof body.error_code === "string") {
    const details = Array.isArray(body.details) ? body.details : [];
    const hint = details.find((d): d is Record<string, unknown> => isRecord(d) && typeof d.retry_after_seconds === "number");
    return {
      code: body.error_code,
      message: typeof body.message === "string" ? body.message : undefined,
      retryAfterMs: hint ? Number(hint.retry_after_seconds) * 1000 : undefined,
    };
  }
  if (Array.isArray(body.errors)) {
    const first = body.errors.find(isRecord);
    const loc = first && Array.isArray(first.loc) ? first.loc : [];
    const field = loc[loc.length - 1];
    return { code: "VALIDATION_ERROR", ...(typeof field === "string" && { invalidField: field }) };
  }
  if (typeof body.detail === "string") return { message: body.detail };
  if (Array.isArray(body.detail)) return { code: "VALIDATION_ERROR" };
  if (typeof body.error === "string") return { message: body.error };
  return {};
}

/** The part of a text language identification is asked about, or undefined when the text is too short. */
function languageIdSample(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length < LANGUAGE_ID_TEXT.min) return undefined;
  if (trimmed.length <= LANGUAGE_ID_TEXT.max) return trimmed;
  const cut = trimmed.slice(0, LANGUAGE_ID_TEXT.max);
  const space = cut.lastIndexOf(" ");
  return space >= LANGUAGE_ID_TEXT.min ? cut.slice(0, space) : cut;
}
