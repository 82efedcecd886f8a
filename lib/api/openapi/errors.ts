import { z } from "zod";
import { INTERNAL_ERROR_MESSAGE, methodNotAllowedError, noSuchEndpoint, SERVICE_UNAVAILABLE_MESSAGE } from "@/lib/api/refusals";
import { invalidApiKey, missingApiKey } from "@/lib/keys/refusals";
import { invalidJson, notJson, tooLarge, validate } from "@/lib/kit/body";
import { ApiError, ERROR_STATUS, type ErrorCode, errorBody } from "@/lib/kit/errors";
import { resolveLanguageCode } from "@/lib/languages/resolve";
import { voiceIdsFor } from "@/lib/languages/speech";
import { rateLimitExceeded } from "@/lib/ratelimit/decision";
import { chainFailure } from "@/lib/routing/chain";
import { unknownVoice } from "@/lib/speech/tts";
import { TranslateRequest } from "@/lib/translate/schemas";
import { batchTooLarge, providerUnsupportedPair, sameLanguage, textTooLong, unsupportedPair } from "@/lib/translate/service";

/** The error envelope every non-2xx response carries (lib/kit/errors.ts errorBody). */
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

/** Runs a refusal of the real code and returns what it throws (the examples below are never written by hand). */
function thrown(refuse: () => unknown): ApiError {
  try {
    refuse();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("the example refusal did not refuse");
}

/**
 * When each code is returned, and an example: the ApiError the code itself builds for a typical request, from the
 * function that builds that refusal (so an example cannot drift from the message a client gets, nor quote input the
 * real message never quotes). Typed by ErrorCode: a new code cannot go undocumented.
 */
export const ERROR_DOCS: Record<ErrorCode, { when: string; example: () => ApiError }> = {
  INVALID_JSON: {
    when: "The body is not valid JSON (or not UTF-8, or nested too deep); the message says where parsing failed, never quoting the body",
    example: () => invalidJson('{"text": "Good morning", "target_lang": lug}'),
  },
  MISSING_API_KEY: { when: "No Authorization header", example: missingApiKey },
  INVALID_API_KEY: {
    when: "The key is malformed, unknown, expired or revoked, or the header is not `Bearer <key>`",
    example: invalidApiKey,
  },
  NOT_FOUND: {
    when: "No such endpoint (any method), or no glossary with that id belongs to the calling key",
    example: noSuchEndpoint,
  },
  METHOD_NOT_ALLOWED: {
    when: "The endpoint exists but not with this method (see the Allow header)",
    example: () => methodNotAllowedError("POST, OPTIONS"),
  },
  PAYLOAD_TOO_LARGE: {
    when: "The body is larger than the endpoint accepts (each endpoint's 413 states its limit)",
    example: () => tooLarge(64 * 1024),
  },
  UNSUPPORTED_MEDIA_TYPE: {
    when: "JSON endpoint without Content-Type: application/json, or audio of a format that is not accepted",
    example: notJson,
  },
  VALIDATION_ERROR: {
    when: "Missing or invalid fields; detail.errors lists each one",
    example: () => thrown(() => validate(TranslateRequest, { text: "Good morning" }, "body")),
  },
  UNSUPPORTED_LANGUAGE: {
    when: "A language code Lugha does not know (see GET /api/v1/languages)",
    example: () => thrown(() => resolveLanguageCode("xx", "target_lang")),
  },
  UNSUPPORTED_LANGUAGE_PAIR: {
    when: "Both languages are known but no provider translates between them",
    example: () => unsupportedPair("lgg", "zu"),
  },
  PROVIDER_UNSUPPORTED_PAIR: {
    when: "A forced provider does not serve the pair (a forced provider never falls back)",
    example: () => providerUnsupportedPair("provider_a", "en", "yo", ["provider_b", "provider_c"]),
  },
  TEXT_TOO_LONG: {
    when: "Text above 5,000 characters, or above a forced provider's input limit (provider_b 1,000 characters, provider_c 512 tokens); with provider auto a long text is split instead",
    example: () => textTooLong(6_200),
  },
  BATCH_TOO_LARGE: {
    when: "More than 50 items in one batch",
    example: () => batchTooLarge(60),
  },
  SAME_LANGUAGE: {
    when: "source_lang and target_lang are the same language",
    example: () => sameLanguage("en"),
  },
  UNSUPPORTED_VOICE: {
    when: "A TTS voice the language's provider does not have",
    example: () => unknownVoice("lug", voiceIdsFor("lug")),
  },
  RATE_LIMIT_EXCEEDED: {
    when: "Too many requests for this key (per endpoint bucket), or from this address: key issuance, and failed authentications (any authenticated endpoint); wait Retry-After seconds",
    example: () => rateLimitExceeded("translate", { allowed: false, limit: 60, remaining: 0, resetAt: 1_795_000_000_000, retryAfterSeconds: 12 }),
  },
  INTERNAL_ERROR: {
    when: "An unexpected error (logged with the request id)",
    example: () => new ApiError("INTERNAL_ERROR", INTERNAL_ERROR_MESSAGE),
  },
  PROVIDER_ERROR: {
    when: "Every provider that could serve the request failed (network error, timeout, outage) or was at its upstream request budget; Retry-After when every failure carried a wait",
    example: () =>
      chainFailure(
        {
          ok: false,
          tried: ["provider_a", "provider_c"],
          failures: [
            { provider: "provider_a", detail: "unavailable: provider unavailable (HTTP 503)" },
            { provider: "provider_c", detail: "timeout: provider stopped answering" },
          ],
        },
        { what: "for English (en) → Luganda (lug)" },
      ),
  },
  SERVICE_UNAVAILABLE: {
    when: "The database (or, in fail-closed mode, the rate limiter) is unavailable; Retry-After is set",
    example: () => new ApiError("SERVICE_UNAVAILABLE", SERVICE_UNAVAILABLE_MESSAGE),
  },
};

/** The documented example of a code: the body the wrapper would send for its example refusal. */
export function errorExample(code: ErrorCode) {
  const err = ERROR_DOCS[code].example();
  return errorBody(err.code, err.message, "req_3f9c2a7d1e5b4c8a90f1d2e3", err.options.errors);
}
