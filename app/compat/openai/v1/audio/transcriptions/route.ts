import { serveRoute } from "@/lib/api/route";
import { openaiTranscribe, transcriptionReply } from "@/lib/compat/openai";
import { ProtocolReply } from "@/lib/kit/dialect";
import { services } from "@/lib/server";
import { MULTIPART_OVERHEAD_BYTES } from "@/lib/speech";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 300;

/**
 * POST /compat/openai/v1/audio/transcriptions — OpenAI's transcription over POST /api/v1/speech/stt's service, the
 * transcript in the response_format asked for. Key, limits, usage and errors in OpenAI's terms come from the
 * manifest's dialect.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/compat/openai/v1/audio/transcriptions", {
  POST: async ({ body, startedAt, maxBodyBytes }) => {
    const result = await openaiTranscribe(body, services().speech, { startedAt, maxAudioBytes: maxBodyBytes - MULTIPART_OVERHEAD_BYTES });
    return new ProtocolReply(result, transcriptionReply(body.response_format, result));
  },
});
