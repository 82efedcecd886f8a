import type { UpstreamResponse } from "@/lib/kit/upstream-fetch";
import { transcribeWindows, type UpstreamAudioLimits, windowBody, windowsFor } from "./audio-windows";
import { BaseClient, type ClientOptions, OUT_OF_CREDIT } from "./client";
import { DEFAULT_HF_ASR_MODEL, defaultHfTtsModel } from "./codes";
import type { AudioFormat } from "./descriptor";
import { errorForStatus, isRecord, parseRetryAfter, tryParseJson } from "./http";
import {
  type HfModelRoute,
  type ProviderClient,
  ProviderError,
  type SynthesizeRequest,
  type SynthesizeResult,
  type TranscribeRequest,
  type TranscribeResult,
  type TranslateRequest,
  type TranslateResult,
} from "./types";

/** The longest raw audio Whisper on hf-inference transcribes in one request. */
export const HF_WHISPER_WINDOW_SECONDS = 30;
/** Windows of one recording sent at the same time. */
export const HF_WINDOW_CONCURRENCY = 4;

/** Whisper on hf-inference decodes every format the gateway accepts (ffmpeg behind it). */
export const HF_ASR_NATIVE_FORMATS: readonly AudioFormat[] = ["wav", "mp3", "ogg", "webm", "flac", "m4a"];
const HF_ASR_AUDIO: UpstreamAudioLimits = { native: HF_ASR_NATIVE_FORMATS, maxSeconds: HF_WHISPER_WINDOW_SECONDS };

/** Marian (opus-mt) and NLLB models truncate input beyond 512 tokens: longer text is never sent (lib/translate/limits.ts estimates). */
export const HF_MAX_INPUT_TOKENS = 512;
/**
 * The longest text sent to an MMS-TTS model in one call: VITS synthesises its whole input in one pass, whose time and
 * memory grow with it, so pieces of a few sentences (under a minute of speech) stay well within what the serverless API
 * serves. Each piece is a call of its own.
 */
export const HF_TTS_PIECE_CHARS = 500;

/** provider_c: the Hugging Face inference router, hf-inference provider. */
export class HuggingFaceClient extends BaseClient implements ProviderClient {
  constructor(opts: ClientOptions) {
    super("provider_c", opts);
  }

  async translate(req: TranslateRequest): Promise<TranslateResult> {
    const route = req.hf;
    if (!route) return this.reject("no model configured for this language pair", "NO_MODEL_ROUTE");
    if (!req.text.trim()) this.reject("text is empty");
    const path = this.modelPath(route.model);
    const parameters = translationParameters(route);

    return this.call({
      path,
      init: {
        method: "POST",
        headers: this.headers({ "content-type": "application/json" }),
        body: JSON.stringify({ inputs: `${route.inputPrefix ?? ""}${req.text}`, ...(parameters && { parameters }) }),
      },
      deadline: req.deadline,
      signal: req.signal,
      handle: async (res, signal) => ({
        translatedText: this.parseTranslation(res, await this.readJson(res, signal, route.model)),
        model: route.model,
      }),
    });
  }

  /**
   * Raw audio bytes to an ASR model → {text}. hf-inference has no language parameter: Whisper detects the language
   * itself, so `req.language` only matters to the caller's routing.
   *
   * Whisper refuses raw audio over 30 s (long-form generation needs timestamp tokens, which only the JSON form can ask
   * for, and that form is reported to fail on the serverless API). So a longer recording goes as WAV windows of at most
   * HF_WHISPER_WINDOW_SECONDS (./audio-windows.ts) — HF_WINDOW_CONCURRENCY at a time, each its own request with its own
   * budget token, all under one deadline — and the texts are joined in order, one segment per window.
   */
  async transcribe(req: TranscribeRequest): Promise<TranscribeResult> {
    const model = req.hfModel ?? DEFAULT_HF_ASR_MODEL;
    const path = this.modelPath(model);
    if (req.audio.byteLength === 0) this.reject("audio is empty");
    const { windows, contentType } = await windowsFor(this.id, req, HF_ASR_AUDIO);
    return this.guard(async (upstream) => {
      const joined = await transcribeWindows(
        windows,
        HF_WINDOW_CONCURRENCY,
        (window) =>
          this.sendTo(
            `${this.baseUrl}${path}`,
            true,
            {
              init: { method: "POST", headers: this.headers({ "content-type": contentType }), body: windowBody(window.audio) },
              deadline: req.deadline,
              signal: req.signal,
              handle: async (res, signal) => {
                const body = await this.readJson(res, signal, model);
                if (!isRecord(body) || typeof body.text !== "string") throw this.malformed("provider sent an unexpected response", res.status);
                return { text: body.text };
              },
            },
            upstream,
          ),
        true,
      );
      return { ...joined, model };
    }, req.signal);
  }

