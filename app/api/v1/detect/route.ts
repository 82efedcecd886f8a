import { serveRoute } from "@/lib/api/route";
import { detectTexts } from "@/lib/detect";
import { services } from "@/lib/server";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/**
 * POST /api/v1/detect — identify the language of one text or up to 50: translate's source detection, with its
 * candidates and whether to trust it (lib/detect). What the wrapper does around it (auth, rate limit, body) is
 * declared in lib/api/manifest.ts.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/detect", {
  POST: async ({ body }) => detectTexts(body, services().detect),
});
