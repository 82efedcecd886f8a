import type { translateCatalog as TranslateCatalog } from "./catalog";

export { SANDBOX_HEADER } from "@/lib/kit/headers";
export { type BatchSettings, concurrencyGate, translateBatch } from "./batch";
export { batchCached, bypassRequested, cacheStatus, setCacheHeader, type TranslationCaching, translationUsage } from "./cache";
export { checkLimit, checkProviderLimit, checkRouteLimit, codePointLength, estimateTokens, MAX_TEXT_CHARS } from "./limits";
export { MAX_TEXTS_PER_CALL, packJobs } from "./packing";
export { type Caller, serveBatch, serveTranslation } from "./serve";
export {
  batchTooLarge,
  FALLBACK_SHARE,
  type GlossaryLookup,
  providerUnsupportedPair,
  sameLanguage,
  type TranslateDeps,
  type TranslateInput,
  type TranslateOutcome,
  textTooLong,
  translateText,
  unsupportedPair,
} from "./service";

/**
 * POST /translate/catalog. Its module, and with it every catalog file parser (YAML, XML, gettext, Markdown…), loads on
 * the first catalog request: every route imports this module (the request log reads translationUsage), and a
 * serverless function's first request should not pay for parsers it does not use.
 */
export const translateCatalog: typeof TranslateCatalog = async (...args) => (await import("./catalog")).translateCatalog(...args);
