import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "@/lib/http/errors";
import { IssuedKey, IssueKeyRequest, KEY_LIFETIME_MAX_DAYS, KEY_NAME_MAX, KeyDetails } from "@/lib/keys/schemas";
import { LanguageEntry, LanguagesQuery, LanguagesResponse, TranslationTarget } from "@/lib/languages/schemas";
import { SttForm, SttResponse, TTS_AUDIO_HEADERS, TtsRequest, TtsResponse } from "@/lib/speech/schemas";
import {
  BatchItem,
  BatchItemResult,
  BatchTranslateRequest,
  BatchTranslateResponse,
  MAX_BATCH_ITEMS,
  TranslateRequest,
  TranslateResponse,
} from "@/lib/translate/schemas";
import packageJson from "@/package.json";
import { ERROR_DOCS, ErrorBody, errorExample, FieldError } from "./errors";
import { HealthResponse } from "./health";
import { type SchemaObject, toOpenApiSchema, toOpenApiSchemas } from "./zod-to-openapi";

/**
 * The OpenAPI 3.0.3 document served at /api/v1/openapi.json and rendered by /docs. Every request and response schema
 * is generated from the zod schema the route handler validates with (or, for responses, types its result with), so
 * the documentation cannot drift from the code. 3.0.3 rather than 3.1: swagger-ui-react under Turbopack fails on 3.1.
 */

export const RevokedKey = z
  .object({
    revoked: z.literal(true),
    name: z.string(),
    display_prefix: z.string(),
  })
  .describe("DELETE /api/v1/auth/keys/me response");

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

type Op = Record<string, unknown>;

const RATE_HEADERS = {
  "X-RateLimit-Limit": { $ref: "#/components/headers/X-RateLimit-Limit" },
  "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" },
  "X-RateLimit-Reset": { $ref: "#/components/headers/X-RateLimit-Reset" },
};
const REQUEST_ID = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } };

/** Error responses of one operation, grouped by status, one named example per code. */
function errorResponses(codes: ErrorCode[], authenticated: boolean): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus.entries()].sort((a, b) => a[0] - b[0])) {
    const headers: Record<string, unknown> = { ...REQUEST_ID, ...(authenticated ? RATE_HEADERS : {}) };
    if (status === 429 || list.includes("SERVICE_UNAVAILABLE") || list.includes("PROVIDER_ERROR"))
      headers["Retry-After"] = { $ref: "#/components/headers/Retry-After" };
    if (status === 401) headers["WWW-Authenticate"] = { schema: { type: "string" }, example: 'Bearer realm="lugha"' };
    out[String(status)] = {
      description: list.map((c) => `\`${c}\`: ${ERROR_DOCS[c].when}`).join(". "),
      headers,
      content: {
        "application/json": {
          schema: ref("ErrorBody"),
          examples: Object.fromEntries(list.map((c) => [c, { $ref: `#/components/examples/${c}` }])),
        },
      },
    };
  }
  return out;
}

const AUTH: ErrorCode[] = ["MISSING_API_KEY", "INVALID_API_KEY"];
const JSON_BODY: ErrorCode[] = ["INVALID_JSON", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "VALIDATION_ERROR"];
const ALWAYS: ErrorCode[] = ["INTERNAL_ERROR", "SERVICE_UNAVAILABLE"];

function ok(description: string, schemaName: string, authenticated: boolean, extraHeaders: Record<string, unknown> = {}) {
  return {
    description,
    headers: { ...REQUEST_ID, ...(authenticated ? RATE_HEADERS : {}), ...extraHeaders },
    content: { "application/json": { schema: ref(schemaName) } },
  };
}

function jsonBody(schemaName: string, examples?: Record<string, { summary: string; value: unknown }>) {
  return {
    required: true,
    content: { "application/json": { schema: ref(schemaName), ...(examples ? { examples } : {}) } },
  };
}

const SANDBOX_HEADER = {
  "X-Lugha-Sandbox": {
    description: "`true` when a sandbox emulator served the request: the output is NOT a real translation",
    schema: { type: "string", enum: ["true"] },
  },
};

const CACHE_HEADER = {
  "X-Lugha-Cache": {
    description:
      '`hit`: answered from the translation cache (batch: every item that succeeded was), no upstream call; `miss`: sent upstream; `bypass`: the request asked not to be answered from the cache (`Cache-Control: no-cache` or `"cache": false`). Absent when the operator turned the cache off.',
    schema: { type: "string", enum: ["hit", "miss", "bypass"] },
  },
};

