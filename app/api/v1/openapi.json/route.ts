import { openApiDocument } from "@/lib/api/openapi/document";
import { serveRoute } from "@/lib/api/route";
import { conditionalResponse, type FixedBody, fixedBody, PUBLIC_READ_CACHE } from "@/lib/kit/validator";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/**
 * GET /api/v1/openapi.json — the OpenAPI 3.0.3 document /docs renders. No authentication. The document is fixed for the
 * life of a deployment, so it is serialised once and revalidated by its ETag (If-None-Match → 304, no body).
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/openapi.json", {
  GET: async ({ req }) => {
    document ??= fixedBody(JSON.stringify(openApiDocument()));
    return conditionalResponse(req, document, {
      "Content-Type": "application/json",
      "Cache-Control": PUBLIC_READ_CACHE,
      "Access-Control-Allow-Origin": "*",
    });
  },
});

let document: FixedBody | undefined;
