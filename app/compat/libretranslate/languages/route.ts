import { serveRoute } from "@/lib/api/route";
import { libreLanguages } from "@/lib/compat/libretranslate";
import { allPairs } from "@/lib/languages/pairs";
import { services } from "@/lib/server";
import { catalogueSubjects } from "@/lib/server/availability";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/** GET /compat/libretranslate/languages — the pairs GET /api/v1/languages lists, as LibreTranslate lists languages. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/compat/libretranslate/languages", {
  GET: async () => {
    const view = await services().availability.view(catalogueSubjects());
    return libreLanguages(allPairs(undefined, undefined, view));
  },
});