  /**
   * {"inputs": text} to an MMS-TTS model → raw audio (FLAC unless Accept asks otherwise; WAV is asked for). Best effort:
   * hf-inference no longer lists text-to-speech, and a model that is not deployed is a "rejected" 404.
   */
  async synthesize(req: SynthesizeRequest): Promise<SynthesizeResult> {
    const model = req.hfModel ?? defaultHfTtsModel(req.language);
    const path = this.modelPath(model);
    if (!req.text.trim()) this.reject("text is empty");
    if (req.voice !== undefined && req.voice !== "default") this.reject("unknown voice for provider", "UNKNOWN_VOICE");

    return this.call({
      path,
      speech: true,
      init: {
        method: "POST",
        headers: this.headers({ "content-type": "application/json", accept: "audio/wav" }),
        body: JSON.stringify({ inputs: req.text }),
      },
      deadline: req.deadline,
      signal: req.signal,
      handle: async (res, signal) => ({ ...(await this.readAudio(res, signal, model)), model, voice: "default" }),
    });
  }

  /** `/hf-inference/models/{org}/{name}`; ids are validated so a route can never point outside the models tree. */
  protected modelPath(model: string): string {
    if (!/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(model) || model.includes("..")) this.reject("invalid model id", "INVALID_MODEL");
    return `/hf-inference/models/${model}`;
  }

  /** `[{"translation_text"}]`; a bare object is tolerated. */
  private parseTranslation(res: UpstreamResponse, body: unknown): string {
    const first = Array.isArray(body) ? body[0] : body;
    const translated = isRecord(first) ? first.translation_text : undefined;
    if (typeof translated !== "string") throw this.malformed("provider sent an unexpected response", res.status);
    if (!translated.trim()) throw this.malformed("provider returned no translation", res.status);
    return translated;
  }

  /**
   * HF errors: {"error": string | string[]}, sometimes {"errors":[{message}]}, or only an X-Error-Message header.
   * A 503 with estimated_time is a cold start: the wait hint lets the HTTP layer retry only when it fits the deadline.
   */
  protected failure(res: UpstreamResponse, text: string, model?: string): ProviderError {
    const status = res.status;
    const body = tryParseJson(text);
    const message = hfErrorMessage(body) ?? res.headers.get("x-error-message") ?? "";
    const code = res.headers.get("x-error-code") ?? undefined;
    const estimated = isRecord(body) && typeof body.estimated_time === "number" ? body.estimated_time : undefined;
    const retryAfterMs = parseRetryAfter(res.headers.get("retry-after")) ?? (estimated !== undefined ? Math.ceil(estimated * 1000) : undefined);
    const subject = model ? `model ${model}` : "model";

    if (status === 503 && (estimated !== undefined || /loading/i.test(message)))
      return new ProviderError(this.id, "unavailable", "model is loading", status, retryAfterMs, code ?? "MODEL_LOADING");
    // A model that is not deployed concerns this route only, not the provider's health.
    if (status === 404)
      return new ProviderError(this.id, "rejected", `${subject} is not deployed on provider`, status, undefined, code ?? "MODEL_NOT_DEPLOYED");
    if (status === 400 && /not supported by provider/i.test(message))
      return new ProviderError(this.id, "rejected", `${subject} is not available on provider`, status, undefined, code ?? "MODEL_NOT_SUPPORTED");
    if (status === 402)
      return new ProviderError(
        this.id,
        "rate_limited",
        "provider is out of credit (its monthly inference credits are spent)",
        status,
        undefined,
        OUT_OF_CREDIT,
      );
    return errorForStatus(this.id, status, retryAfterMs, code);
  }
}

function translationParameters(route: HfModelRoute): Record<string, string> | undefined {
  if (!route.srcLang && !route.tgtLang) return undefined;
  return { ...(route.srcLang && { src_lang: route.srcLang }), ...(route.tgtLang && { tgt_lang: route.tgtLang }) };
}

function hfErrorMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  if (typeof body.error === "string") return body.error;
  if (Array.isArray(body.error)) return body.error.filter((e) => typeof e === "string").join("; ");
  if (Array.isArray(body.errors)) {
    const first = body.errors.find(isRecord);
    if (first && typeof first.message === "string") return first.message;
  }
  return undefined;
}
