import { methodNotAllowed } from "@/lib/http/methods";
import { apiRoute } from "@/lib/http/route";
import { openApiDocument } from "@/lib/openapi/document";

/** GET /api/v1/openapi.json — the OpenAPI 3.0.3 document /docs renders. No authentication. */
export const GET = apiRoute({
  auth: "none",
  handler: async () =>
    Response.json(openApiDocument(), {
      headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
    }),
});

const notAllowed = methodNotAllowed("GET");

export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
