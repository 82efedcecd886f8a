import { z } from "zod";
import type { AudioFormat } from "@/lib/providers/descriptor";
import { PROVIDER_IDS } from "@/lib/providers/types";
import { QUALITY_BANDS } from "./quality-bands";

/** GET /api/v1/languages query and response. Used by the route, OpenAPI and the portal. */

const ProviderName = z.enum(PROVIDER_IDS as [string, ...string[]]);

export const LanguagesQuery = z
  .object({
    capability: z
      .enum(["translation", "stt", "tts"], { error: () => "Input should be 'translation', 'stt' or 'tts'" })
      .optional()
      .describe("Only languages with this capability"),
    provider: ProviderName.optional().describe("Only languages this provider serves; translation targets and sources are then this provider's"),
    source: z
      .string()
      .min(1, "source must not be empty")
      .max(32)
      .optional()
      .describe("Only languages that text in this source language can be translated into (each entry then has from_source)"),
  })
  .describe("GET /api/v1/languages query parameters");
export type LanguagesQuery = z.infer<typeof LanguagesQuery>;

export const TranslationTarget = z.object({
  code: z.string(),
  provider: ProviderName.describe("Provider that serves the pair now (with provider=auto: the first choice)"),
  model: z.string().describe("Model that serves it, as in model_used after the provider prefix"),
  quality_score: z.number().describe("quality_score translate reports when this provider/model serves the pair"),
  quality_band: z.enum(QUALITY_BANDS).describe("What quality_score means: excellent ≥0.90, good ≥0.80, decent ≥0.70, acceptable ≥0.60"),
});

/** Upload formats (lib/speech/audio.ts AUDIO_FORMATS; spelled out so this module stays free of the audio parsers). */
export const SpeechAudioFormat = z.enum(["wav", "mp3", "ogg", "webm", "flac", "m4a"] as const satisfies readonly AudioFormat[]);

export const SttProvider = z.object({
  provider: ProviderName.describe("Provider that transcribes the language (auto routing tries them in the order listed)"),
  model: z.string().describe("Model that transcribes it, as in model_used after the provider prefix"),
  formats: z.array(SpeechAudioFormat).describe("Upload formats this provider takes; other formats skip it"),
});

export const TtsVoice = z.object({
  id: z.string().describe("What to send as `voice` to POST /api/v1/speech/tts (it also fixes the provider)"),
  name: z.string().describe("Human-readable voice name"),
  gender: z.enum(["female", "male"]).optional(),
  model: z.string().describe("Model that speaks with this voice, as in model_used after the provider prefix"),
  default: z.boolean().describe("The voice this provider uses for the language when no voice is given (exactly one per provider)"),
});

export const TtsProvider = z.object({
  provider: ProviderName.describe("Provider that speaks the language (auto routing tries them in the order listed)"),
  voices: z.array(TtsVoice),
});

export const LanguageEntry = z.object({
  code: z.string().describe("Canonical code, accepted by translate"),
  name: z.string().describe("English name"),
  native_name: z.string(),
  region: z.string(),
  aliases: z.array(z.string()).describe("Other accepted spellings (ISO 639-3 etc.), any case"),
  detectable: z
    .boolean()
    .describe(
      "Whether source detection (translate without source_lang, POST /api/v1/detect) can name this language; when false, pass source_lang for text in it",
    ),
  translation: z.object({
    supported: z.boolean(),
    targets: z.array(TranslationTarget).describe("Languages this one translates into"),
    sources: z.array(z.string()).describe("Languages that translate into this one"),
  }),
  from_source: TranslationTarget.omit({ code: true })
    .extend({ source: z.string() })
    .optional()
    .describe("Present with ?source=: how source → this language is served"),
  stt: z
    .object({
      supported: z.boolean(),
      providers: z.array(SttProvider).describe("Providers that transcribe it, in auto-routing order"),
    })
    .describe("Speech-to-text (POST /api/v1/speech/stt)"),
  tts: z
    .object({
      supported: z.boolean(),
      providers: z.array(TtsProvider).describe("Providers that speak it, in auto-routing order, each with its voices"),
    })
    .describe("Text-to-speech (POST /api/v1/speech/tts)"),
});
export type LanguageEntry = z.infer<typeof LanguageEntry>;

export const LanguagesResponse = z
  .object({
    languages: z.array(LanguageEntry),
    total: z.number().int(),
  })
  .describe("GET /api/v1/languages response")
  .meta({
    examples: [
      {
        languages: [
          {
            code: "lug",
            name: "Luganda",
            native_name: "Oluganda",
            region: "East Africa",
            aliases: ["lg"],
            detectable: true,
            translation: {
              supported: true,
              targets: [{ code: "en", provider: "provider_a", model: "sunflower", quality_score: 0.92, quality_band: "excellent" }],
              sources: ["en"],
            },
            stt: {
              supported: true,
              providers: [{ provider: "provider_a", model: "sunbird-stt", formats: ["wav", "mp3", "ogg", "m4a", "webm", "flac"] }],
            },
            tts: {
              supported: true,
              providers: [
                {
                  provider: "provider_a",
                  voices: [
                    { id: "248", name: "Luganda (female)", gender: "female", model: "spark-tts", default: true },
                    { id: "salt_lug_0001", name: "Luganda 1 (Orpheus)", model: "orpheus-3b-tts", default: false },
                    { id: "waxal_lug_0002", name: "Luganda 2 (Orpheus)", model: "orpheus-3b-tts", default: false },
                    { id: "waxal_lug_0003", name: "Luganda 3 (Orpheus)", model: "orpheus-3b-tts", default: false },
                    { id: "waxal_lug_0004", name: "Luganda 4 (Orpheus)", model: "orpheus-3b-tts", default: false },
                    { id: "waxal_lug_0005", name: "Luganda 5 (Orpheus)", model: "orpheus-3b-tts", default: false },
                    { id: "waxal_lug_0006", name: "Luganda 6 (Orpheus)", model: "orpheus-3b-tts", default: false },
                    { id: "waxal_lug_0007", name: "Luganda 7 (Orpheus)", model: "orpheus-3b-tts", default: false },
                    { id: "waxal_lug_0008", name: "Luganda 8 (Orpheus)", model: "orpheus-3b-tts", default: false },
                  ],
                },
                {
                  provider: "provider_c",
                  voices: [{ id: "facebook/mms-tts-lug", name: "Luganda (MMS-TTS)", model: "facebook/mms-tts-lug", default: true }],
                },
              ],
            },
          },
        ],
        total: 1,
      },
    ],
  });
export type LanguagesResponse = z.infer<typeof LanguagesResponse>;
