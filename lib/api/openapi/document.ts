import type { z } from "zod";
import contract from "@/docs/openapi.json";
import { bodyLimit, COMPAT_TAG, type Operation, operations } from "@/lib/api/manifest";
import { CONFIG_DEFAULTS, config, type RateLimitRule } from "@/lib/config";
import { formatBytes } from "@/lib/kit/bytes";
import { ERROR_STATUS, type ErrorCode } from "@/lib/kit/errors";
import { SANDBOX_HEADER } from "@/lib/kit/headers";
import { ruleOf } from "@/lib/server/settings";
import packageJson from "@/package.json";
import { ERROR_DOCS, errorExample } from "./errors";
import { type SchemaObject, toOpenApiSchema } from "./zod-to-openapi";

/**
 * The OpenAPI 3.0.3 document served at /api/v1/openapi.json and rendered by /docs. Every request and response schema
 * is generated from the zod schema the route handler validates with (or, for responses, types its result with:
 * ./component-schemas.ts), and a test fails when the committed copy differs, so the documentation cannot drift from the
 * code. 3.0.3 rather than 3.1: swagger-ui-react under Turbopack fails on 3.1.
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const RATE_HEADERS = {
  "X-RateLimit-Limit": { $ref: "#/components/headers/X-RateLimit-Limit" },
  "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" },
  "X-RateLimit-Reset": { $ref: "#/components/headers/X-RateLimit-Reset" },
};
const REQUEST_ID = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } };
const SANDBOX_HEADERS = {
  [SANDBOX_HEADER]: {
    description: "`true` when a sandbox emulator served the request: the output is NOT a real translation",
    schema: { type: "string", enum: ["true"] },
  },
};

/**
 * Every error an operation can answer: the wrapper's own (lib/api/route.ts apiRoute: authentication, body, rate
 * limit, and 503 SERVICE_UNAVAILABLE once the database or the rate-limit store is involved) around the handler's.
 */
function operationErrors(operation: Operation): ErrorCode[] {
  const usesStore = operation.auth === "api_key" || operation.rateLimit !== undefined;
  const codes: ErrorCode[] = [
    ...(operation.auth !== "none" ? (["MISSING_API_KEY", "INVALID_API_KEY"] as const) : []),
    ...(operation.body ? (["INVALID_JSON", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "VALIDATION_ERROR"] as const) : []),
    ...(operation.multipart ? (["PAYLOAD_TOO_LARGE"] as const) : []),
    ...(operation.multipart?.json ? (["INVALID_JSON"] as const) : []),
    ...operation.errors,
    // Authenticated operations also answer 429 to an address over its failed-authentication budget.
    ...(operation.rateLimit || operation.auth === "api_key" ? (["RATE_LIMIT_EXCEEDED"] as const) : []),
    "INTERNAL_ERROR",
    ...(usesStore ? (["SERVICE_UNAVAILABLE"] as const) : []),
  ];
  return [...new Set(codes)];
}

