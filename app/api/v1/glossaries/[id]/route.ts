import { serveRoute } from "@/lib/api/route";
import { deleteGlossary, getGlossary, glossaryJson } from "@/lib/glossaries/store";
import { services } from "@/lib/server";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

// Any id that is not one of the calling key's glossaries (another key's, unknown, not a UUID) is 404 NOT_FOUND.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/glossaries/{id}", {
  /** One of the calling key's glossaries, with its entries. */
  GET: async ({ key, params }) => {
    const glossary = await getGlossary(services().database, key.id, params.id);
    return { ...glossaryJson(glossary), entries: glossary.entries };
  },
  /** Delete one of the calling key's glossaries. */
  DELETE: async ({ key, params }) => {
    await deleteGlossary(services().database, key.id, params.id);
    return { deleted: true, id: params.id };
  },
});
