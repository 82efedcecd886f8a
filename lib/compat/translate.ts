import type { z } from "zod";
import type { TextFormat } from "@/lib/glossaries/schemas";
import { ApiError } from "@/lib/kit/errors";
import { batchCached, batchTooLarge, type TranslateDeps, translateBatch, translateText } from "@/lib/translate";
import { type BatchTranslateResponse, MAX_BATCH_ITEMS, type TranslateResponse } from "@/lib/translate/schemas";

/** What a protocol asks: one text or several, to one target, from one source (detected when absent). */
export interface CompatTranslation {
  texts: string | string[];
  target: string;
  source?: string;
  format: z.infer<typeof TextFormat>;
  /** A glossary of the calling key (POST /api/v1/glossaries). */
  glossary?: string;
}

export interface CompatTranslated {
  /** The native result: a translation, or a batch for several texts (what usage and the request log read). */
  result: TranslateResponse | BatchTranslateResponse;
  /** One per text, in order. */
  items: { text: string; source: string; confidence: number | null }[];
  /** Every text was answered from the translation cache. */
  cached: boolean;
}

/**
 * The protocols' translate: one text is POST /api/v1/translate, several are a batch (its bucket, its concurrency, its
 * usage record). A protocol has no per-item failure, so the first item that failed fails the request with its own
 * code and message (nothing of the input in either).
 */
export async function translateTexts(
  request: CompatTranslation,
  deps: TranslateDeps,
  options: { startedAt: number; caller: { apiKeyId: string; bypass: boolean } },
): Promise<CompatTranslated> {
  const { texts, target, source, format, glossary: glossary_id } = request;
  if (typeof texts === "string") {
    const result = await translateText({ text: texts, target_lang: target, source_lang: source, format, glossary_id }, deps, options);
    const confidence = result.detected_source_confidence;
    return { result, items: [{ text: result.translated_text, source: result.detected_source_lang, confidence }], cached: result.cached };
  }
  if (texts.length > MAX_BATCH_ITEMS) throw batchTooLarge(texts.length);
  const items = texts.map((text, i) => ({ id: String(i), text, target_lang: target, source_lang: source }));
  const result = await translateBatch(items, undefined, deps, { ...options, defaults: { format, glossary_id } });
  const failed = result.results.find((r) => r.error !== null);
  if (failed?.error_code) throw new ApiError(failed.error_code, `Text ${Number(failed.id) + 1}: ${failed.error}`);
  return {
    result,
    items: result.results.map((r) => ({ text: r.translated_text ?? "", source: r.detected_source_lang ?? "", confidence: null })),
    cached: batchCached(result),
  };
}
