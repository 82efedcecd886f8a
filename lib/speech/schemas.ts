import { z } from "zod";
import { CONFIG_DEFAULTS, PLATFORM_BODY_LIMIT_BYTES, PLATFORM_DEFAULTS } from "@/lib/config";
import { PROVIDER_IDS } from "@/lib/providers/types";
import { providerChoiceError, UpstreamCalls } from "@/lib/routing/fields";
import { ACCEPTED_FORMATS_TEXT } from "./audio";
import { TTS_FORMATS } from "./formats";
import { MAX_TTS_CHARS, ttsCharsFitting } from "./limits";

/**
 * Request and response schemas of POST /api/v1/speech/stt and POST /api/v1/speech/tts. The routes validate with them
 * and the OpenAPI document is built from them.
 *
 * As for translate, request schemas check shape only; content rules with their own codes — known language
 * (UNSUPPORTED_LANGUAGE), known voice (UNSUPPORTED_VOICE), text length (TEXT_TOO_LONG), audio format
 * (UNSUPPORTED_MEDIA_TYPE), upload size (PAYLOAD_TOO_LARGE) — are checked by the speech service.
 */

const required = (what: string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? "Field required" : `Input should be ${what}`),
});

const ProviderName = z.enum(PROVIDER_IDS as [string, ...string[]]);

export const SpeechProviderChoice = z
  .enum(["auto", ...PROVIDER_IDS], { error: providerChoiceError })
  .describe(
    "auto (default): the providers that serve the language, in the order provider_a → provider_b → provider_c, falling back along that chain when one fails. A named provider is used alone and never falls back.",
  );
export type SpeechProviderChoice = z.infer<typeof SpeechProviderChoice>;

const mb = (bytes: number) => `${+(bytes / 1024 / 1024).toFixed(1)} MB`;

const SpeechLanguage = (what: string) =>
  z
    .string(required("a string"))
    .max(32, "Input should be a language code")
    .describe(
      `${what}. Canonical code (en, lug, sw, ...) or ISO 639-3 (eng, lug, swa, ...), any case. See GET /api/v1/languages?capability=stt|tts.`,
    );

// ---------------------------------------------------------------------------------------------------------------
// POST /api/v1/speech/stt

export const SttForm = z
  .object({
    audio: z
      .file(required("a file upload (a multipart part with a filename)"))
      .describe(
        `The recording: ${ACCEPTED_FORMATS_TEXT}. Recognised by its bytes, not by its name or declared type (application/octet-stream is fine). Not empty, not truncated, at most ${mb(PLATFORM_DEFAULTS.SPEECH_MAX_UPLOAD_BYTES.elsewhere)} by default, ${mb(PLATFORM_DEFAULTS.SPEECH_MAX_UPLOAD_BYTES.vercel)} on Vercel (SPEECH_MAX_UPLOAD_BYTES; this deployment's limit is the operation's body limit) and ${CONFIG_DEFAULTS.SPEECH_MAX_AUDIO_SECONDS / 60} minutes (SPEECH_MAX_AUDIO_SECONDS).`,
      ),
    language: SpeechLanguage("Language spoken in the recording"),
    provider: SpeechProviderChoice.optional(),
  })
  .describe("POST /api/v1/speech/stt request: multipart/form-data fields");
export type SttForm = z.infer<typeof SttForm>;

export const SttUrlRequest = z
  .object({
    audio_url: z
      .string(required("a string"))
      .max(2048, "Input should be a URL of at most 2048 characters")
      .describe(
        `Where the recording is: an https URL (http only for hosts the operator lists in AUDIO_URL_ALLOWED_HOSTS). The service fetches it itself, following at most ${3} redirects, with the same checks as an upload (${ACCEPTED_FORMATS_TEXT}, recognised by its bytes), at most ${mb(CONFIG_DEFAULTS.AUDIO_URL_MAX_BYTES)} (AUDIO_URL_MAX_BYTES) within ${CONFIG_DEFAULTS.AUDIO_URL_TIMEOUT_MS / 1000} s (AUDIO_URL_TIMEOUT_MS). Addresses that are private, loopback, link-local or cloud metadata — after DNS resolution and at every redirect — are refused (422 on audio_url), as are other schemes.`,
      ),
    language: SpeechLanguage("Language spoken in the recording"),
    provider: SpeechProviderChoice.optional(),
  })
  .describe("POST /api/v1/speech/stt request, JSON form: the recording by URL")
  .meta({ examples: [{ audio_url: "https://example.org/recordings/interview.wav", language: "lug" }] });
