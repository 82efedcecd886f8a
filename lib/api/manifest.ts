import { z } from "zod";
// The leaf modules, not the catalog index: the index loads every file parser, and every route reads this manifest.
import { MAX_CATALOG_ENTRIES } from "@/lib/catalog/limits";
import { DEEPL, DeepLLanguagesQuery, DeepLTranslateRequest } from "@/lib/compat/deepl";
import { LIBRETRANSLATE, LibreDetectRequest, LibreTranslateRequest } from "@/lib/compat/libretranslate";
import { OPENAI, OpenAISpeechRequest, OpenAITranscriptionRequest } from "@/lib/compat/openai";
import { CONFIG_DEFAULTS, type Config } from "@/lib/config";
import { DetectRequest, MAX_DETECT_TEXTS } from "@/lib/detect/schemas";
import { CREATE_GLOSSARY_MAX_BODY_BYTES, CreateGlossaryRequest, GLOSSARIES_PER_KEY, GLOSSARY_MAX_ENTRIES } from "@/lib/glossaries/schemas";
import { IssueKeyRequest } from "@/lib/keys/schemas";
import type { Dialect } from "@/lib/kit/dialect";
import type { ErrorCode } from "@/lib/kit/errors";
import { matchTemplate } from "@/lib/kit/path-template";
import { LanguagesQuery } from "@/lib/languages/schemas";
import type { RateLimitBucket } from "@/lib/ratelimit/types";
import { UPSTREAM_CALLS_RESPONSE_HEADER } from "@/lib/routing/fields";
import { TTS_FORMATS, TTS_MEDIA_TYPES } from "@/lib/speech/formats";
import { MULTIPART_OVERHEAD_BYTES } from "@/lib/speech/limits";
import { TTS_AUDIO_HEADERS, TtsRequest } from "@/lib/speech/schemas";
import { CATALOG_FILE_HEADERS, CATALOG_MAX_BODY_BYTES, CATALOG_MEDIA_TYPES, CatalogRequest } from "@/lib/translate/catalog-schemas";
import { BatchEnvelope, CACHE_CONTROL_PARAMETER, CACHE_RESPONSE_HEADERS, MAX_BATCH_ITEMS, TranslateRequest } from "@/lib/translate/schemas";
import { REQUEST_LOG_DAYS, RequestLogQuery } from "@/lib/usage/requests";
import { USAGE_DEFAULT_DAYS, USAGE_MAX_DAYS, UsageQuery } from "@/lib/usage/schemas";

/**
 * Every route of the API, declared once. The wrapper (lib/api/route.ts serveRoute) reads an operation's entry to
 * authenticate, rate-limit, read and validate the body, set the sandbox header, record usage and answer 405 with
 * `Allow` for every other method; lib/openapi/document.ts builds the operation's OpenAPI entry from the same entry,
 * adding the errors the wrapper itself can answer (authentication, rate limit, body) and their headers. The common
 * route tests (e2e/api/routes.test.ts) run over this list.
 */
/** api_key: a key from POST /api/v1/auth/keys; operator: HEALTH_OPERATOR_TOKEN as the Bearer token; none: anyone. */
export type Auth = "api_key" | "operator" | "none";
export type Method = "get" | "post" | "delete";
export type DeadlineVariable = Extract<keyof Config, `${string}_DEADLINE_MS`>;

export interface Operation<TBody = unknown, A extends Auth = Auth> {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  auth: A;
  /** Budget this route spends: per key for authenticated routes, per client IP for `issuance`. */
  rateLimit?: RateLimitBucket;
  /** A JSON body, read under `maxBodyBytes` and validated before the handler runs; `schema` names its component. */
  body?: { zod: z.ZodType<TBody>; schema: string; examples?: Record<string, { summary: string; value: unknown }> };
  /** Query parameters (all optional), documented; the handler validates them. */
  query?: z.ZodObject;
  /**
   * Path parameters, one per `{name}` segment of the path, documented (required, as OpenAPI has them); the handler
   * gets them as strings (ctx.params) and validates them itself.
   */
  params?: z.ZodObject;
  /** Request headers the handler reads, as OpenAPI header parameters (documentation only). */
  headerParameters?: Record<string, unknown>[];
  /** A multipart upload the handler reads itself, under `maxBodyBytes` (ctx.maxBodyBytes). */
  multipart?: {
    schema: string;
    encoding?: Record<string, unknown> /** A JSON alternative the handler also reads (its schema's name). */;
    json?: string;
  };
  /** Byte cap on the request body; a function of the configuration when the operator sets it. */
  maxBodyBytes?: number | ((config: Config) => number);
  /**
   * The variable holding the deadline (ms) the handler's work runs under; the route's function on Vercel is given that
   * plus FUNCTION_MARGIN_SECONDS (maxDurationSeconds), so a caller who hits it gets Lugha's own envelope, not the platform's.
   */
  deadline?: DeadlineVariable;
  /** The errors the handler itself can answer; the wrapper's own (auth, rate limit, body, 500/503) are added. */
  errors: ErrorCode[];
  /**
   * The success answer. `status` when it is not 200: the wrapper sends a handler's plain result with it (a Response the
   * handler builds keeps its own). `schema` names a component; `content` adds media types besides JSON.
   */
  ok: { status?: 201; description: string; schema?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> };
  /** Other documented answers, e.g. 304 or health's 503. */
  otherResponses?: Record<string, unknown>;
  /** The result carries `sandbox`: the wrapper sets X-Lugha-Sandbox: true when it is true. */
  sandbox?: boolean;
  /**
   * The result is a translation or a batch: the wrapper records its usage against the key (the dashboard's counts:
   * characters sent upstream and cache hits).
   */
  recordsTranslationUsage?: boolean;
  /**
   * The handler reports requests_total / last_used_at (GET and DELETE /keys/me): authenticate against the database
   * and count in the same statement, so the figure includes this request exactly.
   */
  exactUsage?: boolean;
  /**
   * Another protocol's route (lib/compat): where its key comes from, how its fields are read (before authentication:
   * the key may be one of them) and how its refusals are written. `body` then validates those fields.
   */
  dialect?: Dialect;
  /** The bucket when the request's fields decide it (a LibreTranslate `q` array is a batch); `rateLimit` is the documented one. */
  rateLimitFor?: (fields: Record<string, unknown>) => RateLimitBucket;
}

