import { createHash } from "node:crypto";
import { validate } from "@/lib/http/body";
import { apiRoute } from "@/lib/http/route";
import { methodNotAllowed } from "@/lib/http/methods";
import { listLanguages } from "@/lib/languages/listing";
import { LanguagesQuery } from "@/lib/languages/schemas";

/**
 * GET /api/v1/languages — the languages translate (and, once the speech module fills them in, STT/TTS) serves, with
 * providers, models and quality per pair. Filters: capability, provider, source (see lib/languages/listing.ts).
 * Cacheable per caller: ETag + Cache-Control private; If-None-Match → 304.
 */
export const GET = apiRoute({
  auth: "api_key",
  rateLimit: "default",
  handler: async ({ req }) => {
    const params = new URL(req.url).searchParams;
    const query = validate(
      LanguagesQuery,
      Object.fromEntries(["capability", "provider", "source"].filter((k) => params.has(k)).map((k) => [k, params.get(k)])),
      "query",
    );
    const body = JSON.stringify(listLanguages(query));
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    const headers = { "Content-Type": "application/json", ETag: etag, "Cache-Control": "private, max-age=300" };
    const ifNoneMatch = req.headers.get("if-none-match");
    if (ifNoneMatch && ifNoneMatch.split(",").some((t) => t.trim() === etag || t.trim() === `W/${etag}`)) {
      return new Response(null, { status: 304, headers });
    }
    return new Response(body, { status: 200, headers });
  },
});

const notAllowed = methodNotAllowed("GET");
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
