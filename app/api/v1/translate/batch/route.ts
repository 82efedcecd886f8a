import { validate } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";
import { methodNotAllowed } from "@/lib/http/methods";
import { apiRoute } from "@/lib/http/route";
import { recordTranslationUsage } from "@/lib/keys/store";
import { batchCached, bypassRequested, cacheHeader, defaultTranslateDeps, SANDBOX_HEADER, translateBatch, translationUsage } from "@/lib/translate";
import { BatchEnvelope, BatchTranslateRequest, MAX_BATCH_ITEMS } from "@/lib/translate/schemas";

/**
 * POST /api/v1/translate/batch — translate up to 50 texts. The request as a whole is 422
 * when malformed (BATCH_TOO_LARGE above 50 items, VALIDATION_ERROR for no items, a malformed item or duplicate ids);
 * otherwise 200, with each item's success or failure (error + error_code) in `results`, in request order.
 */
export const POST = apiRoute({
  auth: "api_key",
  rateLimit: "batch",
  body: BatchEnvelope,
  // 50 items × 5,000 characters, each up to 12 bytes when JSON-escaped (an emoji as \uXXXX\uXXXX), fits.
  maxBodyBytes: 4 * 1024 * 1024,
  handler: async ({ req, body, key, startedAt, requestId }) => {
    if (body.items.length > MAX_BATCH_ITEMS) {
      throw new ApiError(
        "BATCH_TOO_LARGE",
        `A batch holds at most ${MAX_BATCH_ITEMS} items; this one has ${body.items.length}. Split it into several requests.`,
        {
          errors: [{ loc: ["body", "items"], msg: `List should have at most ${MAX_BATCH_ITEMS} items`, type: "too_long" }],
        },
      );
    }
    const request = validate(BatchTranslateRequest, body, "body");
    const deps = defaultTranslateDeps();
    const bypass = bypassRequested(req.headers, request.cache);
    const result = await translateBatch(request.items, request.provider, deps, { startedAt, caller: { apiKeyId: key.id, bypass } });
    recordTranslationUsage(key.id, translationUsage(result)).catch((err) =>
      console.error(`[${requestId}] could not record translation usage: ${(err as Error).message}`),
    );
    const headers: Record<string, string> = {
      ...(result.sandbox && { [SANDBOX_HEADER]: "true" }),
      ...cacheHeader(deps.caching, bypass, batchCached(result)),
    };
    return Response.json(result, { headers });
  },
});

const notAllowed = methodNotAllowed("POST");

export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