/** Error responses of one operation, grouped by status, one named example per code. */
function errorResponses(operation: Operation): Record<string, unknown> {
  const codes = operationErrors(operation);
  const authenticated = operation.auth === "api_key";
  const limit = bodyLimit(operation, config());
  const when = (code: ErrorCode) =>
    code === "PAYLOAD_TOO_LARGE" && limit !== undefined ? `The body is larger than ${formatBytes(limit)}` : ERROR_DOCS[code].when;
  const { dialect } = operation;
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = dialect ? dialect.status(code, ERROR_STATUS[code]) : ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus.entries()].sort((a, b) => a[0] - b[0])) {
    const headers: Record<string, unknown> = {
      ...REQUEST_ID,
      ...(authenticated && (operation.rateLimit || status === 429) ? RATE_HEADERS : {}),
    };
    if (status === 429 || list.includes("SERVICE_UNAVAILABLE") || list.includes("PROVIDER_ERROR"))
      headers["Retry-After"] = { $ref: "#/components/headers/Retry-After" };
    if (status === 401) headers["WWW-Authenticate"] = { schema: { type: "string" }, example: 'Bearer realm="lugha"' };
    if (dialect) {
      // Another protocol's error body has no code: the description says which of the API's refusals each status is.
      out[String(status)] = {
        description: list.map((c) => `${when(c)}`).join(". "),
        headers,
        content: { "application/json": { schema: ref(dialect.errorSchema) } },
      };
      continue;
    }
    out[String(status)] = {
      description: list.map((c) => `\`${c}\`: ${when(c)}`).join(". "),
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

/** One operation of the manifest as an OpenAPI Operation Object. */
function operationObject(operation: Operation): Record<string, unknown> {
  const authenticated = operation.auth === "api_key";
  const okContent: Record<string, unknown> = {
    ...(operation.ok.schema ? { "application/json": { schema: ref(operation.ok.schema) } } : {}),
    ...operation.ok.content,
  };
  const limit = bodyLimit(operation, config());
  const notes = [
    operation.rateLimit &&
      (operation.rateLimit === "issuance"
        ? ""
        : `Rate limit: ${operation.rateLimit} bucket (${describeRule(ruleOf(CONFIG_DEFAULTS, operation.rateLimit))} per key by default).`),
    limit !== undefined && `Body limit: ${formatBytes(limit)}.`,
  ].filter(Boolean);
  const description = [operation.description, ...notes].filter(Boolean).join(" ");
  return {
    operationId: operation.operationId,
    tags: operation.tags,
    summary: operation.summary,
    ...(description ? { description } : {}),
    ...(authenticated && !operation.dialect ? {} : { security: operationSecurity(operation) }),
    ...(operation.params || operation.query || operation.headerParameters
      ? {
          parameters: [...parameters(operation.params, "path"), ...parameters(operation.query, "query"), ...(operation.headerParameters ?? [])],
        }
      : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: ref(operation.body.schema), ...(operation.body.examples ? { examples: operation.body.examples } : {}) },
              // Another protocol's fields come as JSON or as a form, as its clients send them.
              ...(operation.dialect ? { "application/x-www-form-urlencoded": { schema: ref(operation.body.schema) } } : {}),
            },
          },
        }
      : {}),
    ...(operation.multipart
      ? {
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: ref(operation.multipart.schema),
                ...(operation.multipart.encoding ? { encoding: operation.multipart.encoding } : {}),
              },
              ...(operation.multipart.json ? { "application/json": { schema: ref(operation.multipart.json) } } : {}),
            },
          },
        }
      : {}),
    responses: {
      [String(operation.ok.status ?? 200)]: {
        description: operation.ok.description,
        headers: {
          ...REQUEST_ID,
          ...(authenticated && operation.rateLimit ? RATE_HEADERS : {}),
          ...operation.ok.headers,
          ...(operation.sandbox ? SANDBOX_HEADERS : {}),
        },
        content: okContent,
      },
      ...errorResponses(operation),
      ...operation.otherResponses,
    },
  };
}

/** Who may call: the default (a Bearer key) is left implicit; another protocol names where its key goes. */
function operationSecurity(operation: Operation): Record<string, string[]>[] {
  if (operation.auth === "operator") return [{ operatorToken: [] }];
  if (operation.auth === "none") return [];
  return [{ [`${operation.dialect?.name}Key`]: [] }];
}

/** Path parameters (always required) or query parameters (all optional) of an operation. */
function parameters(shape: z.ZodObject | undefined, location: "path" | "query"): Record<string, unknown>[] {
  return Object.entries(shape?.shape ?? {}).map(([name, schema]) => {
    const { description, ...rest } = toOpenApiSchema(schema as z.ZodType);
    return { name, in: location, required: location === "path", description, schema: rest };
  });
}

/** "60/60s" → "60/min". */
function describeRule(rule: RateLimitRule): string {
  return rule.windowMs === 60_000 ? `${rule.limit}/min` : `${rule.limit}/${rule.windowMs / 1000}s`;
}

