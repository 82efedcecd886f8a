import { KHAYA_ASR_LANGUAGES, KHAYA_TRANSLATE_LANGUAGES, KHAYA_TTS_LANGUAGES, toIso3 } from "../codes";
import { isRecord } from "../http";
import type { EmulatorControls } from "./controls";
import type { EmulatorOptions, ProviderBehaviour } from "./emulator";
import { binary, hash32, hex, htmlPage, json, jsonAscii, readJson, sandboxMark, text } from "./respond";
import { sandboxTranslation } from "./translation";
import { makeWav, parseWav, speechDurationSeconds } from "./wav";

const TRANSLATE_ISO3 = new Set(["eng", ...Object.keys(KHAYA_TRANSLATE_LANGUAGES).map(toIso3)]);
const ASR_TYPES = ["audio/wav", "audio/x-wav", "audio/wave", "audio/mpeg", "audio/flac", "audio/ogg"];
const TTS_SPEAKERS = ["male_low", "male_high", "female"];
const MAX_TEXT = 1_000;

/** Emulates translation-api.ghananlp.org behind Azure APIM. */
export function khayaBehaviour(opts: EmulatorOptions): ProviderBehaviour {
  const v2RejectsLegacy = opts.khayaV2RejectsLegacyCodes ?? true;
  const deprecated = new Set(opts.khayaDeprecatedCodes ?? []);

  /** APIM checks the subscription key before anything reaches the backend. */
  const authFailure = (req: Request, url: URL): Response | undefined => {
    if (opts.credential === undefined) return undefined;
    const key = req.headers.get("ocp-apim-subscription-key") ?? url.searchParams.get("subscription-key");
    if (!key)
      return gateway(401, "Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.");
    if (key !== opts.credential)
      return gateway(401, "Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.");
    return undefined;
  };

  const translate =
    (version: 1 | 2) =>
    async (req: Request): Promise<Response> => {
      const body = await readJson(req);
      if (!isRecord(body)) return validationFailed("INVALID_REQUEST", "The request body must be a JSON object", "body");
      const input = typeof body.in === "string" ? body.in : "";
      const lang = typeof body.lang === "string" ? body.lang.trim() : "";
      if (!lang) return validationFailed("MISSING_LANGUAGE_PAIR", "A language pair is required", "lang");
      if (!input.trim()) return validationFailed("MISSING_TEXT", "Text to translate is required", "in");
      if (input.length > MAX_TEXT) return validationFailed("TEXT_TOO_LONG", `Text exceeds the maximum length of ${MAX_TEXT} characters`, "in");
      const sides = lang.toLowerCase().split("-");
      if (version === 2 && v2RejectsLegacy) {
        const legacy = sides.find((s) => s.length === 2);
        if (legacy) return validationFailed("UNSUPPORTED_LANGUAGE_CODE", `Use '${toIso3(legacy)}' instead of '${legacy}'`, "language_pair");
      }
      const iso = sides.map(toIso3);
      const valid = iso.length === 2 && iso.every((s) => TRANSLATE_ISO3.has(s)) && iso.filter((s) => s === "eng").length === 1;
      if (!valid) return validationFailed("UNSUPPORTED_LANGUAGE_PAIR", `Language combination ${lang} cannot be used`, "language_pair");
      return jsonAscii(200, sandboxTranslation(opts, "khaya", lang, input));
    };

  const transcribe =
    (version: 1 | 3) =>
    async (req: Request, url: URL): Promise<Response> => {
      const requested = (url.searchParams.get("language") ?? "").toLowerCase();
      const language = toIso3(requested);
      if (!requested || !KHAYA_ASR_LANGUAGES.includes(language))
        return validationFailed("UNSUPPORTED_LANGUAGE", `Language '${requested}' is not supported`, "language");
      const timestamps = url.searchParams.get("timestamps");
      if (timestamps && version === 1) return validationFailed("UNSUPPORTED_TIMESTAMPS", "Timestamps are not supported on v1", "timestamps");
      if (timestamps && timestamps !== "word" && timestamps !== "segment")
        return validationFailed("INVALID_TIMESTAMPS", "timestamps must be 'word' or 'segment'", "timestamps");
      const bytes = new Uint8Array(await req.arrayBuffer());
      if (bytes.byteLength === 0) return validationFailed("EMPTY_AUDIO", "The audio payload is empty", "audio");
      const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
      const isWav = type.includes("wav");
      if (!ASR_TYPES.includes(type) || (isWav && !parseWav(bytes)))
        return validationFailed("INVALID_AUDIO_FORMAT", "The audio could not be decoded", "audio");
      const seconds = parseWav(bytes)?.durationSeconds ?? bytes.byteLength / 16_000;
      const transcript = sandboxMark("khaya", language, `transcript of ${seconds.toFixed(2)} s of audio #${hex(hash32(bytes), 8)}`);
      if (version === 1) return jsonAscii(200, transcript);
      const warnings =
        requested.length === 2 || deprecated.has(requested)
          ? [
              `Language code '${requested}' is a legacy code. Please update to '${language}' (ISO 639-3) when possible to ensure compatibility in the event of a full migration.`,
            ]
          : [];
      const whole = { start: 0, end: Number(seconds.toFixed(3)) };
      const timings = timestamps
        ? {
            timings: {
              unit: "seconds",
              granularity: timestamps,
              words: timestamps === "word" ? [{ word: transcript, ...whole }] : [],
              segments: timestamps === "segment" ? [{ text: transcript, ...whole }] : [],
            },
          }
        : {};
      return jsonAscii(200, { text: transcript, ...(warnings.length && { warnings }), ...timings });
    };

  /** v1 field `speaker`, v2 `speaker_id`; an unknown v1 speaker silently becomes the default voice, as upstream. */
  const synthesize =
    (version: 1 | 2) =>
    async (req: Request): Promise<Response> => {
      const body = await readJson(req);
      if (!isRecord(body)) return validationFailed("INVALID_REQUEST", "The request body must be a JSON object", "body");
      const value = typeof body.text === "string" ? body.text : "";
      if (!value.trim()) return validationFailed("EMPTY_TEXT", "Text is required", "text");
      if (typeof body.language !== "string" || !body.language) return validationFailed("MISSING_LANGUAGE", "A language is required", "language");
      const language = toIso3(body.language);
      if (!KHAYA_TTS_LANGUAGES.includes(language))
        return validationFailed("UNSUPPORTED_LANGUAGE", `Language '${body.language}' is not supported`, "language");
      const requested = version === 1 ? body.speaker : body.speaker_id;
      if (version === 2 && requested !== undefined && !TTS_SPEAKERS.includes(String(requested)))
        return validationFailed("INVALID_SPEAKER", `Unknown speaker '${String(requested)}'`, "speaker_id");
      if (version === 2 && body.format !== undefined && body.format !== "wav")
        return validationFailed("INVALID_REQUEST", "The sandbox produces format 'wav' only", "format");
      const speaker = typeof requested === "string" && TTS_SPEAKERS.includes(requested) ? requested : "female";
      const audio = makeWav({ durationSeconds: speechDurationSeconds(value), seed: hash32(`${speaker}|${language}|${value}`) });
      return binary(200, audio, "audio/wav");
    };

  type Route = (req: Request, url: URL) => Promise<Response>;
  const routes: Record<string, Route> = {
    "POST /v1/translate": translate(1),
    "POST /v2/translate": translate(2),
    "GET /v2/languages": async () =>
      json(200, {
        languages: Object.fromEntries([["eng", "English"], ...Object.entries(KHAYA_TRANSLATE_LANGUAGES).map(([c, n]) => [toIso3(c), n])]),
      }),
    "POST /asr/v1/transcribe": transcribe(1),
    "POST /asr/v3/transcribe": transcribe(3),
    "GET /asr/v3/languages": async () => json(200, { languages: KHAYA_ASR_LANGUAGES.map((code) => ({ code, name: code })) }),
    "POST /tts/v1/tts": synthesize(1),
    "POST /tts/v2/synthesize": synthesize(2),
    "GET /tts/v1/speakers": async () => json(200, { speakers: { Multilingual: TTS_SPEAKERS } }),
  };

  return {
    async route(req, url) {
      const route = routes[`${req.method} ${url.pathname}`];
      if (!route) return gateway(404, "Resource not found");
      return authFailure(req, url) ?? route(req, url);
    },

    errorResponse(status, variant) {
      return khayaError(status, variant);
    },

    // Khaya has no cold-start signal; a sleeping backend shows up as gateway 5xx.
    loadingResponse() {
      return khayaError(503, undefined);
    },

    rateLimitedResponse(controls: EmulatorControls) {
      const wait = controls.retryAfterSeconds ?? 5;
      return gateway(429, `Rate limit is exceeded. Try again in ${wait} seconds.`, { "retry-after": String(wait) });
    },

    successSample() {
      return { contentType: "application/json", body: JSON.stringify(sandboxMark("khaya", "en-tw", "Hello, how are you?")) };
    },

    translationText(url, body) {
      return /^\/v[12]\/translate$/.test(url.pathname) && isRecord(body) && typeof body.in === "string" ? body.in : undefined;
    },
  };
}

