import { z } from "zod";
import { DoNotTranslate, GlossaryId, LocalisationFields, TextFormat } from "@/lib/glossaries/schemas";
import { DETECTION_METHODS } from "@/lib/languages/detect";
import { PROVIDERS } from "@/lib/providers/descriptors";
import { PROVIDER_IDS } from "@/lib/providers/types";
import { providerChoiceError, UpstreamCalls } from "@/lib/routing/fields";
import { MAX_TEXT_CHARS } from "./limits";

/**
 * Request and response schemas of POST /api/v1/translate and POST /api/v1/translate/batch.
 * One schema per payload: the route handlers validate with them and the OpenAPI document is built from them.
 *
 * Request schemas check shape only (types, required fields). Content rules — text 1–5,000 characters after trimming,
 * known language codes, distinct source and target, a pair somebody serves, provider input limits — are checked by
 * the translate service, because they have their own error codes (TEXT_TOO_LONG, UNSUPPORTED_LANGUAGE, SAME_LANGUAGE,
 * ...) and, in a batch, fail the item rather than the request.
 */

const required = (what: string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? "Field required" : `Input should be ${what}`),
});

export const ProviderChoice = z
  .enum(["auto", ...PROVIDER_IDS], { error: providerChoiceError })
  .describe(
    "auto (default): provider_a for Ugandan pairs, else provider_b if it serves the pair, else provider_c, falling back along that chain when a provider fails. A named provider is used alone: it never falls back.",
  );
export type ProviderChoice = z.infer<typeof ProviderChoice>;

const LanguageCode = (what: string) =>
  z
    .string(required("a string"))
    .max(32, "Input should be a language code")
    .describe(
      `${what}. Canonical short code (en, lug, sw, yo, tw, ...) or ISO 639-3 (eng, swa, yor, twi, ...), any case. See GET /api/v1/languages.`,
    );

/** The providers whose input limit is below the request's, as the descriptors declare them. */
const lowerLimits = PROVIDERS.flatMap(({ id, translation }) => {
  const limit = translation?.limit;
  if (!limit) return [];
  if (limit.unit === "tokens") return [`${id} ${limit.max} tokens (estimated)`];
  return limit.max < MAX_TEXT_CHARS ? [`${id} ${limit.max.toLocaleString("en-US")} characters`] : [];
}).join(", ");

/** The bypass flag of translate and batch (the request header `Cache-Control: no-cache` does the same). */
const UseCache = z
  .boolean(required("a boolean"))
  .describe(
    "false: do not answer from the translation cache; the providers are asked again (same as the request header `Cache-Control: no-cache`), and the fresh result is stored for later requests. Default true.",
  );

/** Says whether a translation was answered from the cache: hit, miss or bypass (./cache.ts). */
export const CACHE_HEADER = "X-Lugha-Cache";

/** X-Lugha-Cache on the 200 answers of translate and batch (OpenAPI header objects). */
export const CACHE_RESPONSE_HEADERS = {
  [CACHE_HEADER]: {
    description:
      '`hit`: answered from the translation cache (batch: every item that succeeded was), no upstream call; `miss`: sent upstream; `bypass`: the request asked not to be answered from the cache (`Cache-Control: no-cache` or `"cache": false`). Absent when the operator turned the cache off.',
    schema: { type: "string", enum: ["hit", "miss", "bypass"] },
  },
};

/** The request header that bypasses the cache, like the body's `"cache": false` (an OpenAPI header parameter). */
export const CACHE_CONTROL_PARAMETER = {
  name: "Cache-Control",
  in: "header",
  required: false,
  description: "`no-cache`: do not answer from the translation cache; the fresh result is still stored. Leave it out to allow cached answers.",
  // No example: Swagger UI's "Try it out" sends a parameter's example, and every try would bypass the cache.
  schema: { type: "string", enum: ["no-cache"] },
};

const Text = z
  .string(required("a string"))
  .describe(
    `Text to translate: 1–${MAX_TEXT_CHARS.toLocaleString("en-US")} characters after trimming surrounding whitespace (Unicode code points). Providers take less in one call (${lowerLimits}): with provider auto a longer text is split at sentence boundaries and served by one provider (see segments); a forced provider answers TEXT_TOO_LONG over its limit.`,
  );

export const TranslateRequest = z
  .object({
    text: Text,
    target_lang: LanguageCode("Target language"),
    source_lang: LanguageCode("Source language; detected from the text when omitted (supplying it is faster and more accurate)")
      .nullable()
      .optional(),
    provider: ProviderChoice.optional(),
    cache: UseCache.optional(),
    ...LocalisationFields,
  })
  .describe("POST /api/v1/translate request")
  .meta({ examples: [{ text: "Good morning, how are you?", target_lang: "lug", source_lang: "en" }] });
export type TranslateRequest = z.infer<typeof TranslateRequest>;

const ProviderName = z.enum(PROVIDER_IDS as [string, ...string[]]);