/** The request header that bypasses the cache, like the body's `"cache": false`. */
const CACHE_CONTROL_PARAM = {
  name: "Cache-Control",
  in: "header",
  required: false,
  description: "`no-cache`: do not answer from the translation cache; the fresh result is still stored.",
  schema: { type: "string" },
  example: "no-cache",
};

function paths(): Record<string, Record<string, Op>> {
  const languageParams = Object.entries(LanguagesQuery.shape).map(([name, schema]) => {
    const s = toOpenApiSchema(schema as z.ZodType);
    const { description, ...rest } = s;
    return { name, in: "query", required: false, description, schema: rest };
  });

  return {
    "/api/v1/translate": {
      post: {
        operationId: "translate",
        tags: ["Translation"],
        summary: "Translate one text",
        description:
          "With `provider=auto` (default) the pair is routed to provider_a when both languages are in {en, lug, ach, teo, nyn, lgg}, else to provider_b when it serves the pair, else to provider_c; a provider that fails (network error, timeout, 5xx, outage) passes the request to the next. A forced provider never falls back. Source language is detected when `source_lang` is omitted. Rate limit: translate bucket (60/min per key by default).",
        parameters: [CACHE_CONTROL_PARAM],
        requestBody: jsonBody("TranslateRequest", {
          luganda: {
            summary: "English → Luganda (provider_a)",
            value: { text: "Good morning, how are you?", target_lang: "lug", source_lang: "en" },
          },
          yoruba: { summary: "English → Yoruba (provider_b)", value: { text: "Thank you very much", target_lang: "yo", source_lang: "en" } },
          swahili: {
            summary: "Detect the source, forced provider_c",
            value: { text: "Where is the market?", target_lang: "sw", provider: "provider_c" },
          },
        }),
        responses: {
          "200": ok("The translation", "TranslateResponse", true, { ...SANDBOX_HEADER, ...CACHE_HEADER }),
          ...errorResponses(
            [
              ...AUTH,
              ...JSON_BODY,
              "UNSUPPORTED_LANGUAGE",
              "UNSUPPORTED_LANGUAGE_PAIR",
              "PROVIDER_UNSUPPORTED_PAIR",
              "TEXT_TOO_LONG",
              "SAME_LANGUAGE",
              "RATE_LIMIT_EXCEEDED",
              "PROVIDER_ERROR",
              ...ALWAYS,
            ],
            true,
          ),
        },
      },
    },
    "/api/v1/translate/batch": {
      post: {
        operationId: "translateBatch",
        tags: ["Translation"],
        summary: `Translate up to ${MAX_BATCH_ITEMS} texts`,
        description:
          "Items run concurrently and each succeeds or fails on its own: a failed item has a non-null `error` and `error_code` and null translation fields, and the request as a whole is still 200 — check `failed`. Results are in request order. A batch is one request for the rate limit (batch bucket, 10/min per key by default).",
        parameters: [CACHE_CONTROL_PARAM],
        requestBody: jsonBody("BatchTranslateRequest"),
        responses: {
          "200": ok("Batch summary with one result per item", "BatchTranslateResponse", true, { ...SANDBOX_HEADER, ...CACHE_HEADER }),
          ...errorResponses([...AUTH, ...JSON_BODY, "BATCH_TOO_LARGE", "RATE_LIMIT_EXCEEDED", ...ALWAYS], true),
        },
      },
    },
    "/api/v1/speech/stt": {
      post: {
        operationId: "speechToText",
        tags: ["Speech"],
        summary: "Speech-to-text",
        description:
          "Upload the recording as multipart/form-data (`audio` file, `language`, optional `provider`). The audio is recognised by its bytes, not its declared type. With `provider=auto` the providers that serve the language are tried in order, falling back when one fails. Rate limit: stt bucket (20/min per key by default).",
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                ...ref("SttForm"),
              },
              encoding: { audio: { contentType: "audio/wav, audio/mpeg, audio/ogg, audio/flac, audio/webm, audio/mp4" } },
            },
          },
        },
        responses: {
          "200": ok("The transcript", "SttResponse", true),
          ...errorResponses(
            [
              ...AUTH,
              "PAYLOAD_TOO_LARGE",
              "UNSUPPORTED_MEDIA_TYPE",
              "VALIDATION_ERROR",
              "UNSUPPORTED_LANGUAGE",
              "RATE_LIMIT_EXCEEDED",
              "PROVIDER_ERROR",
              ...ALWAYS,
            ],
            true,
          ),
        },
      },
    },
    "/api/v1/speech/tts": {
      post: {
        operationId: "textToSpeech",
        tags: ["Speech"],
        summary: "Text-to-speech",
        description:
          "The audio is in the response itself, never a link that expires: base64 in JSON by default, or the raw bytes when the request sends `Accept: audio/wav` (or any `audio/*`). Rate limit: tts bucket (20/min per key by default).",
        requestBody: jsonBody("TtsRequest"),
        responses: {
          "200": {
            description:
              "The speech: JSON with `audio_base64` by default; with `Accept: audio/wav` the raw audio, its metadata in the X-Lugha-* headers",
            headers: {
              ...REQUEST_ID,
              ...RATE_HEADERS,
              ...Object.fromEntries(Object.entries(TTS_AUDIO_HEADERS).filter(([name]) => name !== "Content-Type")),
            },
            content: {
              "application/json": { schema: ref("TtsResponse") },
              "audio/wav": { schema: { type: "string", format: "binary" } },
            },
          },
          ...errorResponses(
            [...AUTH, ...JSON_BODY, "UNSUPPORTED_LANGUAGE", "UNSUPPORTED_VOICE", "TEXT_TOO_LONG", "RATE_LIMIT_EXCEEDED", "PROVIDER_ERROR", ...ALWAYS],
            true,
          ),
        },
      },
    },
    "/api/v1/languages": {
      get: {
        operationId: "listLanguages",
        tags: ["Languages"],
        summary: "List languages",
        description:
          "Every language at least one provider serves, with the translation pairs (provider, model and the quality_score translate reports), and STT/TTS support with providers and voices. Filters combine. Cacheable: ETag, `Cache-Control: private, max-age=300`, `If-None-Match` → 304.",
        parameters: languageParams,
        responses: {
          "200": ok("The languages", "LanguagesResponse", true, { ETag: { schema: { type: "string" } } }),
          "304": { description: "Not modified (If-None-Match matched the ETag)" },
          ...errorResponses([...AUTH, "VALIDATION_ERROR", "UNSUPPORTED_LANGUAGE", "RATE_LIMIT_EXCEEDED", ...ALWAYS], true),
        },
      },
    },
    "/api/v1/auth/keys": {
      post: {
        operationId: "issueKey",
        tags: ["API keys"],
        summary: "Issue an API key",
        description:
          "No authentication. The key (`svc_` + 40 hex characters) is in this response and nowhere else, ever: store it now. Only a hash is kept. Throttled per client address (a generous burst, a low sustained rate).",
        security: [],
        requestBody: jsonBody("IssueKeyRequest", {
          default: { summary: "Default lifetime (365 days)", value: { name: "my app" } },
          short: { summary: "Expires in 30 days", value: { name: "ci pipeline", expires_in_days: 30 } },
        }),
        responses: {
          "200": ok("The new key", "IssuedKey", false),
          ...errorResponses([...JSON_BODY, "RATE_LIMIT_EXCEEDED", ...ALWAYS], false),
        },
      },
    },
    "/api/v1/auth/keys/me": {
      get: {
        operationId: "inspectKey",
        tags: ["API keys"],
        summary: "Inspect the calling key",
        description: "`requests_total` counts every authenticated request made with the key, this one included.",
        responses: {
          "200": ok("Key metadata", "KeyDetails", true),
          ...errorResponses([...AUTH, "RATE_LIMIT_EXCEEDED", ...ALWAYS], true),
        },
      },
      delete: {
        operationId: "revokeKey",
        tags: ["API keys"],
        summary: "Revoke the calling key",
        description: "Every later request with the key is refused with 401 INVALID_API_KEY. Cannot be undone: issue a new key.",
        responses: {
          "200": ok("The key is revoked", "RevokedKey", true),
          ...errorResponses([...AUTH, "RATE_LIMIT_EXCEEDED", ...ALWAYS], true),
        },
      },
    },
    "/health": {
      get: {
        operationId: "health",
        tags: ["Service"],
        summary: "Health check",
        description:
          "No authentication. 200 while the service can serve (`ok` or `degraded`), 503 `down` when it cannot (database unreachable). Shows whether providers run live or in the sandbox.",
        security: [],
        responses: {
          "200": { description: "ok or degraded", content: { "application/json": { schema: ref("HealthResponse") } } },
          "503": { description: "down", content: { "application/json": { schema: ref("HealthResponse") } } },
        },
      },
    },
    "/api/v1/openapi.json": {
      get: {
        operationId: "openapi",
        tags: ["Service"],
        summary: "This OpenAPI document",
        security: [],
        responses: { "200": { description: "OpenAPI 3.0.3", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
  };
}

function schemas(): Record<string, SchemaObject> {
  const requests = toOpenApiSchemas({ TranslateRequest, BatchTranslateRequest, BatchItem, IssueKeyRequest, TtsRequest, SttForm }, "input");
  const responses = toOpenApiSchemas(
    {
      TranslateResponse,
      BatchTranslateResponse,
      BatchItemResult,
      IssuedKey,
      KeyDetails,
      RevokedKey,
      LanguagesResponse,
      LanguageEntry,
      TranslationTarget,
      SttResponse,
      TtsResponse,
      HealthResponse,
      ErrorBody,
      FieldError,
    },
    "output",
  );
  const all = { ...requests, ...responses };

  // What zod's refinements say but JSON Schema cannot express (lib/keys/schemas.ts checks them in code).
  const issue = all.IssueKeyRequest as { properties: Record<string, SchemaObject>; example?: unknown };
  issue.properties.name = {
    ...issue.properties.name,
    minLength: 1,
    maxLength: KEY_NAME_MAX,
    description: `A label for the key: 1–${KEY_NAME_MAX} characters after trimming, no control or bidirectional-override characters. Not unique; two keys with one name are still two keys.`,
  };
  issue.properties.expires_in_days = {
    ...issue.properties.expires_in_days,
    default: KEY_LIFETIME_MAX_DAYS,
    description: `Lifetime in days, 1–${KEY_LIFETIME_MAX_DAYS}; default ${KEY_LIFETIME_MAX_DAYS} (one year)`,
  };
  issue.example = { name: "my app", expires_in_days: 90 };

  const stt = all.SttForm as { properties: Record<string, SchemaObject> };
  stt.properties.audio = { ...stt.properties.audio, type: "string", format: "binary" };

  const issued = all.IssuedKey as { example?: unknown };
  issued.example = {
    api_key: "svc_0123456789abcdef0123456789abcdef01234567",
    name: "my app",
    created_at: "2026-11-21T09:30:00.000Z",
    expires_at: "2027-11-21T09:30:00.000Z",
  };
  const details = all.KeyDetails as { example?: unknown; properties: Record<string, SchemaObject> };
  details.properties.requests_total = {
    ...details.properties.requests_total,
    description: "Authenticated requests made with this key, any endpoint and outcome (429s included), this one included",
  };
  details.properties.rate_limits = {
    ...details.properties.rate_limits,
    description: "Per-key limits by bucket: translate, batch, stt, tts, default",
  };
  details.example = {
    name: "my app",
    created_at: "2026-11-21T09:30:00.000Z",
    expires_at: "2027-11-21T09:30:00.000Z",
    requests_total: 42,
    display_prefix: "svc_01234567",
    last_used_at: "2026-11-22T14:02:11.120Z",
    rate_limits: {
      translate: { limit: 60, window_seconds: 60 },
      batch: { limit: 10, window_seconds: 60 },
      stt: { limit: 20, window_seconds: 60 },
      tts: { limit: 20, window_seconds: 60 },
      default: { limit: 120, window_seconds: 60 },
    },
  };
  const batch = all.BatchTranslateResponse as { example?: unknown };
  batch.example = {
    results: [
      {
        id: "greeting",
        translated_text: "Wasuze otya",
        detected_source_lang: "en",
        target_lang: "lug",
        model_used: "provider_a/sunflower",
        provider: "provider_a",
        quality_score: 0.92,
        error: null,
        error_code: null,
        latency_ms: 380,
        characters_translated: 12,
        fallback_used: false,
        sandbox: false,
        cached: false,
      },
      {
        id: "bad",
        translated_text: null,
        detected_source_lang: null,
        target_lang: null,
        model_used: null,
        provider: null,
        quality_score: null,
        error: 'target_lang "xx" is not a supported language code.',
        error_code: "UNSUPPORTED_LANGUAGE",
        latency_ms: 0,
        characters_translated: null,
        fallback_used: null,
        sandbox: null,
        cached: null,
      },
    ],
    total: 2,
    succeeded: 1,
    failed: 1,
    total_latency_ms: 402,
    characters_translated: 12,
    sandbox: false,
  };
  return all;
}

const DESCRIPTION = `
Translation and speech for African languages, behind one API. Lugha routes each request to the best upstream for the
language pair — **provider_a** (specialised in Ugandan languages), **provider_b** (West African languages ↔ English),
**provider_c** (open-model hub: pair models and a multilingual fallback) — and falls back when one fails.

### Authentication
Get a key on the [home page](/) or with \`POST /api/v1/auth/keys\`, then send \`Authorization: Bearer svc_<40 hex>\`
on every request except key issuance and \`/health\`. Here: press **Authorize**, paste the key, then **Try it out**.

### Quality bands (\`quality_score\`)
| score | band |
|---|---|
| 0.90–1.00 | Excellent: specialised provider for the pair |
| 0.80–0.89 | Good: dedicated translation model |
| 0.70–0.79 | Decent: general-purpose model |
| 0.60–0.69 | Acceptable: multilingual fallback |
| below 0.60 | Poor: use with caution |

### Errors
Every error is \`{"detail": {"code", "message", "request_id"}}\`; a 422 adds \`detail.errors: [{loc, msg, type}]\`.
Every response carries \`X-Request-Id\`.

| status | code | when |
|---|---|---|
${(Object.keys(ERROR_STATUS) as ErrorCode[])
  .sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b])
  .map((c) => `| ${ERROR_STATUS[c]} | \`${c}\` | ${ERROR_DOCS[c].when} |`)
  .join("\n")}

