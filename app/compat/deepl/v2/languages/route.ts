import { serveRoute } from "@/lib/api/route";
import { DeepLLanguagesQuery, deeplLanguages } from "@/lib/compat/deepl";
import { validate } from "@/lib/kit/body";
import { allPairs } from "@/lib/languages/pairs";
import { services } from "@/lib/server";
import { catalogueSubjects } from "@/lib/server/availability";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/** GET /compat/deepl/v2/languages?type=source|target — the served pairs' languages, as DeepL lists them. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/compat/deepl/v2/languages", {
  GET: async ({ req }) => {
    const { type } = validate(DeepLLanguagesQuery, { type: new URL(req.url).searchParams.get("type") ?? undefined }, "query");
    const view = await services().availability.view(catalogueSubjects());
    return deeplLanguages(allPairs(undefined, undefined, view), type);
  },
});
