import { deleteGlossary, getGlossary, glossaryJson } from "@/lib/glossaries/store";
import { methodNotAllowed } from "@/lib/http/methods";
import { apiRoute } from "@/lib/http/route";

/** The {id} segment of /api/v1/glossaries/{id} (the wrapper hands handlers the request, not Next's params). */
function glossaryIdOf(req: Request): string {
  const last = new URL(req.url).pathname.split("/").pop() ?? "";
  try {
    return decodeURIComponent(last);
  } catch {
    return last; // malformed percent-encoding: not a UUID, so 404 like any unknown id
  }
}

/** GET /api/v1/glossaries/{id} — one of the calling key's glossaries with its entries; 404 for any other id. */
export const GET = apiRoute({
  auth: "api_key",
  rateLimit: "default",
  handler: async ({ key, req }) => {
    const glossary = await getGlossary(key.id, glossaryIdOf(req));
    return { ...glossaryJson(glossary), entries: glossary.entries };
  },
});

/** DELETE /api/v1/glossaries/{id} — delete one of the calling key's glossaries; 404 for any other id. */
export const DELETE = apiRoute({
  auth: "api_key",
  rateLimit: "default",
  handler: async ({ key, req }) => {
    const id = glossaryIdOf(req);
    await deleteGlossary(key.id, id);
    return { deleted: true, id };
  },
});

const notAllowed = methodNotAllowed("GET", "DELETE");

export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
