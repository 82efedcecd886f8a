import { serveRoute } from "@/lib/api/route";
import { libreDetect } from "@/lib/compat/libretranslate";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/** POST /compat/libretranslate/detect — LibreTranslate's detect over POST /api/v1/detect's detection. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/compat/libretranslate/detect", {
  POST: async ({ body }) => libreDetect(body.q),
});
