import { serveRoute } from "@/lib/api/route";
import { openaiModel } from "@/lib/compat/openai";
import { services } from "@/lib/server";
import { catalogueSubjects } from "@/lib/server/availability";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/** GET /compat/openai/v1/models/{model} — one model GET /models lists; 404 for any other. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/compat/openai/v1/models/{model}", {
  GET: async ({ params }) => openaiModel(await services().availability.view(catalogueSubjects()), params.model),
});