export type SttUrlRequest = z.infer<typeof SttUrlRequest>;

/** Fields the STT form is validated with (the audio part is checked separately: size, bytes, format). */
export const SttFields = SttForm.omit({ audio: true });

const RoutingFields = {
  requested_provider: SpeechProviderChoice.describe("The provider parameter as applied (auto when omitted)"),
  fallback_used: z.boolean().describe("True when an earlier provider in the auto chain failed and a later one served"),
  providers_tried: z.array(ProviderName).describe("Providers called, in order; the last one served"),
  upstream_calls: UpstreamCalls,
  sandbox: z
    .boolean()
    .describe(
      "True when served by an offline sandbox emulator: the result is NOT real speech recognition or synthesis (also sent as the header X-Lugha-Sandbox: true)",
    ),
};

export const TranscriptSegment = z
  .object({
    start: z.number().describe("Where the segment starts in the recording, seconds"),
    end: z.number().describe("Where it ends, seconds"),
    text: z.string().describe("What was said in it"),
  })
  .describe("A timed part of the transcript");

export const SttResponse = z
  .object({
    transcript: z.string().describe("What was said"),
    segments: z
      .array(TranscriptSegment)
      .nullable()
      .describe(
        "The transcript in timed parts, in order, when the provider gives timing: provider_b (its segments) and provider_c (one segment per window of at most 30 s the recording was cut into). null when the provider gives no timing (provider_a).",
      ),
    language: z.string().describe("Canonical code of the language requested"),
    model_used: z.string().describe('"<provider>/<model>", e.g. "provider_a/sunbird-stt", "provider_c/openai/whisper-large-v3-turbo"'),
    provider: ProviderName.describe("The provider that transcribed the audio"),
    latency_ms: z.number().int().describe("Time for the whole request, milliseconds"),
    audio_duration_seconds: z.number().describe("Duration of the uploaded audio, measured from the file (3 decimals)"),
    // Additive fields:
    audio_content_type: z.string().describe("The format recognised from the file's bytes, e.g. audio/ogg (what was sent upstream)"),
    ...RoutingFields,
  })
  .describe("Speech-to-text result")
  .meta({
    examples: [
      {
        transcript: "Wasuze otya nno?",
        segments: null,
        language: "lug",
        model_used: "provider_a/sunbird-stt",
        provider: "provider_a",
        latency_ms: 1830,
        audio_duration_seconds: 2.4,
        audio_content_type: "audio/wav",
        requested_provider: "auto",
        fallback_used: false,
        providers_tried: ["provider_a"],
        upstream_calls: 1,
        sandbox: false,
      },
    ],
  });
export type SttResponse = z.infer<typeof SttResponse>;

// ---------------------------------------------------------------------------------------------------------------
// POST /api/v1/speech/tts

export const TtsRequest = z
  .object({
    text: z
      .string(required("a string"))
      .describe(
        `Text to speak: 1–${MAX_TTS_CHARS.toLocaleString("en-US")} characters after trimming surrounding whitespace (Unicode code points). On Vercel, whose response body stops at 4.5 MB, a JSON answer in WAV takes 1–${ttsCharsFitting(PLATFORM_BODY_LIMIT_BYTES, "wav").toLocaleString("en-US")}; in MP3 or Opus 1–${Math.min(ttsCharsFitting(PLATFORM_BODY_LIMIT_BYTES, "mp3"), ttsCharsFitting(PLATFORM_BODY_LIMIT_BYTES, "opus")).toLocaleString("en-US")} (TEXT_TOO_LONG beyond). A text longer than one synthesis of the voice is split at sentence ends, every piece spoken by the same voice and the audio joined into one answer; upstream_calls counts the provider requests it took (provider_a's Orpheus voices: one batch request for all the pieces).`,
      ),
    language: SpeechLanguage("Language of the text"),
    voice: z
      .union([z.string().min(1, "voice must not be empty").max(100, "Input should be a voice id"), z.number().int()], {
        error: () => "Input should be a voice id (string)",
      })
      .transform((v) => String(v))
      .optional()
      .describe(
        'Voice id from GET /api/v1/languages (tts.providers[].voices[].id): e.g. "248" (provider_a, Luganda), "salt_lug_0001" (provider_a), "female" (provider_b), "facebook/mms-tts-swh" (provider_c). A voice belongs to one provider, so it also fixes the provider (no fallback). Default: the default voice of each provider tried. An unknown voice, or one that does not speak the language, is a 422 UNSUPPORTED_VOICE — never silently another voice.',
      ),
    provider: SpeechProviderChoice.optional(),
    format: z
      .enum(TTS_FORMATS, { error: () => `Input should be ${TTS_FORMATS.map((f) => `'${f}'`).join(", ")}` })
      .optional()
      .describe(
        'Format of the audio in a JSON answer: "wav" (default: the provider\'s own audio), "mp3" (audio/mpeg, 32 kbit/s) or "opus" (audio/ogg; codecs=opus, 24 kbit/s: a voice note WhatsApp and Telegram play). MP3 and Opus are 16 kHz mono. A raw answer takes its format from Accept (audio/ogg, audio/mpeg, audio/wav); with only audio/*, from this field.',
      ),
  })
  .describe("POST /api/v1/speech/tts request")
  .meta({
    examples: [
      { text: "Wasuze otya nno?", language: "lug" },
      { text: "Wasuze otya nno?", language: "lug", voice: "248" },
      { text: "Wasuze otya nno?", language: "lug", format: "opus" },
    ],
  });
