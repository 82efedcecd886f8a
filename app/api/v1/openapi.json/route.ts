import { openApiDocument } from "@/lib/api/openapi/document";
import { serveRoute } from "@/lib/api/route";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/** GET /api/v1/openapi.json — the OpenAPI 3.0.3 document /docs renders. No authentication. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/openapi.json", {
  GET: async () =>
    Response.json(openApiDocument(), {
      headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
    }),
});
