import { z } from "zod";
import { PROVIDER_IDS } from "@/lib/providers/types";

/*
 * Speech payloads as DESIGN.md fixes them ("Speech"). PROVISIONAL: the speech module (lib/speech) has not landed yet;
 * when it does, its own request/response schemas replace these (import them in ./document.ts) so the document keeps
 * describing exactly what the handlers validate.
 */

const ProviderName = z.enum(PROVIDER_IDS as [string, ...string[]]);

export const SttForm = z
  .object({
    audio: z.string().describe("The recording (WAV, MP3, OGG, FLAC, WebM, M4A). Checked by its magic bytes, not by the declared type; at most 10 MB; not empty."),
    language: z.string().max(32).describe("Language spoken in the recording (code from GET /api/v1/languages with stt.supported)"),
    provider: ProviderName.optional().describe("Force one provider (default: the first that serves the language)"),
  })
  .describe("POST /api/v1/speech/stt multipart/form-data fields");

export const SttResponse = z
  .object({
    transcript: z.string(),
    language: z.string(),
    model_used: z.string().describe('"<provider>/<model>"'),
    provider: ProviderName,
    latency_ms: z.number().int(),
    audio_duration_seconds: z.number().nullable(),
  })
  .describe("Speech-to-text result")
  .meta({
    examples: [
      {
        transcript: "Wasuze otya nno?",
        language: "lug",
        model_used: "provider_a/sunbird-asr",
        provider: "provider_a",
        latency_ms: 1830,
        audio_duration_seconds: 2.4,
      },
    ],
  });

export const TtsRequest = z
  .object({
    text: z.string().min(1).max(2000).describe("Text to speak, 1–2,000 characters"),
    language: z.string().max(32).describe("Language of the text (code from GET /api/v1/languages with tts.supported)"),
    voice: z.string().max(64).optional().describe("Voice id from GET /api/v1/languages (tts.providers[].voices); provider default when omitted"),
  })
  .describe("POST /api/v1/speech/tts request")
  .meta({ examples: [{ text: "Wasuze otya nno?", language: "lug" }] });

export const TtsResponse = z
  .object({
    audio_base64: z.string().describe("The audio, base64 (send Accept: audio/wav to receive raw bytes instead)"),
    content_type: z.string().describe("MIME type of the audio, e.g. audio/wav"),
    language: z.string(),
    voice: z.string(),
    model_used: z.string(),
    provider: ProviderName,
    latency_ms: z.number().int(),
  })
  .describe("Text-to-speech result (JSON form)");
