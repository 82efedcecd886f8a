import { methodNotAllowed } from "@/lib/http/methods";
import { apiRoute } from "@/lib/http/route";
import { recordCharactersTranslated } from "@/lib/keys/store";
import { defaultTranslateDeps, SANDBOX_HEADER, translateText } from "@/lib/translate";
import { TranslateRequest } from "@/lib/translate/schemas";

/**
 * POST /api/v1/translate — translate one text. Routing, fallback, detection and limits live in
 * lib/translate/service.ts. 422 for request problems (VALIDATION_ERROR, UNSUPPORTED_LANGUAGE, SAME_LANGUAGE,
 * UNSUPPORTED_LANGUAGE_PAIR, PROVIDER_UNSUPPORTED_PAIR, TEXT_TOO_LONG), 503 PROVIDER_ERROR when no provider served it.
 */
export const POST = apiRoute({
  auth: "api_key",
  rateLimit: "translate",
  body: TranslateRequest,
  maxBodyBytes: 64 * 1024,
  handler: async ({ body, key, startedAt, requestId }) => {
    const result = await translateText(body, defaultTranslateDeps(), { startedAt });
    recordUsage(key.id, result.characters_translated, requestId);
    const headers: Record<string, string> = result.sandbox ? { [SANDBOX_HEADER]: "true" } : {};
    return Response.json(result, { headers });
  },
});

/** The dashboard's character count; the response never waits for it, and a failure is logged, not surfaced. */
function recordUsage(keyId: string, characters: number, requestId: string) {
  recordCharactersTranslated(keyId, characters).catch((err) =>
    console.error(`[${requestId}] could not record translated characters: ${(err as Error).message}`),
  );
}

const notAllowed = methodNotAllowed("POST");

export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
