export { SANDBOX_HEADER } from "@/lib/kit/headers";
export { type BatchSettings, concurrencyGate, translateBatch } from "./batch";
export { batchCached, bypassRequested, cacheStatus, setCacheHeader, type TranslationCaching, translationUsage } from "./cache";
export { translateCatalog } from "./catalog";
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
