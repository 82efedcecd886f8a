import { serveRoute } from "@/lib/api/route";
import { libreTranslateReply, libreTranslation } from "@/lib/compat/libretranslate";
import { translateTexts } from "@/lib/compat/translate";
import { ProtocolReply } from "@/lib/kit/dialect";
import { services } from "@/lib/server";
import { bypassRequested, cacheStatus, setCacheHeader } from "@/lib/translate";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 60;

/**
 * POST /compat/libretranslate/translate — LibreTranslate's translate over POST /api/v1/translate (one text) or the
 * batch (an array). Key, limits, usage and errors in LibreTranslate's terms come from the manifest's dialect.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/compat/libretranslate/translate", {
  POST: async ({ req, body, key, startedAt, headers }) => {
    const deps = services().translate;
    const bypass = bypassRequested(req.headers, undefined);
    const translated = await translateTexts(libreTranslation(body), deps, { startedAt, caller: { apiKeyId: key.id, bypass } });
    setCacheHeader(headers, cacheStatus(deps.caching, bypass, translated.cached));
    return new ProtocolReply(translated.result, libreTranslateReply(body, translated));
  },
});
