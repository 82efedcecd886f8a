import { serveRoute } from "@/lib/api/route";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/** GET /compat/deepl/v2/glossary-language-pairs — none: DeepL glossaries are not kept here. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/compat/deepl/v2/glossary-language-pairs", {
  GET: async () => ({ supported_languages: [] }),
});
