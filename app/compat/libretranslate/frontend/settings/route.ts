import { serveRoute } from "@/lib/api/route";
import { libreSettings } from "@/lib/compat/libretranslate";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/** GET /compat/libretranslate/frontend/settings — LibreTranslate's server settings. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/compat/libretranslate/frontend/settings", {
  GET: async () => libreSettings(),
});
