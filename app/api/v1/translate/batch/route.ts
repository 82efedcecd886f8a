import { serveRoute } from "@/lib/api/route";
import { services } from "@/lib/server";
import { serveBatch } from "@/lib/translate";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 60;

/**
 * POST /api/v1/translate/batch — translate up to 50 texts. The request as a whole is 422
 * when malformed (BATCH_TOO_LARGE above 50 items, VALIDATION_ERROR for no items, a malformed item or duplicate ids);
 * otherwise 200, with each item's success or failure (error + error_code) in `results`, in request order.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/translate/batch", {
  POST: async (ctx) => serveBatch(ctx.body, services().translate, ctx),
});