/** Keeps the body type and auth of an operation for the handler's context. */
function op<TBody = undefined, A extends Auth = "api_key">(o: Operation<TBody, A>): Operation<TBody, A> {
  return o;
}

const DEFAULT_JSON_BODY_BYTES = 64 * 1024;

/** The tag of the other protocols' surfaces (lib/compat). */
export const COMPAT_TAG = "Compatibility";

const GLOSSARY_ID = z.object({
  id: z.string().meta({ description: "The glossary's id (also its version). Any other value is 404 NOT_FOUND.", format: "uuid" }),
});

export const ROUTES = {
  "/api/v1/translate": {
    post: op({
      operationId: "translate",
      tags: ["Translation"],
      summary: "Translate one text",
      description:
        "With `provider=auto` (default) the pair is routed to provider_a when both languages are in {en, lug, ach, teo, nyn, lgg}, else to provider_b when it serves the pair, else to provider_c; a provider that fails (network error, timeout, 5xx, outage) passes the request to the next. A forced provider never falls back. Source language is detected when `source_lang` is omitted. Placeholders (and, with `format` html or markdown, markup) are protected: a translation that loses or repeats one is a provider failure, never returned; `do_not_translate` terms are kept and a `glossary_id`'s terms applied (`glossary_terms_applied`).",
      auth: "api_key",
      rateLimit: "translate",
      body: {
        zod: TranslateRequest,
        schema: "TranslateRequest",
        examples: {
          luganda: {
            summary: "English → Luganda (provider_a)",
            value: { text: "Good morning, how are you?", target_lang: "lug", source_lang: "en" },
          },
          yoruba: { summary: "English → Yoruba (provider_b)", value: { text: "Thank you very much", target_lang: "yo", source_lang: "en" } },
          swahili: {
            summary: "Detect the source, forced provider_c",
            value: { text: "Where is the market?", target_lang: "sw", provider: "provider_c" },
          },
        },
      },
      maxBodyBytes: DEFAULT_JSON_BODY_BYTES,
      deadline: "TRANSLATE_DEADLINE_MS",
      errors: ["UNSUPPORTED_LANGUAGE", "UNSUPPORTED_LANGUAGE_PAIR", "PROVIDER_UNSUPPORTED_PAIR", "TEXT_TOO_LONG", "SAME_LANGUAGE", "PROVIDER_ERROR"],
      ok: { description: "The translation", schema: "TranslateResponse", headers: { ...CACHE_RESPONSE_HEADERS, ...UPSTREAM_CALLS_RESPONSE_HEADER } },
      headerParameters: [CACHE_CONTROL_PARAMETER],
      sandbox: true,
      recordsTranslationUsage: true,
    }),
  },
  "/api/v1/translate/batch": {
    post: op({
      operationId: "translateBatch",
      tags: ["Translation"],
      summary: `Translate up to ${MAX_BATCH_ITEMS} texts`,
      description:
        "Items run concurrently and each succeeds or fails on its own: a failed item has a non-null `error` and `error_code` and null translation fields, and the request as a whole is still 200 — check `failed`. Results are in request order. A batch is one request for the rate limit.",
      auth: "api_key",
      rateLimit: "batch",
      // The envelope only: the items are validated by the handler, after the BATCH_TOO_LARGE check.
      body: { zod: BatchEnvelope, schema: "BatchTranslateRequest" },
      // 50 items × 5,000 characters, each up to 12 bytes when JSON-escaped (an emoji as \uXXXX\uXXXX), fits.
      maxBodyBytes: 4 * 1024 * 1024,
      deadline: "BATCH_DEADLINE_MS",
      errors: ["BATCH_TOO_LARGE"],
      ok: {
        description: "Batch summary with one result per item",
        schema: "BatchTranslateResponse",
        headers: { ...CACHE_RESPONSE_HEADERS, ...UPSTREAM_CALLS_RESPONSE_HEADER },
      },
      headerParameters: [CACHE_CONTROL_PARAMETER],
      sandbox: true,
      recordsTranslationUsage: true,
    }),
  },
  "/api/v1/translate/catalog": {
    post: op({
      operationId: "translateCatalog",
      tags: ["Translation"],
      summary: "Translate a catalog file (JSON, PO, XLIFF, Android, .strings, ARB, YAML, SRT, VTT, Markdown)",
      description: `The file comes back with the values translated and everything else kept: keys, order, comments, layout, placeholders, markup, subtitle timings; plural messages get the target language's plural forms. Entries are packed into as few upstream calls as the provider takes, each checked on return. Incremental: send the current target file as \`existing\` (and, for formats without room for them in the file, the previous answer's \`source_hashes\`): entries whose source is unchanged are kept, only new or changed ones go upstream. What the deadline or the provider's request budget leaves undone is \`pending\` (200, never an error): call again with the returned file as \`existing\`. At most ${MAX_CATALOG_ENTRIES.toLocaleString("en-US")} entries; a file that does not parse is 422 VALIDATION_ERROR on \`content\`, naming the format and the line. With \`Accept:\` the format's media type (po text/x-gettext-translation, xliff application/xliff+xml, android application/xml, strings text/plain, yaml application/yaml, srt application/x-subrip, vtt text/vtt, markdown text/markdown) or application/octet-stream (any format), the answer is the file itself, its counts in X-Lugha-Entries-* headers.`,
      auth: "api_key",
      rateLimit: "batch",
      deadline: "BATCH_DEADLINE_MS",
      body: { zod: CatalogRequest, schema: "CatalogRequest" },
      maxBodyBytes: CATALOG_MAX_BODY_BYTES,
      errors: ["UNSUPPORTED_LANGUAGE", "UNSUPPORTED_LANGUAGE_PAIR", "SAME_LANGUAGE"],
      ok: {
        description: "The translated file and its counts; with `Accept:` the format's media type, the file itself",
        schema: "CatalogResponse",
        headers: CATALOG_FILE_HEADERS,
        content: Object.fromEntries(
          [...new Set([...Object.values(CATALOG_MEDIA_TYPES), "application/octet-stream"])]
            .filter((t) => t !== "application/json")
            .map((t) => [t, { schema: { type: "string" } }]),
        ),
      },
      headerParameters: [CACHE_CONTROL_PARAMETER],
      sandbox: true,
      recordsTranslationUsage: true,
    }),
  },
  "/api/v1/detect": {
    post: op({
      operationId: "detectLanguage",
      tags: ["Languages"],
      summary: `Detect the language of one text or up to ${MAX_DETECT_TEXTS}`,
      description:
        "The detection translate runs when `source_lang` is omitted: `language` and `confidence` are what translate would take and report for the same text. Each result adds whether to rely on it (`reliable`, and `reason` when not) and the three best candidates among the languages detection can name (`detectable` in GET /api/v1/languages), and what decided (`method`). When the local detector is not sure and a candidate is Acholi, Ateso, English, Luganda, Lugbara or Runyankole, Sunbird's language identification is asked (free: never counted against the upstream budgets) and a language it names with 90 % certainty decides (`method: language_id`); no translation provider is called. Send `text` or `texts`, not both; each text 1–5,000 characters after trimming.",
      auth: "api_key",
      rateLimit: "default",
      body: {
        zod: DetectRequest,
        schema: "DetectRequest",
        examples: {
          one: { summary: "One text", value: { text: "Abaana bagenda ku ssomero buli lunaku." } },
          several: { summary: "Several texts, results in order", value: { texts: ["Good morning", "Maakye", "Habari yako rafiki?"] } },
        },
      },
      // 50 texts × 5,000 characters, each up to 12 bytes when JSON-escaped (an emoji as \uXXXX\uXXXX), fit.
      maxBodyBytes: 4 * 1024 * 1024,
      errors: ["TEXT_TOO_LONG", "BATCH_TOO_LARGE"],
      ok: { description: "One result per text, in request order", schema: "DetectResponse" },
    }),
  },
  "/api/v1/speech/stt": {
    post: op({
      operationId: "speechToText",
      tags: ["Speech"],
      summary: "Speech-to-text",
      description:
        "Upload the recording as multipart/form-data (`audio` file, `language`, optional `provider`), or send JSON with `audio_url` (an https URL the service fetches itself: for recordings larger than an upload may be) instead of the file. The audio is recognised by its bytes, not its declared type. With `provider=auto` the providers that serve the language are tried in order, falling back when one fails. Recordings up to 10 minutes, voice notes included (OGG/Opus, WebM/Opus): longer than a provider takes at once, they are decoded and sent in WAV windows cut at pauses (Whisper 30 s, Sunbird and Khaya 120 s), one upstream request each; M4A is not decoded, so it goes only whole. `segments` carries each window's offsets, or the provider's own timing.",
      auth: "api_key",
      rateLimit: "stt",
      multipart: {
        schema: "SttForm",
        encoding: { audio: { contentType: "audio/wav, audio/mpeg, audio/ogg, audio/flac, audio/webm, audio/mp4" } },
        json: "SttUrlRequest",
      },
      maxBodyBytes: (config) => config.SPEECH_MAX_UPLOAD_BYTES,
      deadline: "SPEECH_DEADLINE_MS",
      errors: ["UNSUPPORTED_MEDIA_TYPE", "VALIDATION_ERROR", "UNSUPPORTED_LANGUAGE", "PROVIDER_ERROR"],
      ok: { description: "The transcript", schema: "SttResponse", headers: UPSTREAM_CALLS_RESPONSE_HEADER },
      sandbox: true,
    }),
  },
  "/api/v1/speech/tts": {
    post: op({
      operationId: "textToSpeech",
      tags: ["Speech"],
      summary: "Text-to-speech",
      description:
        "The audio is in the response itself, never a link that expires: base64 in JSON by default (in WAV, or in the body's `format`: `mp3`, `opus`), or the raw bytes when the request sends `Accept: audio/ogg` (Ogg/Opus, a voice note), `audio/mpeg`, `audio/wav` (or any `audio/*`: then the body's `format`, WAV by default).",
      auth: "api_key",
      rateLimit: "tts",
      body: { zod: TtsRequest, schema: "TtsRequest" },
      maxBodyBytes: DEFAULT_JSON_BODY_BYTES,
      deadline: "SPEECH_DEADLINE_MS",
      errors: ["UNSUPPORTED_LANGUAGE", "UNSUPPORTED_VOICE", "TEXT_TOO_LONG", "PROVIDER_ERROR"],
      ok: {
        description:
          "The speech: JSON with `audio_base64` by default; with `Accept: audio/ogg`, `audio/mpeg` or `audio/wav` the raw audio in that format, its metadata in the X-Lugha-* headers",
        schema: "TtsResponse",
        headers: {
          ...Object.fromEntries(Object.entries(TTS_AUDIO_HEADERS).filter(([name]) => name !== "Content-Type" && name !== "X-Lugha-Sandbox")),
          ...UPSTREAM_CALLS_RESPONSE_HEADER,
        },
        content: Object.fromEntries(TTS_FORMATS.map((f) => [TTS_MEDIA_TYPES[f].contentType, { schema: { type: "string", format: "binary" } }])),
      },
      sandbox: true,
    }),
  },
  "/api/v1/languages": {
    get: op({
      operationId: "listLanguages",
      tags: ["Languages"],
      summary: "List languages",
      description:
        "Every language at least one provider serves, with the translation pairs (provider, model and the quality_score translate reports), and STT/TTS support with providers and voices. Filters combine. Cacheable: ETag, `Cache-Control: private, max-age=300`, `If-None-Match` → 304.",
      auth: "api_key",
      rateLimit: "default",
      query: LanguagesQuery,
      errors: ["VALIDATION_ERROR", "UNSUPPORTED_LANGUAGE"],
      ok: { description: "The languages", schema: "LanguagesResponse", headers: { ETag: { schema: { type: "string" } } } },
      otherResponses: { "304": { description: "Not modified (If-None-Match matched the ETag)" } },
    }),
  },
  "/api/v1/auth/keys": {
    post: op({
      operationId: "issueKey",
      tags: ["API keys"],
      summary: "Issue an API key",
      description:
        "No authentication. The key (`svc_` + 40 hex characters) is in this response and nowhere else, ever: store it now. Only a hash is kept. Throttled per client address (a generous burst, a low sustained rate).",
      auth: "none",
      rateLimit: "issuance",
      body: {
        zod: IssueKeyRequest,
        schema: "IssueKeyRequest",
        examples: {
          default: { summary: "Default lifetime (365 days)", value: { name: "my app" } },
          short: { summary: "Expires in 30 days", value: { name: "ci pipeline", expires_in_days: 30 } },
        },
      },
      maxBodyBytes: 16 * 1024,
      errors: [],
      ok: { description: "The new key", schema: "IssuedKey" },
    }),
  },
  "/api/v1/auth/keys/me": {
    get: op({
      operationId: "inspectKey",
      tags: ["API keys"],
      summary: "Inspect the calling key",
      description: "`requests_total` counts every authenticated request made with the key, this one included.",
      auth: "api_key",
      rateLimit: "default",
      exactUsage: true,
      errors: [],
      ok: { description: "Key metadata", schema: "KeyDetails" },
    }),
    delete: op({
      operationId: "revokeKey",
      tags: ["API keys"],
      summary: "Revoke the calling key",
      description: "Every later request with the key is refused with 401 INVALID_API_KEY. Cannot be undone: issue a new key.",
      auth: "api_key",
      rateLimit: "default",
      exactUsage: true,
      errors: [],
      ok: { description: "The key is revoked", schema: "RevokedKey" },
    }),
  },
  "/api/v1/usage": {
    get: op({
      operationId: "getUsage",
      tags: ["API keys"],
      summary: "Usage of the calling key",
      description: `Requests, characters sent to providers, translation cache hits and errors (4xx/5xx responses) of the calling key, per UTC day or grouped by endpoint, HTTP status, language pair or provider. The range is \`from\`–\`to\` inclusive (UTC days, YYYY-MM-DD): by default the last ${USAGE_DEFAULT_DAYS} days including today, at most ${USAGE_MAX_DAYS} days. Every request made with the key counts, whatever its answer (a 429 or a 422 too); a request refused for its key (401) belongs to no key. Counts are written in batches just after each response, so a request shows here within about USAGE_FLUSH_INTERVAL_MS (this request is not counted yet). A bad date, \`from\` after \`to\`, a longer range or an unknown \`group_by\` is a 422 VALIDATION_ERROR whose \`loc\` names the parameter.`,
      auth: "api_key",
      rateLimit: "default",
      query: UsageQuery,
      errors: ["VALIDATION_ERROR"],
      ok: { description: "The usage, grouped", schema: "UsageResponse" },
    }),
  },
  "/api/v1/usage/requests": {
    get: op({
      operationId: "listRequests",
      tags: ["API keys"],
      summary: "Recent requests of the calling key",
      description: `The request log: every request made with the key over the last ${REQUEST_LOG_DAYS} days, newest first — when, endpoint, status, latency, the provider and model that served it, whether the translation cache answered, and its request id (the X-Request-Id of its response). Nothing of the text or the audio is kept. Filter by \`status\` (a class such as 4xx, or one status such as 429), \`endpoint\` and \`request_id\`; page with \`page\` and \`per_page\`. Lines are written with the usage counts, in batches just after each response (this request is not listed yet). Older lines are deleted; revoking the key deletes its log. A bad parameter is a 422 VALIDATION_ERROR whose \`loc\` names it.`,
      auth: "api_key",
      rateLimit: "default",
      query: RequestLogQuery,
      errors: ["VALIDATION_ERROR"],
      ok: { description: "One page of recent requests", schema: "RequestLogResponse" },
    }),
  },
  "/api/v1/glossaries": {
    post: op({
      operationId: "createGlossary",
      tags: ["Glossaries"],
      summary: "Create a glossary",
      description: `Source → target terms for one language pair, owned by the calling key (no other key can see or use it). Send the terms as \`entries\`, or as a \`csv\` or \`tsv\` string. Up to ${GLOSSARY_MAX_ENTRIES.toLocaleString("en-US")} entries; at most ${GLOSSARIES_PER_KEY} glossaries per key (a 422 VALIDATION_ERROR of type \`glossary_limit\` beyond). Immutable: to change one, create the new version and delete the old one. A bad entry is a 422 whose \`loc\` is ["body", "entries", <index>, "source"|"target"], or ["body", "csv"|"tsv", <line>].`,
      auth: "api_key",
      rateLimit: "default",
      body: {
        zod: CreateGlossaryRequest,
        schema: "CreateGlossaryRequest",
        examples: {
          json: {
            summary: "Entries as JSON",
            value: {
              name: "clinic terms",
              source_lang: "en",
              target_lang: "sw",
              entries: [{ source: "blood pressure", target: "shinikizo la damu" }],
            },
          },
          csv: {
            summary: "Entries as CSV with a header row",
            value: { source_lang: "en", target_lang: "lug", csv: 'source,target\r\nclinic,kiliniki\r\n"Dr. ""Okello"", MD","Dokita Okello"\r\n' },
          },
        },
      },
      maxBodyBytes: CREATE_GLOSSARY_MAX_BODY_BYTES,
      errors: ["UNSUPPORTED_LANGUAGE", "SAME_LANGUAGE"],
      ok: {
        status: 201,
        description: "The glossary as stored (terms trimmed and NFC-normalised, languages canonical)",
        schema: "Glossary",
        headers: { Location: { description: "/api/v1/glossaries/{id}", schema: { type: "string" } } },
      },
    }),
    get: op({
      operationId: "listGlossaries",
      tags: ["Glossaries"],
      summary: "List the calling key's glossaries",
      description: "Newest first, without entries (GET /api/v1/glossaries/{id} has them).",
      auth: "api_key",
      rateLimit: "default",
      errors: [],
      ok: { description: "The key's glossaries", schema: "GlossaryList" },
    }),
  },
  "/api/v1/glossaries/{id}": {
    get: op({
      operationId: "getGlossary",
      tags: ["Glossaries"],
      summary: "Get a glossary with its entries",
      description: "404 NOT_FOUND unless the glossary belongs to the calling key.",
      auth: "api_key",
      rateLimit: "default",
      params: GLOSSARY_ID,
      errors: ["NOT_FOUND"],
      ok: { description: "The glossary", schema: "Glossary" },
    }),
    delete: op({
      operationId: "deleteGlossary",
      tags: ["Glossaries"],
      summary: "Delete a glossary",
      description: "404 NOT_FOUND unless the glossary belongs to the calling key. Revoking a key deletes all of its glossaries.",
      auth: "api_key",
      rateLimit: "default",
      params: GLOSSARY_ID,
      errors: ["NOT_FOUND"],
      ok: { description: "The glossary is deleted", schema: "DeletedGlossary" },
    }),
  },
  "/compat/libretranslate/translate": {
    post: op({
      operationId: "libreTranslate",
      tags: [COMPAT_TAG],
      summary: "LibreTranslate: translate",
      description: `LibreTranslate's POST /translate, for the tools that speak it (Weblate, Mastodon, Discourse, Nextcloud, LibreChat). JSON or form body; the key is its \`api_key\` field. \`q\` is one text (POST /api/v1/translate: its rate limit and usage) or an array of up to ${MAX_BATCH_ITEMS} (a batch: the batch limit); \`source\` may be \`auto\`. Codes: ISO 639-1 where a language has one (lg, sw, yo), else ISO 639-3 (ach, nyn). Errors are \`{"error": "…"}\`: 400 bad input or no key, 403 a bad key, 429, 500.`,
      auth: "api_key",
      rateLimit: "translate",
      rateLimitFor: (fields) => (Array.isArray(fields.q) ? "batch" : "translate"),
      dialect: LIBRETRANSLATE,
      body: { zod: LibreTranslateRequest, schema: "LibreTranslateRequest" },
      maxBodyBytes: 4 * 1024 * 1024,
      deadline: "BATCH_DEADLINE_MS",
      errors: ["UNSUPPORTED_LANGUAGE", "UNSUPPORTED_LANGUAGE_PAIR", "TEXT_TOO_LONG", "SAME_LANGUAGE", "BATCH_TOO_LARGE", "PROVIDER_ERROR"],
      ok: { description: "translatedText (an array for an array), detectedLanguage when source was auto", schema: "LibreTranslateResponse" },
      sandbox: true,
      recordsTranslationUsage: true,
    }),
  },
  "/compat/libretranslate/detect": {
    post: op({
      operationId: "libreDetect",
      tags: [COMPAT_TAG],
      summary: "LibreTranslate: detect the language",
      description: "LibreTranslate's POST /detect: the candidates, best first, confidence 0–100 (POST /api/v1/detect's answer).",
      auth: "api_key",
      rateLimit: "default",
      dialect: LIBRETRANSLATE,
      body: { zod: LibreDetectRequest, schema: "LibreDetectRequest" },
      maxBodyBytes: DEFAULT_JSON_BODY_BYTES,
      errors: ["TEXT_TOO_LONG"],
      ok: { description: "Candidates, best first", schema: "LibreDetectResponse" },
    }),
  },
  "/compat/libretranslate/languages": {
    get: op({
      operationId: "libreLanguages",
      tags: [COMPAT_TAG],
      summary: "LibreTranslate: languages",
      description:
        "Every source language with the targets it is translated to: `[{code, name, targets}]`. No key needed (the tools that list languages send none).",
      auth: "none",
      dialect: LIBRETRANSLATE,
      errors: [],
      ok: { description: "The languages", schema: "LibreLanguagesResponse" },
    }),
  },
  "/compat/libretranslate/frontend/settings": {
    get: op({
      operationId: "libreSettings",
      tags: [COMPAT_TAG],
      summary: "LibreTranslate: server settings",
      description:
        "What LibreTranslate's own page and some tools read first: the text limit, that a key is required, the default languages. No key needed.",
      auth: "none",
      dialect: LIBRETRANSLATE,
      errors: [],
      ok: { description: "The settings", schema: "LibreSettingsResponse" },
    }),
  },
  "/compat/deepl/v2/translate": {
    post: op({
      operationId: "deeplTranslate",
      tags: [COMPAT_TAG],
      summary: "DeepL: translate",
      description: `DeepL's POST /v2/translate, for DeepL's SDKs (\`serverUrl\`: this site's /compat/deepl) and the tools built on them. Form or JSON body; the key as \`Authorization: DeepL-Auth-Key svc_…\`. One \`text\` is POST /api/v1/translate (its rate limit and usage); several (up to ${MAX_BATCH_ITEMS}) are a batch. Upper-case codes (LG, SW, ACH; EN-GB and EN-US are English). \`tag_handling\` html or xml keeps tags as sent. Errors are \`{"message": "…"}\`: 400, 403 for the key, 413, 429, 503.`,
      auth: "api_key",
      rateLimit: "translate",
      rateLimitFor: (fields) => (Array.isArray(fields.text) && fields.text.length > 1 ? "batch" : "translate"),
      dialect: DEEPL,
      body: { zod: DeepLTranslateRequest, schema: "DeepLTranslateRequest" },
      maxBodyBytes: 4 * 1024 * 1024,
      deadline: "BATCH_DEADLINE_MS",
      errors: ["UNSUPPORTED_LANGUAGE", "UNSUPPORTED_LANGUAGE_PAIR", "TEXT_TOO_LONG", "SAME_LANGUAGE", "BATCH_TOO_LARGE", "PROVIDER_ERROR"],
      ok: { description: "One translation per text, in order", schema: "DeepLTranslateResponse" },
      sandbox: true,
      recordsTranslationUsage: true,
    }),
  },
  "/compat/deepl/v2/languages": {
    get: op({
      operationId: "deeplLanguages",
      tags: [COMPAT_TAG],
      summary: "DeepL: languages",
      description: "The source or target languages (`type`) of the served pairs, as DeepL lists them.",
      auth: "api_key",
      rateLimit: "default",
      dialect: DEEPL,
      query: DeepLLanguagesQuery,
      errors: ["VALIDATION_ERROR"],
      ok: { description: "The languages", schema: "DeepLLanguagesResponse" },
    }),
  },
  "/compat/deepl/v2/usage": {
    get: op({
      operationId: "deeplUsage",
      tags: [COMPAT_TAG],
      summary: "DeepL: usage",
      description:
        "The characters the key sent for translation this calendar month (UTC), as GET /api/v1/usage counts them. A Lugha key has no character limit: `character_limit` is a figure no count reaches.",
      auth: "api_key",
      rateLimit: "default",
      dialect: DEEPL,
      errors: [],
      ok: { description: "This month's characters", schema: "DeepLUsageResponse" },
    }),
  },
  "/compat/deepl/v2/glossary-language-pairs": {
    get: op({
      operationId: "deeplGlossaryPairs",
      tags: [COMPAT_TAG],
      summary: "DeepL: glossary language pairs",
      description:
        "Empty: DeepL glossaries are not kept here (use `glossary_id` with a glossary of POST /api/v1/glossaries). Weblate asks before it would upload one.",
      auth: "api_key",
      rateLimit: "default",
      dialect: DEEPL,
      errors: [],
      ok: { description: "No pairs", schema: "DeepLGlossaryPairsResponse" },
    }),
  },
  "/compat/openai/v1/audio/transcriptions": {
    post: op({
      operationId: "openaiTranscribe",
      tags: [COMPAT_TAG],
      summary: "OpenAI: transcribe audio",
      description: `OpenAI's POST /audio/transcriptions, for OpenAI's SDKs (\`baseURL\`: this site's /compat/openai/v1) and the tools built on them (Open WebUI, LibreChat). multipart/form-data with \`file\` and \`model\`; the key as \`Authorization: Bearer svc_…\`. POST /api/v1/speech/stt's service, rate limit and usage. The language comes from \`language\` or from the model (lugha-stt-lg); without either, a 400 on \`language\`. \`response_format\`: json, text, srt, vtt or verbose_json (segments; the whole recording is one segment when the provider gives no timing). Errors are \`{"error": {message, type, param, code}}\`: 400, 401 for the key, 404, 413, 429, 500, 503.`,
      auth: "api_key",
      rateLimit: "stt",
      dialect: OPENAI,
      body: { zod: OpenAITranscriptionRequest, schema: "OpenAITranscriptionRequest" },
      multipart: {
        schema: "OpenAITranscriptionRequest",
        encoding: { file: { contentType: "audio/wav, audio/mpeg, audio/ogg, audio/flac, audio/webm, audio/mp4" } },
      },
      maxBodyBytes: (config) => config.SPEECH_MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES,
      deadline: "SPEECH_DEADLINE_MS",
      errors: ["UNSUPPORTED_MEDIA_TYPE", "VALIDATION_ERROR", "UNSUPPORTED_LANGUAGE", "PROVIDER_ERROR"],
      ok: {
        description: "The transcript: JSON for json and verbose_json, text for text, SubRip for srt, WebVTT for vtt",
        schema: "OpenAITranscription",
        content: Object.fromEntries(["text/plain", "application/x-subrip", "text/vtt"].map((t) => [t, { schema: { type: "string" } }])),
      },
      sandbox: true,
    }),
  },
  "/compat/openai/v1/audio/speech": {
    post: op({
      operationId: "openaiSpeech",
      tags: [COMPAT_TAG],
      summary: "OpenAI: text to speech",
      description: `OpenAI's POST /audio/speech: \`{model, input, voice, response_format}\` as JSON, the key as \`Authorization: Bearer svc_…\`. POST /api/v1/speech/tts's service, rate limit and usage. The language comes from \`language\` or from the model (lugha-tts-lg); without either, a 400 on \`language\`. \`voice\`: a voice id of GET /api/v1/languages; OpenAI's own names (alloy, ...) mean the language's default voice. \`response_format\`: mp3 (default), opus, wav, pcm (24 kHz, 16-bit little-endian, mono, no header); aac, flac and a \`speed\` other than 1 are refused. Errors are \`{"error": {message, type, param, code}}\`.`,
      auth: "api_key",
      rateLimit: "tts",
      dialect: OPENAI,
      body: { zod: OpenAISpeechRequest, schema: "OpenAISpeechRequest" },
      maxBodyBytes: DEFAULT_JSON_BODY_BYTES,
      deadline: "SPEECH_DEADLINE_MS",
      errors: ["UNSUPPORTED_LANGUAGE", "UNSUPPORTED_VOICE", "TEXT_TOO_LONG", "PROVIDER_ERROR"],
      ok: {
        description: "The audio file",
        content: Object.fromEntries(
          ["audio/mpeg", "audio/ogg", "audio/wav", "audio/pcm"].map((t) => [t, { schema: { type: "string", format: "binary" } }]),
        ),
      },
      sandbox: true,
    }),
  },
  "/compat/openai/v1/models": {
    get: op({
      operationId: "openaiModels",
      tags: [COMPAT_TAG],
      summary: "OpenAI: models",
      description:
        "What this surface serves: lugha-stt and lugha-tts (the language from the request's `language`), and lugha-stt-<code> and lugha-tts-<code> for each language transcribed or spoken now (ISO 639-1 where a language has one: lugha-tts-lg).",
      auth: "api_key",
      rateLimit: "default",
      dialect: OPENAI,
      errors: [],
      ok: { description: "The models", schema: "OpenAIModelList" },
    }),
  },
  "/compat/openai/v1/models/{model}": {
    get: op({
      operationId: "openaiModel",
      tags: [COMPAT_TAG],
      summary: "OpenAI: one model",
      description: "A model GET /compat/openai/v1/models lists; any other is 404.",
      auth: "api_key",
      rateLimit: "default",
      dialect: OPENAI,
      params: z.object({ model: z.string().meta({ description: "lugha-stt, lugha-tts-lg, ..." }) }),
      errors: ["NOT_FOUND"],
      ok: { description: "The model", schema: "OpenAIModel" },
    }),
  },
  "/health": {
    get: op({
      operationId: "health",
      tags: ["Service"],
      summary: "Health check",
      description:
        "No authentication. 200 while the service can serve (`ok` or `degraded`), 503 `down` when it cannot (database unreachable). Shows whether providers run live or in the sandbox.",
      auth: "none",
      errors: [],
      ok: { description: "ok or degraded", schema: "HealthResponse" },
      otherResponses: {
        "503": { description: "down", content: { "application/json": { schema: { $ref: "#/components/schemas/HealthResponse" } } } },
      },
    }),
  },
  "/health/live": {
    get: op({
      operationId: "healthLive",
      tags: ["Service"],
      summary: "Liveness",
      description:
        "No authentication. 200 whenever the process answers; no dependency is checked, so an orchestrator restarts the process only when it is stuck, never because the database blips.",
      auth: "none",
      errors: [],
      ok: { description: "The process answers", schema: "LiveResponse" },
    }),
  },
  "/health/ready": {
    get: op({
      operationId: "healthReady",
      tags: ["Service"],
      summary: "Readiness",
      description:
        "No authentication. 200 when the database and the shared store (rate limits, cache) answer; 503 otherwise, so a load balancer sends traffic elsewhere until they do.",
      auth: "none",
      errors: [],
      ok: { description: "Ready to serve", schema: "ReadyResponse" },
      otherResponses: {
        "503": { description: "Not ready", content: { "application/json": { schema: { $ref: "#/components/schemas/ReadyResponse" } } } },
      },
    }),
  },
  "/metrics": {
    get: op({
      operationId: "metrics",
      tags: ["Service"],
      summary: "Metrics (Prometheus)",
      description:
        "For the operator: `Authorization: Bearer <HEALTH_OPERATOR_TOKEN>`; 401 without it. The OpenTelemetry metrics in the Prometheus text format: requests by route and status, latency histograms, upstream attempts by provider and model, circuit state, budgets, cache, rate-limit refusals, usage flush lag (docs/operations.md lists them).",
      auth: "operator",
      errors: [],
      ok: { description: "Prometheus text format 0.0.4", content: { "text/plain": { schema: { type: "string" } } } },
    }),
  },
  "/api/v1/openapi.json": {
    get: op({
      operationId: "openapi",
      tags: ["Service"],
      summary: "This OpenAPI document",
      description:
        "Fixed for the life of a deployment. Cacheable by browsers and shared caches: a strong ETag, `Cache-Control: public, max-age=300, s-maxage=3600, stale-while-revalidate=86400`, `If-None-Match` → 304.",
      auth: "none",
      errors: [],
      ok: {
        description: "OpenAPI 3.0.3",
        content: { "application/json": { schema: { type: "object" } } },
        headers: { ETag: { schema: { type: "string" } } },
      },
      otherResponses: { "304": { description: "Not modified (If-None-Match matched the ETag)" } },
    }),
  },
};

