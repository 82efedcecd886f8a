import { z } from "zod";
import { PROVIDER_IDS } from "@/lib/providers/types";

/** GET /api/v1/languages query and response (DESIGN.md "Languages"). Used by the route, OpenAPI and the portal. */

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
  provider: ProviderName.describe("Provider that serves the pair (with provider=auto: the first choice)"),
  model: z.string().describe("Model that serves it, as in model_used after the provider prefix"),
  quality_score: z.number().describe("quality_score translate reports when this provider/model serves the pair"),
});

export const LanguageEntry = z.object({
  code: z.string().describe("Canonical code, accepted by translate"),
  name: z.string().describe("English name"),
  native_name: z.string(),
  region: z.string(),
  aliases: z.array(z.string()).describe("Other accepted spellings (ISO 639-3 etc.), any case"),
  translation: z.object({
    supported: z.boolean(),
    targets: z.array(TranslationTarget).describe("Languages this one translates into"),
    sources: z.array(z.string()).describe("Languages that translate into this one"),
  }),
  from_source: TranslationTarget.omit({ code: true })
    .extend({ source: z.string() })
    .optional()
    .describe("Present with ?source=: how source → this language is served"),
  stt: z.object({
    supported: z.boolean(),
    providers: z.array(z.object({ provider: z.string(), model: z.string().optional() })),
  }),
  tts: z.object({
    supported: z.boolean(),
    providers: z.array(
      z.object({ provider: z.string(), voices: z.array(z.object({ id: z.string(), name: z.string().optional(), gender: z.string().optional() })) }),
    ),
  }),
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
            translation: { supported: true, targets: [{ code: "en", provider: "provider_a", model: "sunflower", quality_score: 0.92 }], sources: ["en"] },
            stt: { supported: false, providers: [] },
            tts: { supported: false, providers: [] },
          },
        ],
        total: 1,
      },
    ],
  });
export type LanguagesResponse = z.infer<typeof LanguagesResponse>;
