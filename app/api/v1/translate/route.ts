import { serveRoute } from "@/lib/api/route";
import { services } from "@/lib/server";
import { serveTranslation } from "@/lib/translate";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 50;

/**
 * POST /api/v1/translate — translate one text. Routing, fallback, detection and limits live in
 * lib/translate/service.ts, the cache in lib/translate/cache.ts; what the wrapper does around it (auth, rate limit,
 * body, sandbox header, the usage counts) is declared in lib/api/manifest.ts.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/translate", {
  POST: async (ctx) => serveTranslation(ctx.body, services().translate, ctx),
});
