import { methodNotAllowed } from "@/lib/http/methods";
import { apiRoute } from "@/lib/http/route";
import { recordTranslationUsage } from "@/lib/keys/store";
import { bypassRequested, cacheHeader, defaultTranslateDeps, SANDBOX_HEADER, translateText, translationUsage } from "@/lib/translate";
import { TranslateRequest } from "@/lib/translate/schemas";

/**
 * POST /api/v1/translate — translate one text. Routing, fallback, detection, limits and the cache live in
 * lib/translate/service.ts. 422 for request problems (VALIDATION_ERROR, UNSUPPORTED_LANGUAGE, SAME_LANGUAGE,
 * UNSUPPORTED_LANGUAGE_PAIR, PROVIDER_UNSUPPORTED_PAIR, TEXT_TOO_LONG), 503 PROVIDER_ERROR when no provider served it.
 */
export const POST = apiRoute({
  auth: "api_key",
  rateLimit: "translate",
  body: TranslateRequest,
  maxBodyBytes: 64 * 1024,
  handler: async ({ req, body, key, startedAt, requestId }) => {
    const deps = defaultTranslateDeps();
    const bypass = bypassRequested(req.headers, body.cache);
    const result = await translateText(body, deps, { startedAt, caller: { apiKeyId: key.id, bypass } });
    recordUsage(key.id, result, requestId);
    const headers: Record<string, string> = {
      ...(result.sandbox && { [SANDBOX_HEADER]: "true" }),
      ...cacheHeader(deps.caching, bypass, result.cached),
    };
    return Response.json(result, { headers });
  },
});

/** The dashboard's counts; the response never waits for them, and a failure is logged, not surfaced. */
function recordUsage(keyId: string, result: Parameters<typeof translationUsage>[0], requestId: string) {
  recordTranslationUsage(keyId, translationUsage(result)).catch((err) =>
    console.error(`[${requestId}] could not record translation usage: ${(err as Error).message}`),
  );
}

const notAllowed = methodNotAllowed("POST");

export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