/** The APIM gateway envelope. */
function gateway(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json(status, { statusCode: status, message }, headers);
}

/** The backend's validation envelope. */
function validationFailed(code: string, message: string, target: string): Response {
  return json(400, {
    error: { code: "VALIDATION_FAILED", message: "The request payload contains invalid parameters.", details: [{ code, message, target }] },
  });
}

/**
 * Khaya's real answer for a status. Variants: 400 "legacy" ({type,message} of old v1 backends); 401 "missing";
 * 403 "html" (App Service "Web App - Unavailable" page); 500 "backend" ({error:{code:"SYSTEM_ERROR"}}).
 */
function khayaError(status: number, variant: string | undefined): Response {
  switch (status) {
    case 400:
      return variant === "legacy"
        ? json(400, { type: "BadRequest", message: "Language combination en-zz cannot be used" })
        : validationFailed("UNSUPPORTED_LANGUAGE_PAIR", "Language combination en-zz cannot be used", "language_pair");
    case 401:
      return variant === "missing"
        ? gateway(401, "Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API.")
        : gateway(401, "Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.");
    case 403:
      return variant === "html" ? htmlPage(403) : gateway(403, "Out of call volume quota. Quota will be replenished in 00:00:03.");
    case 404:
      return gateway(404, "Resource not found");
    case 429:
      return gateway(429, "Rate limit is exceeded. Try again in 5 seconds.", { "retry-after": "5" });
    case 500:
      return variant === "backend"
        ? json(500, { error: { code: "SYSTEM_ERROR", message: "An unexpected error occurred." } })
        : json(500, { statusCode: 500, message: "Internal server error", activityId: "41d51993-e979-4d99-a8fd-eea93a3d0267" });
    case 502:
      return text(502, "upstream connect error or disconnect/reset before headers. reset reason: connection failure");
    default:
      return gateway(status, status >= 500 ? "Service Unavailable" : "Bad Request");
  }
}
