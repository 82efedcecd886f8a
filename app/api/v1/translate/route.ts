import { serveRoute } from "@/lib/http/route";
import { defaultTranslateDeps, translateText } from "@/lib/translate";

/**
 * POST /api/v1/translate — translate one text. Routing, fallback, detection and limits live in
 * lib/translate/service.ts; what the wrapper does around it (auth, rate limit, body, sandbox header, the character
 * count) is declared in lib/http/manifest.ts.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/translate", {
  POST: async ({ body, startedAt }) => translateText(body, defaultTranslateDeps(), { startedAt }),
});
