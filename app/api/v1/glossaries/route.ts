import { serveRoute } from "@/lib/api/route";
import { GLOSSARIES_PER_KEY } from "@/lib/glossaries/schemas";
import { createGlossary, glossaryJson, listGlossaries } from "@/lib/glossaries/store";
import { services } from "@/lib/server";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/glossaries", {
  /** Create a glossary owned by the calling key: 201 with the glossary as stored, and its Location. */
  POST: async ({ key, body }) => {
    const glossary = await createGlossary(services().database, key.id, body);
    return Response.json(
      { ...glossaryJson(glossary), entries: glossary.entries },
      { status: 201, headers: { Location: `/api/v1/glossaries/${glossary.id}` } },
    );
  },
  /** The calling key's glossaries, newest first, without their entries. */
  GET: async ({ key }) => {
    const glossaries = (await listGlossaries(services().database, key.id)).map(glossaryJson);
    return { glossaries, total: glossaries.length, limit: GLOSSARIES_PER_KEY };
  },
});
