import { DetectRequest, detectTexts } from "@/lib/detect";
import { methodNotAllowed } from "@/lib/http/methods";
import { apiRoute } from "@/lib/http/route";

/**
 * POST /api/v1/detect — identify the language of one text or up to 50: translate's source detection, with its
 * candidates and whether to trust it (lib/detect). 422 for request problems (VALIDATION_ERROR, TEXT_TOO_LONG,
 * BATCH_TOO_LARGE). No upstream is called.
 */
export const POST = apiRoute({
  auth: "api_key",
  rateLimit: "default",
  body: DetectRequest,
  // 50 texts × 5,000 characters, each up to 12 bytes when JSON-escaped (an emoji as \uXXXX\uXXXX), fit.
  maxBodyBytes: 4 * 1024 * 1024,
  handler: async ({ body }) => detectTexts(body),
});

const notAllowed = methodNotAllowed("POST");

export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
