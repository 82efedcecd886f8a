import { serveRoute } from "@/lib/api/route";
import { deeplUsage } from "@/lib/compat/deepl";
import { services } from "@/lib/server";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/** GET /compat/deepl/v2/usage — this month's characters of the calling key, as DeepL reports usage. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/compat/deepl/v2/usage", {
  GET: async ({ key }) => deeplUsage(services().keys, key.id),
});