export type RoutePath = keyof typeof ROUTES;

/** The methods a path answers, as the Allow header lists them: its own, HEAD with GET, and OPTIONS. */
export function allowedMethods(path: RoutePath): string[] {
  const own = Object.keys(ROUTES[path]).map((m) => m.toUpperCase());
  return [...own, ...(own.includes("GET") ? ["HEAD"] : []), "OPTIONS"];
}

/** The byte cap of an operation's body (the configured one when it is configurable). */
export function bodyLimit(operation: Pick<Operation, "maxBodyBytes">, config: Config): number | undefined {
  const limit = operation.maxBodyBytes;
  return typeof limit === "function" ? limit(config) : limit;
}

/** Every (method, path, operation) of the manifest, for the document and the common route tests. */
export function operations(): { method: Method; path: RoutePath; operation: Operation }[] {
  return Object.entries(ROUTES).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method as Method, path: path as RoutePath, operation: operation as Operation })),
  );
}

/** The manifest path a request path names, if any ("/api/v1/glossaries/<anything>" names "/api/v1/glossaries/{id}"). */
export function routeFor(pathname: string): RoutePath | undefined {
  return matchTemplate(Object.keys(ROUTES) as RoutePath[], pathname);
}

/**
 * The protocol of the compatibility surface a path is under (/compat/<surface>/…: the dialect of its routes), so that a
 * path it has no route for is refused in that protocol's shape; undefined elsewhere.
 */
