import { methodNotAllowed } from "@/lib/http/methods";
import { apiRoute } from "@/lib/http/route";
import { defaultSpeechDeps, maxUploadBytes, readSttUpload, transcribeAudio } from "@/lib/speech";
import { SANDBOX_HEADER } from "@/lib/translate";

/**
 * POST /api/v1/speech/stt — speech-to-text. multipart/form-data: `audio` (file),
 * `language`, optional `provider`. The upload is read under a byte cap (413 while it arrives), recognised by its bytes
 * (415 for empty, truncated or non-audio files), then routed with fallback (lib/speech/stt.ts). 422 for field problems
 * (VALIDATION_ERROR, UNSUPPORTED_LANGUAGE), 503 PROVIDER_ERROR when no provider transcribed it.
 */
export const POST = apiRoute({
  auth: "api_key",
  rateLimit: "stt",
  handler: async ({ req, startedAt }) => {
    const upload = await readSttUpload(req, maxUploadBytes());
    const result = await transcribeAudio(upload, defaultSpeechDeps(), { startedAt });
    const headers: Record<string, string> = result.sandbox ? { [SANDBOX_HEADER]: "true" } : {};
    return Response.json(result, { headers });
  },
});

const notAllowed = methodNotAllowed("POST");

export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
