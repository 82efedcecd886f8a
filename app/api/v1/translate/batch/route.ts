import { serveRoute } from "@/lib/api/route";
import { validate } from "@/lib/kit/body";
import { services } from "@/lib/server";
import { batchCached, batchTooLarge, bypassRequested, cacheStatus, setCacheHeader, translateBatch } from "@/lib/translate";
import { BatchTranslateRequest, MAX_BATCH_ITEMS } from "@/lib/translate/schemas";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 60;

/**
 * POST /api/v1/translate/batch — translate up to 50 texts. The request as a whole is 422
 * when malformed (BATCH_TOO_LARGE above 50 items, VALIDATION_ERROR for no items, a malformed item or duplicate ids);
 * otherwise 200, with each item's success or failure (error + error_code) in `results`, in request order.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/translate/batch", {
  POST: async ({ req, body, key, startedAt, headers }) => {
    if (body.items.length > MAX_BATCH_ITEMS) throw batchTooLarge(body.items.length);
    const request = validate(BatchTranslateRequest, body, "body");
    const deps = services().translate;
    const bypass = bypassRequested(req.headers, request.cache);
    const { format, do_not_translate, glossary_id } = request;
    const result = await translateBatch(request.items, request.provider, deps, {
      startedAt,
      caller: { apiKeyId: key.id, bypass },
      defaults: { format, do_not_translate, glossary_id },
    });
    setCacheHeader(headers, cacheStatus(deps.caching, bypass, batchCached(result)));
    return result;
  },
});