export type TtsRequest = z.infer<typeof TtsRequest>;

export const TtsResponse = z
  .object({
    audio_base64: z
      .string()
      .describe(
        "The audio file, base64, in the format requested. Send Accept: audio/ogg, audio/mpeg or audio/wav (or any audio/*) to receive the raw bytes instead",
      ),
    content_type: z.string().describe("Media type of the audio: audio/wav, audio/mpeg or audio/ogg; codecs=opus (see format)"),
    language: z.string().describe("Canonical code of the language requested"),
    voice: z.string().describe("The voice id that spoke"),
    model_used: z.string().describe('"<provider>/<model>", e.g. "provider_a/spark-tts", "provider_b/khaya-tts-v1"'),
    provider: ProviderName.describe("The provider that synthesised the audio"),
    latency_ms: z.number().int().describe("Time for the whole request, milliseconds"),
    audio_duration_seconds: z.number().describe("Duration of the audio, measured from the file (3 decimals)"),
    ...RoutingFields,
  })
  .describe("Text-to-speech result (JSON form)")
  .meta({
    examples: [
      {
        audio_base64: "UklGRiQAAABXQVZFZm10IBAAAAABAAEAgD4AAAB9AAACABAAZGF0YQAAAAA=",
        content_type: "audio/wav",
        language: "lug",
        voice: "248",
        model_used: "provider_a/spark-tts",
        provider: "provider_a",
        latency_ms: 2410,
        audio_duration_seconds: 1.02,
        requested_provider: "auto",
        fallback_used: false,
        providers_tried: ["provider_a"],
        upstream_calls: 1,
        sandbox: false,
      },
    ],
  });
export type TtsResponse = z.infer<typeof TtsResponse>;

/**
 * Headers of the raw-audio form of a TTS response (Accept: audio/*): the JSON metadata, minus the audio itself.
 * For the OpenAPI document's 200 audio/* response.
 */
export const TTS_AUDIO_HEADERS: Readonly<Record<string, { description: string; schema: { type: "string" | "integer" | "number" | "boolean" } }>> = {
  "Content-Type": {
    description: "Media type of the audio: audio/ogg; codecs=opus, audio/mpeg or audio/wav, as Accept (or the body's format) asked",
    schema: { type: "string" },
  },
  "Content-Disposition": { description: 'inline; filename="speech.ogg", "speech.mp3" or "speech.wav"', schema: { type: "string" } },
  "X-Lugha-Language": { description: "language", schema: { type: "string" } },
  "X-Lugha-Voice": { description: "voice", schema: { type: "string" } },
  "X-Lugha-Model-Used": { description: "model_used", schema: { type: "string" } },
  "X-Lugha-Provider": { description: "provider", schema: { type: "string" } },
  "X-Lugha-Latency-Ms": { description: "latency_ms", schema: { type: "integer" } },
  "X-Lugha-Audio-Duration-Seconds": { description: "audio_duration_seconds", schema: { type: "number" } },
  "X-Lugha-Requested-Provider": { description: "requested_provider", schema: { type: "string" } },
  "X-Lugha-Fallback-Used": { description: "fallback_used (true|false)", schema: { type: "boolean" } },
  "X-Lugha-Providers-Tried": { description: "providers_tried, comma-separated", schema: { type: "string" } },
  "X-Lugha-Sandbox": { description: "true when a sandbox emulator served (absent otherwise); on JSON responses too", schema: { type: "string" } },
};