export function dialectAt(pathname: string): Dialect | undefined {
  const mount = /^\/compat\/[^/]+\//.exec(pathname)?.[0];
  if (!mount) return undefined;
  return operations().find(({ path, operation }) => path.startsWith(mount) && operation.dialect)?.operation.dialect;
}

/**
 * How long a route's serverless function may run (Vercel's `maxDuration`, seconds): its longest deadline at the default
 * configuration plus FUNCTION_MARGIN_SECONDS (room for a cold start, reading the body and writing the answer), or
 * FUNCTION_DEFAULT_SECONDS for a route without one. Next.js reads `maxDuration` only as a literal in the route file, so
 * each route file exports this number written out, and a test (scripts/max-duration.test.ts) keeps the two equal; the
 * Vercel build test checks what the platform receives.
 */
export const FUNCTION_MARGIN_SECONDS = 30;
/** Routes that call no upstream: database and in-process work only. */
export const FUNCTION_DEFAULT_SECONDS = 30;
/** The longest a function may run with Fluid compute on every Vercel plan. */
export const PLATFORM_MAX_DURATION_SECONDS = 300;

export function maxDurationSeconds(path: RoutePath): number {
  const deadlines = Object.values(ROUTES[path]).flatMap((o: Operation) => (o.deadline ? [CONFIG_DEFAULTS[o.deadline]] : []));
  const deadline = deadlines.length ? Math.max(...deadlines) : undefined;
  return deadline === undefined ? FUNCTION_DEFAULT_SECONDS : Math.ceil(deadline / 1000) + FUNCTION_MARGIN_SECONDS;
}

/**
 * On Vercel the functions stop at their built-in maxDuration: a deadline the operator raises past it minus the margin
 * would let the platform cut requests with its own 504. Such a configuration is refused (at build and at start-up).
 */
export function deadlineProblems(config: Config): string[] {
  if (!config.VERCEL) return [];
  const problems = new Map<string, string>();
  for (const { path, operation } of operations()) {
    const variable = operation.deadline;
    if (!variable) continue;
    const limitMs = (maxDurationSeconds(path) - FUNCTION_MARGIN_SECONDS) * 1000;
    if (config[variable] > limitMs && !problems.has(variable)) {
      problems.set(
        variable,
        `${variable} is ${config[variable]} ms; on Vercel ${path} stops after ${maxDurationSeconds(path)} s, so it must be at most ${limitMs} ms`,
      );
    }
  }
  return [...problems.values()];
}
