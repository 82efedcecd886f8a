import { serveRoute } from "@/lib/api/route";
import { deeplTranslateReply, deeplTranslation } from "@/lib/compat/deepl";
import { translateTexts } from "@/lib/compat/translate";
import { ProtocolReply } from "@/lib/kit/dialect";
import { services } from "@/lib/server";
import { bypassRequested, cacheStatus, setCacheHeader } from "@/lib/translate";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 60;

/**
 * POST /compat/deepl/v2/translate — DeepL's translate over POST /api/v1/translate (one text) or the batch (several).
 * Key, limits, usage and errors in DeepL's terms come from the manifest's dialect.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/compat/deepl/v2/translate", {
  POST: async ({ req, body, key, startedAt, headers }) => {
    const deps = services().translate;
    const bypass = bypassRequested(req.headers, undefined);
    const translated = await translateTexts(deeplTranslation(body), deps, { startedAt, caller: { apiKeyId: key.id, bypass } });
    setCacheHeader(headers, cacheStatus(deps.caching, bypass, translated.cached));
    return new ProtocolReply(translated.result, deeplTranslateReply(translated));
  },
});
