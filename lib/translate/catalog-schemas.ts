import { z } from "zod";
// The leaf modules, not the catalog index (which loads every file parser): the route manifest reads this file.
import { MAX_CATALOG_ENTRIES } from "@/lib/catalog/limits";
import { CATALOG_FORMATS, type CatalogFormat } from "@/lib/catalog/types";
import { DoNotTranslate, GlossaryId } from "@/lib/glossaries/schemas";
import { PROVIDER_IDS } from "@/lib/providers/types";
import { UPSTREAM_CALLS_RESPONSE_HEADER, UpstreamCalls } from "@/lib/routing/fields";

/** Request and response of POST /api/v1/translate/catalog. */

/** The request body's cap: within the 4.5 MB a serverless platform accepts, with room for headers. */
export const CATALOG_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** What each format's file is served as (`Accept:` it, or application/octet-stream for any format, to get the file). */
export const CATALOG_MEDIA_TYPES: Record<CatalogFormat, string> = {
  json: "application/json",
  arb: "application/json",
  po: "text/x-gettext-translation",
  xliff: "application/xliff+xml",
  android: "application/xml",
  strings: "text/plain",
  yaml: "application/yaml",
  srt: "application/x-subrip",
  vtt: "text/vtt",
  markdown: "text/markdown",
};

const required = (what: string) => ({
  error: (iss: { input?: unknown }) => (iss.input === undefined ? "Field required" : `Input should be ${what}`),
});

const Language = (what: string) =>
  z
    .string(required("a string"))
    .max(32, "Input should be a language code")
    .describe(`${what}. Canonical short code (en, lug, tw, yo, ...) or ISO 639-3, any case. See GET /api/v1/languages.`);

const SourceHashes = z
  .record(z.string().max(2000), z.string().max(64))
  .describe(
    "For formats whose file has no room for them (json, android, strings, yaml, srt, vtt, markdown): the `source_hashes` of the answer that produced `existing`, so that entries whose source has not changed are kept. po, arb and xliff carry them in the file.",
  );

export const CatalogRequest = z
  .object({
    format: z
      .enum(CATALOG_FORMATS, { error: () => `Input should be one of ${CATALOG_FORMATS.join(", ")}` })
      .describe(
        "json (flat or nested, i18next plural suffixes, ICU messages), po (gettext), xliff (1.2 and 2.0), android (strings.xml), strings (Apple .strings), arb (Flutter), yaml (Rails-style), srt, vtt, markdown",
      ),
    content: z.string(required("a string")).describe(`The source file, as text (at most ${MAX_CATALOG_ENTRIES.toLocaleString("en-US")} entries)`),
    source_lang: Language("Language of the file's text"),
    target_lang: Language("Language to translate into"),
    existing: z
      .string(required("a string"))
      .optional()
      .describe(
        "The current target file (an earlier answer's `content`): its entries translated from an unchanged source are kept, and only new or changed entries are sent upstream",
      ),
    source_hashes: SourceHashes.optional(),
    do_not_translate: DoNotTranslate.optional(),
    glossary_id: GlossaryId.optional(),
    cache: z.boolean(required("a boolean")).optional().describe("false: do not answer entries from the translation cache. Default true."),
  })
  .describe("POST /api/v1/translate/catalog request")
  .meta({
    examples: [
      {
        format: "json",
        content: '{"greeting": "Hello, {name}!", "items_one": "{{count}} item", "items_other": "{{count}} items"}',
        source_lang: "en",
        target_lang: "lug",
      },
    ],
  });
export type CatalogRequest = z.infer<typeof CatalogRequest>;

export const CatalogResponse = z
  .object({
    format: z.enum(CATALOG_FORMATS).describe("The format, as sent"),
    content: z
      .string()
      .describe(
        "The target file: the source with the values replaced; keys, order, comments and layout kept. Entries pending or failed keep their source text",
      ),
    entries: z
      .object({
        total: z.number().int().describe("Entries of the target file (one per plural form of the target language)"),
        translated: z.number().int().describe("Entries translated by this request (cache hits included)"),
        kept: z
          .number()
          .int()
          .describe("Entries taken from `existing` (unchanged source) or not to be translated (no letters, URLs, marked untranslatable)"),
        kept_unverified: z
          .number()
          .int()
          .describe(
            "Of `kept`: entries taken from `existing` with no source hash to prove their source unchanged (a format that does not carry hashes in the file, sent without `source_hashes`): kept because their text differs from the source. Send `source_hashes` to have a changed source retranslated",
          ),
        pending: z.number().int().describe("Entries left for a later call: the deadline or the provider's request budget ended first"),
        failed: z
          .array(z.object({ key: z.string().describe("The entry's key"), error: z.string().describe("Why it failed") }))
          .describe("Entries that could not be translated (their translation failed verification twice, or cannot be written in the format)"),
      })
      .describe("Counts of entries; translated + kept + pending + failed = total"),
    upstream_calls: UpstreamCalls.describe("Upstream calls (quota units) this catalog cost: every request sent to the provider, retries included"),
    characters_translated: z.number().int().describe("Characters (Unicode code points) of the source entries sent upstream"),
    source_lang: z.string().describe("Canonical code of the source language"),
    target_lang: z.string().describe("Target language exactly as requested"),
    provider: z
      .enum(PROVIDER_IDS as [string, ...string[]])
      .nullable()
      .describe("The provider that translates this pair for catalogs; null when nothing was sent"),
    model_used: z.string().nullable().describe('"<provider>/<model>"; null when nothing was sent upstream'),
    source_hashes: SourceHashes.describe(
      "id → hash of the source of each entry translated or kept: send it back as `source_hashes` with `existing` (needed for formats that do not carry them in the file)",
    ),
    retry_after_seconds: z
      .number()
      .int()
      .nullable()
      .describe("When entries are pending because the provider's request budget is spent: seconds until it admits more; else null"),
    sandbox: z.boolean().describe("True when the provider that served is its emulator"),
  })
  .describe("POST /api/v1/translate/catalog response");
export type CatalogResponse = z.infer<typeof CatalogResponse>;

const count = (what: string) => ({ description: what, schema: { type: "integer" } });

/** The counts of a catalog answered as the file itself (OpenAPI header objects). */
export const CATALOG_FILE_HEADERS = {
  ...UPSTREAM_CALLS_RESPONSE_HEADER,
  "X-Lugha-Entries-Total": count("With the file: entries of the target file"),
  "X-Lugha-Entries-Translated": count("With the file: entries translated by this request"),
  "X-Lugha-Entries-Kept": count("With the file: entries kept from `existing` or not to be translated"),
  "X-Lugha-Entries-Kept-Unverified": count("With the file: of the kept entries, those taken from `existing` without a source hash"),
  "X-Lugha-Entries-Pending": count("With the file: entries left for a later call"),
  "X-Lugha-Entries-Failed": count("With the file: entries that could not be translated"),
  "X-Lugha-Characters-Translated": count("With the file: characters of the source entries sent upstream"),
  "X-Lugha-Retry-After": count("With the file, when entries are pending because the provider's budget is spent: seconds until it admits more"),
};