/** The glossary terms a translation used (docs/decisions.md "Localising an app"). */
const GlossaryTermsApplied = z
  .array(z.string())
  .nullable()
  .describe(
    "The target terms of the glossary that the text contained (each once, in order of appearance) and the translation carries; [] when it contained none; null without glossary_id",
  );

const Segments = z
  .number()
  .int()
  .min(1)
  .describe(
    "Upstream calls the text took (in a packed batch a text shares its call with others and counts 1): 1, or the number of chunks when it was longer than the serving provider takes in one call (split at sentence boundaries, translated by that one provider and model, and joined with the original's paragraph breaks and spacing); an ICU message's branches and HTML alt/title attributes are calls of their own",
  );

export const DetectionMethod = z
  .enum(DETECTION_METHODS)
  .describe(
    "What decided the language: script (Arabic or Ethiopic letters), greeting (a known whole greeting), default (nothing to go on: English at 0.1), statistical (word lists, an English dictionary and trigram statistics), or language_id (the local detector was not sure and Sunbird's language identification, asked for free, named it: Acholi, Ateso, English, Luganda, Lugbara or Runyankole)",
  );

export const TranslateResponse = z
  .object({
    translated_text: z.string().describe("The translation"),
    detected_source_lang: z.string().describe("Canonical code of the source language: the one supplied, or the one detected"),
    target_lang: z.string().describe("Target language exactly as requested"),
    model_used: z.string().describe('"<provider>/<model>", e.g. "provider_c/Helsinki-NLP/opus-mt-en-sw"'),
    provider: ProviderName.describe("The provider that actually served the translation"),
    quality_score: z
      .number()
      .min(0)
      .max(1)
      .describe("0.90+ specialised provider, 0.80–0.89 dedicated pair model, 0.70–0.79 general model, 0.60–0.69 multilingual fallback"),
    latency_ms: z.number().int().describe("Time for the whole request, milliseconds"),
    characters_translated: z.number().int().describe("Characters (Unicode code points) of the source text after trimming"),
    // Additive fields beyond the contract's:
    detected_source_confidence: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe("Confidence of source detection, 0–1; null when source_lang was supplied"),
    detection_method: DetectionMethod.nullable().describe(
      "What decided the detected source (as POST /detect's `method`); null when source_lang was supplied",
    ),
    requested_provider: ProviderChoice.describe("The provider parameter as applied (auto when omitted)"),
    fallback_used: z.boolean().describe("True when an earlier provider in the auto chain failed and a later one served"),
    providers_tried: z.array(ProviderName).describe("Providers called, in order; the last one served"),
    segments: Segments,
    glossary_terms_applied: GlossaryTermsApplied,
    sandbox: z
      .boolean()
      .describe(
        "True when served by an offline sandbox emulator: the text is NOT a real translation (also sent as the header X-Lugha-Sandbox: true)",
      ),
    cached: z
      .boolean()
      .describe(
        "True when answered from the translation cache, or shared with an identical request in flight: no upstream call was made for this request, and provider, model_used and quality_score name what served the original call (also the header X-Lugha-Cache: hit)",
      ),
    upstream_calls: UpstreamCalls,
  })
  .describe("Translation result")
  .meta({
    examples: [
      {
        translated_text: "Wasuze otya nno?",
        detected_source_lang: "en",
        target_lang: "lug",
        model_used: "provider_a/sunflower",
        provider: "provider_a",
        quality_score: 0.92,
        latency_ms: 412,
        characters_translated: 26,
        detected_source_confidence: null,
        detection_method: null,
        requested_provider: "auto",
        fallback_used: false,
        providers_tried: ["provider_a"],
        segments: 1,
        glossary_terms_applied: null,
        sandbox: false,
        cached: false,
        upstream_calls: 1,
      },
    ],
  });
export type TranslateResponse = z.infer<typeof TranslateResponse>;

export const MAX_BATCH_ITEMS = 50;
export const MAX_ITEM_ID_CHARS = 256;

export const BatchItem = z.object({
  id: z
    .string(required("a string"))
    .min(1, "id must not be empty")
    .max(MAX_ITEM_ID_CHARS, `id must be at most ${MAX_ITEM_ID_CHARS} characters`)
    .describe("Your identifier for the item, echoed in its result; unique within the batch"),
  text: Text,
  target_lang: LanguageCode("Target language"),
  source_lang: LanguageCode("Source language; detected when omitted").nullable().optional(),
  format: TextFormat.optional().describe("As in translate; default: the batch's format, else text"),
  do_not_translate: DoNotTranslate.optional().describe("As in translate; replaces the batch's do_not_translate for this item (no merge)"),
  glossary_id: GlossaryId.optional().describe("As in translate; replaces the batch's glossary_id for this item"),
});
export type BatchItem = z.infer<typeof BatchItem>;

