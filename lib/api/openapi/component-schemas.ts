import { z } from "zod";
import {
  DeepLError,
  DeepLGlossaryPairsResponse,
  DeepLLanguagesResponse,
  DeepLTranslateRequest,
  DeepLTranslateResponse,
  DeepLUsageResponse,
} from "@/lib/compat/deepl";
import {
  LibreDetectRequest,
  LibreDetectResponse,
  LibreLanguagesResponse,
  LibreSettingsResponse,
  LibreTranslateError,
  LibreTranslateRequest,
  LibreTranslateResponse,
} from "@/lib/compat/libretranslate";
import { OpenAIError, OpenAIModel, OpenAIModelList, OpenAISpeechRequest, OpenAITranscription, OpenAITranscriptionRequest } from "@/lib/compat/openai";
import { DetectRequest, DetectResponse, DetectResult } from "@/lib/detect/schemas";
import { CreateGlossaryRequest, DeletedGlossary, Glossary, GlossaryList } from "@/lib/glossaries/schemas";
import { IssuedKey, IssueKeyRequest, KEY_LIFETIME_MAX_DAYS, KEY_NAME_MAX, KeyDetails } from "@/lib/keys/schemas";
import { LanguageEntry, LanguagesResponse, TranslationTarget } from "@/lib/languages/schemas";
import { SttForm, SttResponse, SttUrlRequest, TtsRequest, TtsResponse } from "@/lib/speech/schemas";
import { CatalogRequest, CatalogResponse } from "@/lib/translate/catalog-schemas";
import {
  BatchItem,
  BatchItemResult,
  BatchTranslateRequest,
  BatchTranslateResponse,
  TranslateRequest,
  TranslateResponse,
} from "@/lib/translate/schemas";
import { RequestLogResponse, RequestLogRow } from "@/lib/usage/requests";
import { UsageResponse, UsageRow } from "@/lib/usage/schemas";
import { ERROR_DOCS, ErrorBody, FieldError } from "./errors";
import { HealthResponse, LiveResponse, ReadyResponse } from "./health";
import { type SchemaObject, toOpenApiSchemas } from "./zod-to-openapi";

/**
 * The document's components.schemas, generated from the zod schema each route handler validates with (or, for
 * responses, types its result with), plus what JSON Schema cannot say (examples, limits checked in code). They read no
 * configuration, so they are the same on every server: `npm run openapi:write` writes them into docs/openapi.json, the
 * served document takes them from there (./document.ts), and a test holds the file equal to this function's result.
 */

export const RevokedKey = z
  .object({
    revoked: z.literal(true),
    name: z.string(),
    display_prefix: z.string(),
  })
  .describe("DELETE /api/v1/auth/keys/me response");

export function componentSchemas(): Record<string, SchemaObject> {
  const requests = toOpenApiSchemas(
    {
      TranslateRequest,
      BatchTranslateRequest,
      BatchItem,
      CatalogRequest,
      DetectRequest,
      IssueKeyRequest,
      TtsRequest,
      SttForm,
      SttUrlRequest,
      CreateGlossaryRequest,
      LibreTranslateRequest,
      LibreDetectRequest,
      DeepLTranslateRequest,
      OpenAITranscriptionRequest,
      OpenAISpeechRequest,
    },
    "input",
  );
  const responses = toOpenApiSchemas(
    {
      TranslateResponse,
      BatchTranslateResponse,
      BatchItemResult,
      CatalogResponse,
      DetectResponse,
      DetectResult,
      IssuedKey,
      KeyDetails,
      RevokedKey,
      LanguagesResponse,
      LanguageEntry,
      TranslationTarget,
      SttResponse,
      TtsResponse,
      HealthResponse,
      LiveResponse,
      ReadyResponse,
      Glossary,
      GlossaryList,
      DeletedGlossary,
      UsageResponse,
      UsageRow,
      RequestLogResponse,
      RequestLogRow,
      ErrorBody,
      FieldError,
      LibreTranslateResponse,
      LibreDetectResponse,
      LibreLanguagesResponse,
      LibreSettingsResponse,
      LibreTranslateError,
      DeepLTranslateResponse,
      DeepLLanguagesResponse,
      DeepLUsageResponse,
      DeepLGlossaryPairsResponse,
      DeepLError,
      OpenAITranscription,
      OpenAIModel,
      OpenAIModelList,
      OpenAIError,
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
  const openaiStt = all.OpenAITranscriptionRequest as { properties: Record<string, SchemaObject> };
  openaiStt.properties.file = { ...openaiStt.properties.file, type: "string", format: "binary" };

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
        segments: 1,
        glossary_terms_applied: null,
        detection_method: null,
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
        error: ERROR_DOCS.UNSUPPORTED_LANGUAGE.example().message,
        error_code: "UNSUPPORTED_LANGUAGE",
        latency_ms: 0,
        characters_translated: null,
        fallback_used: null,
        segments: null,
        glossary_terms_applied: null,
        detection_method: null,
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
    upstream_calls: 1,
  };
  return all;
}
