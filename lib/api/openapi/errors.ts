import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "@/lib/kit/errors";

/** The error envelope every non-2xx response carries (lib/http/errors.ts errorBody). */
export const FieldError = z
  .object({
    loc: z.array(z.union([z.string(), z.number()])).describe('Where: ["body", "items", 3, "text"], ["query", "source"], ["form", "audio"]'),
    msg: z.string().describe("What is wrong, in English"),
    type: z.string().describe("Machine-readable kind: missing, string_type, string_too_long, enum, extra_forbidden, …"),
  })
  .describe("One problem of a 422");

export const ErrorBody = z
  .object({
    detail: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]).describe("Machine-readable error code"),
      message: z.string().describe("Human-readable description (never echoes your input or a key)"),
      request_id: z.string().describe("Also in the X-Request-Id header; quote it when reporting a problem"),
      errors: z.array(FieldError).optional().describe("422 only: one entry per invalid field"),
    }),
  })
  .describe('Error body: {"detail": {code, message, request_id, errors?}}');

/** When each code is returned and an example message. Typed by ErrorCode: a new code cannot go undocumented. */
export const ERROR_DOCS: Record<ErrorCode, { when: string; message: string; errors?: z.infer<typeof FieldError>[] }> = {
  INVALID_JSON: {
    when: "The body is not valid JSON (or not UTF-8)",
    message: "The request body is not valid JSON (Unexpected token } in JSON at position 12).",
  },
  MISSING_API_KEY: { when: "No Authorization header", message: "No API key was sent. Add the header: Authorization: Bearer svc_<your key>." },
  INVALID_API_KEY: {
    when: "The key is malformed, unknown, expired or revoked, or the header is not `Bearer <key>`",
    message: "The API key is invalid, expired or revoked.",
  },
  NOT_FOUND: {
    when: "No such endpoint (any method), or no glossary with that id belongs to the calling key",
    message: "No such endpoint. See /docs for the API reference.",
  },
  METHOD_NOT_ALLOWED: {
    when: "The endpoint exists but not with this method (see the Allow header)",
    message: "This endpoint does not accept that method. Allowed: POST, OPTIONS.",
  },
  PAYLOAD_TOO_LARGE: {
    when: "The body is larger than the endpoint accepts (each endpoint's 413 states its limit)",
    message: "Request body exceeds the limit of 64 kB.",
  },
  UNSUPPORTED_MEDIA_TYPE: {
    when: "JSON endpoint without Content-Type: application/json, or audio of a format that is not accepted",
    message: "Send the request body as JSON with Content-Type: application/json.",
  },
  VALIDATION_ERROR: {
    when: "Missing or invalid fields; detail.errors lists each one",
    message: "Invalid request: target_lang: Field required",
    errors: [{ loc: ["body", "target_lang"], msg: "Field required", type: "missing" }],
  },
  UNSUPPORTED_LANGUAGE: {
    when: "A language code Lugha does not know (see GET /api/v1/languages)",
    message: 'target_lang "xx" is not a supported language code.',
    errors: [{ loc: ["body", "target_lang"], msg: "Unsupported language", type: "unsupported_language" }],
  },
  UNSUPPORTED_LANGUAGE_PAIR: {
    when: "Both languages are known but no provider translates between them",
    message: "No provider translates Lugbara → Zulu.",
  },
  PROVIDER_UNSUPPORTED_PAIR: {
    when: "A forced provider does not serve the pair (a forced provider never falls back)",
    message: "provider_a does not serve en → yo. Use provider=auto or a provider listed for the pair in GET /api/v1/languages.",
  },
  TEXT_TOO_LONG: {
    when: "Text above 5,000 characters, or above a forced provider's input limit (provider_b 1,000 characters, provider_c 512 tokens); with provider auto a long text is split instead",
    message: "text is 6,200 characters; the limit is 5,000.",
  },
  BATCH_TOO_LARGE: {
    when: "More than 50 items in one batch",
    message: "A batch holds at most 50 items; this one has 60. Split it into several requests.",
  },
  SAME_LANGUAGE: {
    when: "source_lang and target_lang are the same language",
    message: "source_lang and target_lang are both en: nothing to translate.",
  },
  UNSUPPORTED_VOICE: { when: "A TTS voice the language's provider does not have", message: 'Voice "x" is not available for lug.' },
  RATE_LIMIT_EXCEEDED: {
    when: "Too many requests for this key (per endpoint bucket) or, for key issuance, from this address; wait Retry-After seconds",
    message: "Rate limit of 60 translate requests exceeded. Retry after 12 s.",
  },
  INTERNAL_ERROR: {
    when: "An unexpected error (logged with the request id)",
    message: "An unexpected error occurred. Quote the request id when reporting it.",
  },
  PROVIDER_ERROR: {
    when: "Every provider that could serve the request failed (network error, timeout, outage) or was at its upstream request budget; Retry-After when every failure carried a wait",
    message: "All providers failed to translate en → lug. Retry shortly.",
  },
  SERVICE_UNAVAILABLE: {
    when: "The database (or, in fail-closed mode, the rate limiter) is unavailable; Retry-After is set",
    message: "The service is temporarily unavailable. Retry shortly.",
  },
};

export function errorExample(code: ErrorCode) {
  const doc = ERROR_DOCS[code];
  return {
    detail: { code, message: doc.message, request_id: "req_3f9c2a7d1e5b4c8a90f1d2e3", ...(doc.errors ? { errors: doc.errors } : {}) },
  };
}