/** Shape check of the whole batch: 1–50 well-formed items with unique ids. */
export const BatchTranslateRequest = z
  .object({
    items: z
      .array(BatchItem, required("an array"))
      .min(1, "items must contain at least 1 item")
      .max(MAX_BATCH_ITEMS, `items must contain at most ${MAX_BATCH_ITEMS} items`)
      .check((ctx) => {
        const seen = new Map<string, number>();
        ctx.value.forEach((item, i) => {
          const first = seen.get(item.id);
          if (first !== undefined)
            ctx.issues.push({
              code: "custom",
              input: item.id,
              path: [i, "id"],
              message: `id "${truncate(item.id)}" is already used by item ${first}; ids must be unique within a batch`,
              params: { type: "duplicate_id" },
            });
          else seen.set(item.id, i);
        });
      })
      .describe(`1–${MAX_BATCH_ITEMS} items, each translated on its own`),
    provider: ProviderChoice.optional().describe("Provider for every item (default auto)"),
    cache: UseCache.optional(),
    format: TextFormat.optional().describe("Format of every item that does not name its own (default text)"),
    do_not_translate: DoNotTranslate.optional().describe(
      "Do-not-translate terms of every item that does not send its own: an item's do_not_translate replaces this list",
    ),
    glossary_id: GlossaryId.optional().describe(
      "Glossary of every item that does not name its own; each item's (detected) pair must be the glossary's, else that item fails with VALIDATION_ERROR",
    ),
  })
  .describe("POST /api/v1/translate/batch request")
  .meta({
    examples: [
      {
        items: [
          { id: "greeting", text: "Good morning", target_lang: "lug", source_lang: "en" },
          { id: "thanks", text: "Thank you very much", target_lang: "yo", source_lang: "en" },
        ],
      },
    ],
  });
export type BatchTranslateRequest = z.infer<typeof BatchTranslateRequest>;

/** What the route wrapper validates before the handler: the envelope only, so the item count gets its own code. */
export const BatchEnvelope = z.object({
  items: z.array(z.unknown(), required("an array")),
  provider: z.unknown().optional(),
  cache: z.unknown().optional(),
  format: z.unknown().optional(),
  do_not_translate: z.unknown().optional(),
  glossary_id: z.unknown().optional(),
});
export type BatchEnvelope = z.infer<typeof BatchEnvelope>;

const ErrorCode = z.enum([
  "VALIDATION_ERROR",
  "UNSUPPORTED_LANGUAGE",
  "UNSUPPORTED_LANGUAGE_PAIR",
  "PROVIDER_UNSUPPORTED_PAIR",
  "SAME_LANGUAGE",
  "TEXT_TOO_LONG",
  "PROVIDER_ERROR",
]);

export const BatchItemResult = z
  .object({
    id: z.string(),
    translated_text: z.string().nullable(),
    detected_source_lang: z.string().nullable(),
    target_lang: z.string().nullable().describe("As requested; null when the item failed"),
    model_used: z.string().nullable(),
    provider: ProviderName.nullable(),
    quality_score: z.number().nullable(),
    error: z.string().nullable().describe("Why the item failed; null on success"),
    // Additive fields beyond the contract's:
    error_code: ErrorCode.nullable().describe("Machine-readable reason (same codes as single translate); null on success"),
    latency_ms: z.number().int().describe("Time spent on this item, milliseconds"),
    characters_translated: z.number().int().nullable().describe("Characters of the item's text after trimming; null when the item failed"),
    fallback_used: z.boolean().nullable(),
    segments: Segments.nullable(),
    glossary_terms_applied: GlossaryTermsApplied.describe("As in translate; null also when the item failed"),
    detection_method: DetectionMethod.nullable().describe("As in translate; null also when the item failed"),
    sandbox: z.boolean().nullable().describe("True when a sandbox emulator served the item (not a real translation)"),
    cached: z
      .boolean()
      .nullable()
      .describe("True when the item was answered from the translation cache (no upstream call for it); null when the item failed"),
  })
  .describe("Batch item result");
export type BatchItemResult = z.infer<typeof BatchItemResult>;

export const BatchTranslateResponse = z
  .object({
    results: z.array(BatchItemResult).describe("One result per item, in request order"),
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    total_latency_ms: z.number().int().describe("Time for the whole request, milliseconds"),
    characters_translated: z.number().int().describe("Sum over the items that succeeded (additive)"),
    sandbox: z.boolean().describe("True when any item was served by a sandbox emulator (additive)"),
    upstream_calls: UpstreamCalls.describe(
      "Upstream calls (quota units) the whole batch cost: items going to the same provider, model, pair and protection settings share packed calls, so 50 short texts usually cost 2–3 calls; an item answered from the cache costs none. Also in the header X-Lugha-Upstream-Calls",
    ),
  })
  .describe("Batch summary");
export type BatchTranslateResponse = z.infer<typeof BatchTranslateResponse>;

function truncate(s: string, n = 40): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
