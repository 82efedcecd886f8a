import { serveRoute } from "@/lib/api/route";
import { openaiModels } from "@/lib/compat/openai";
import { services } from "@/lib/server";
import { catalogueSubjects } from "@/lib/server/availability";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/** GET /compat/openai/v1/models — the speech models this surface serves now, as OpenAI lists models. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/compat/openai/v1/models", {
  GET: async () => openaiModels(await services().availability.view(catalogueSubjects())),
});