function paths(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const { method, path, operation } of operations()) {
    out[path] ??= {};
    out[path][method] = operationObject(operation);
  }
  return out;
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
An address that sends too many invalid keys is answered 429 for a while (with the same headers, for its budget of
failed attempts), except for keys this server issued or has already accepted.

### Cache
Translations are cached per API key (7 days by default): an identical request is answered without an upstream call,
with \`cached: true\` and \`X-Lugha-Cache: hit\`. Send \`Cache-Control: no-cache\` or \`"cache": false\` to ask the
providers again. Identical requests in flight share one upstream call.

### Sandbox
A server without provider credentials answers from offline emulators: the text is marked \`[sandbox:…]\`, the response
has \`sandbox: true\` and the header \`X-Lugha-Sandbox: true\`. It is never a real translation.
`.trim();

/**
 * The document's components.schemas as docs/openapi.json holds them. ./component-schemas.ts computes them from the zod
 * schemas when `npm run openapi:write` writes the file, and a test fails when the file and the code differ; they are
 * read from the file because computing them (z.toJSONSchema over ≈60 schemas) was ≈50 ms of a cold function's first
 * answer (docs/benchmark.md "Cold starts").
 */
const COMMITTED_SCHEMAS = (contract as unknown as { components: { schemas: Record<string, SchemaObject> } }).components.schemas;

let cached: Record<string, unknown> | undefined;

/** The document this server serves: its paths (with this configuration's limits) and the committed component schemas. */
export function openApiDocument(): Record<string, unknown> {
  cached ??= buildOpenApiDocument(COMMITTED_SCHEMAS);
  return cached;
}

/** The document around the given component schemas (./component-schemas.ts computes them from the zod schemas). */
export function buildOpenApiDocument(schemas: Record<string, SchemaObject>): Record<string, unknown> {
  return {
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
      { name: "Languages", description: "What is supported, by whom; language detection" },
      { name: "API keys", description: "Issue, inspect and revoke keys" },
      { name: "Glossaries", description: "Term lists owned by a key, for one language pair" },
      { name: "Service", description: "Health and this document" },
      {
        name: COMPAT_TAG,
        description:
          "Other protocols, for the tools that already speak them: LibreTranslate under /compat/libretranslate, DeepL API v2 under /compat/deepl, OpenAI's audio API under /compat/openai/v1. The same keys, limits, usage, request log, cache and sandbox marking as the API's own routes; requests, answers and errors in each protocol's own shapes.",
      },
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
        operatorToken: { type: "http", scheme: "bearer", description: "The server's HEALTH_OPERATOR_TOKEN (GET /metrics)" },
        libretranslateKey: {
          type: "apiKey",
          in: "query",
          name: "api_key",
          description: "An API key, as LibreTranslate's `api_key` field (JSON or form body)",
        },
        deeplKey: { type: "apiKey", in: "header", name: "Authorization", description: "`DeepL-Auth-Key svc_…`: an API key, as DeepL's SDKs send it" },
        openaiKey: { type: "http", scheme: "bearer", description: "An API key as OpenAI's SDKs send theirs (`apiKey`)" },
      },
      schemas,
      headers: {
        "X-Request-Id": { description: "Identifier of this request (also detail.request_id in errors)", schema: { type: "string" } },
        "X-RateLimit-Limit": {
          description:
            "Requests allowed per window in this endpoint's bucket (on a 429 for failed authentications: the failed attempts this address is allowed per window)",
          schema: { type: "integer" },
        },
        "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" } },
        "X-RateLimit-Reset": { description: "Unix time (seconds) at which the window has fully refilled", schema: { type: "integer" } },
        "Retry-After": { description: "Whole seconds to wait before retrying (at least 1)", schema: { type: "integer", minimum: 1 } },
      },
      examples: Object.fromEntries(
        (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => [code, { summary: `${ERROR_STATUS[code]} ${code}`, value: errorExample(code) }]),
      ),
    },
  };
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
