import { CREATE_GLOSSARY_MAX_BODY_BYTES, CreateGlossaryRequest, GLOSSARIES_PER_KEY } from "@/lib/glossaries/schemas";
import { createGlossary, glossaryJson, listGlossaries } from "@/lib/glossaries/store";
import { methodNotAllowed } from "@/lib/http/methods";
import { apiRoute } from "@/lib/http/route";

/** POST /api/v1/glossaries — create a glossary owned by the calling key. 201 with the glossary as stored. */
export const POST = apiRoute({
  auth: "api_key",
  rateLimit: "default",
  body: CreateGlossaryRequest,
  maxBodyBytes: CREATE_GLOSSARY_MAX_BODY_BYTES,
  handler: async ({ key, body }) => {
    const glossary = await createGlossary(key.id, body);
    return Response.json(
      { ...glossaryJson(glossary), entries: glossary.entries },
      { status: 201, headers: { Location: `/api/v1/glossaries/${glossary.id}` } },
    );
  },
});

/** GET /api/v1/glossaries — the calling key's glossaries, newest first, without their entries. */
export const GET = apiRoute({
  auth: "api_key",
  rateLimit: "default",
  handler: async ({ key }) => {
    const glossaries = (await listGlossaries(key.id)).map(glossaryJson);
    return { glossaries, total: glossaries.length, limit: GLOSSARIES_PER_KEY };
  },
});

const notAllowed = methodNotAllowed("GET", "POST");

export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
