import { validate } from "@/lib/kit/body";
import { translateBatch } from "./batch";
import { batchCached, bypassRequested, cacheStatus, setCacheHeader } from "./cache";
import { type BatchEnvelope, BatchTranslateRequest, MAX_BATCH_ITEMS, type TranslateRequest } from "./schemas";
import { batchTooLarge, type TranslateDeps, translateText } from "./service";

/**
 * The work of POST /api/v1/translate and /translate/batch for one caller, shared by those routes and the MCP tools
 * that stand for them: the cache bypass the caller asked for (Cache-Control: no-cache, or the body's `cache`), and the
 * X-Lugha-Cache outcome set on the answer's `headers`.
 */
export interface Caller {
  req: Request;
  key: { id: string };
  startedAt: number;
  headers: Headers;
}

/** POST /api/v1/translate: one text. */
export async function serveTranslation(body: TranslateRequest, deps: TranslateDeps, { req, key, startedAt, headers }: Caller) {
  const bypass = bypassRequested(req.headers, body.cache);
  const result = await translateText(body, deps, { startedAt, caller: { apiKeyId: key.id, bypass } });
  setCacheHeader(headers, cacheStatus(deps.caching, bypass, result.cached));
  return result;
}

/**
 * POST /api/v1/translate/batch: BATCH_TOO_LARGE above 50 items, checked before the items are validated (VALIDATION_ERROR
 * for no items, a malformed item or duplicate ids); then each item succeeds or fails on its own.
 */
export async function serveBatch(envelope: BatchEnvelope, deps: TranslateDeps, { req, key, startedAt, headers }: Caller) {
  if (envelope.items.length > MAX_BATCH_ITEMS) throw batchTooLarge(envelope.items.length);
  const request = validate(BatchTranslateRequest, envelope, "body");
  const bypass = bypassRequested(req.headers, request.cache);
  const { format, do_not_translate, glossary_id } = request;
  const result = await translateBatch(request.items, request.provider, deps, {
    startedAt,
    caller: { apiKeyId: key.id, bypass },
    defaults: { format, do_not_translate, glossary_id },
  });
  setCacheHeader(headers, cacheStatus(deps.caching, bypass, batchCached(result)));
  return result;
}