### Rate limits
Per key, sliding window: translate 60/min, batch 10/min, STT 20/min, TTS 20/min, everything else 120/min (defaults;
the operator may change them — \`GET /api/v1/auth/keys/me\` shows the ones in force). Every authenticated response
carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; a 429 carries \`Retry-After\`.

### Cache
Translations are cached per API key (7 days by default): an identical request is answered without an upstream call,
with \`cached: true\` and \`X-Lugha-Cache: hit\`. Send \`Cache-Control: no-cache\` or \`"cache": false\` to ask the
providers again. Identical requests in flight share one upstream call.

### Sandbox
A server without provider credentials answers from offline emulators: the text is marked \`[sandbox:…]\`, the response
has \`sandbox: true\` and the header \`X-Lugha-Sandbox: true\`. It is never a real translation.
`.trim();

let cached: Record<string, unknown> | undefined;

export function openApiDocument(): Record<string, unknown> {
  cached ??= {
    openapi: "3.0.3",
    info: {
      title: "Lugha API",
      version: packageJson.version,
      description: DESCRIPTION,
    },
    servers: [{ url: "/", description: "This server" }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: "Translation", description: "Text translation, single and batch" },
      { name: "Speech", description: "Speech-to-text and text-to-speech" },
      { name: "Languages", description: "What is supported, by whom" },
      { name: "API keys", description: "Issue, inspect and revoke keys" },
      { name: "Service", description: "Health and this document" },
    ],
    paths: paths(),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "svc_<40 hex characters>",
          description: "An API key from POST /api/v1/auth/keys",
        },
      },
      schemas: schemas(),
      headers: {
        "X-Request-Id": { description: "Identifier of this request (also detail.request_id in errors)", schema: { type: "string" } },
        "X-RateLimit-Limit": { description: "Requests allowed per window in this endpoint's bucket", schema: { type: "integer" } },
        "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" } },
        "X-RateLimit-Reset": { description: "Unix time (seconds) at which the window has fully refilled", schema: { type: "integer" } },
        "Retry-After": { description: "Whole seconds to wait before retrying (at least 1)", schema: { type: "integer", minimum: 1 } },
      },
      examples: Object.fromEntries(
        (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => [code, { summary: `${ERROR_STATUS[code]} ${code}`, value: errorExample(code) }]),
      ),
    },
  };
  return cached;
}

/** The eight endpoints of the contract, as (method, path). */
export const SPEC_ENDPOINTS = [
  ["post", "/api/v1/translate"],
  ["post", "/api/v1/translate/batch"],
  ["post", "/api/v1/speech/stt"],
  ["post", "/api/v1/speech/tts"],
  ["get", "/api/v1/languages"],
  ["post", "/api/v1/auth/keys"],
  ["get", "/api/v1/auth/keys/me"],
  ["get", "/health"],
] as const;
