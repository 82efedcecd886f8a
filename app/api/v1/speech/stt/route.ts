import { serveRoute } from "@/lib/api/route";
import { services } from "@/lib/server";
import { readSttUpload, transcribeAudio, transcribeUrl } from "@/lib/speech";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 300;

/**
 * POST /api/v1/speech/stt — speech-to-text. multipart/form-data: `audio` (file), `language`, optional `provider`;
 * or JSON: `audio_url`, `language`, optional `provider` (the recording fetched by the service, under the URL rules of
 * lib/speech/audio-url.ts: a refused URL is 422 on audio_url). The upload is read under the route's byte cap (413 while
 * it arrives), recognised by its bytes (415 for empty, truncated or non-audio files), then routed with fallback
 * (lib/speech/stt.ts). 422 for field problems (VALIDATION_ERROR, UNSUPPORTED_LANGUAGE), 503 PROVIDER_ERROR when no
 * provider transcribed it.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/speech/stt", {
  POST: async ({ req, key, startedAt, maxBodyBytes }) => {
    const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (type === "application/json") return transcribeUrl(req, services().speech, { startedAt, caller: key.id });
    const upload = await readSttUpload(req, maxBodyBytes);
    return transcribeAudio(upload, services().speech, { startedAt });
  },
});
