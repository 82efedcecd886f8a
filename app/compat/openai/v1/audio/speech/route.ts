import { RawReply, serveRoute } from "@/lib/api/route";
import { openaiSpeak } from "@/lib/compat/openai";
import { services } from "@/lib/server";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 300;

/**
 * POST /compat/openai/v1/audio/speech — OpenAI's speech over POST /api/v1/speech/tts's service: the audio file itself,
 * in the response_format asked for. Key, limits, usage and errors in OpenAI's terms come from the manifest's dialect.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/compat/openai/v1/audio/speech", {
  POST: async ({ body, startedAt }) => {
    const { audio, contentType, meta } = await openaiSpeak(body, services().speech, { startedAt });
    const response = new Response(audio as Uint8Array<ArrayBuffer>, {
      headers: { "Content-Type": contentType, "Content-Length": String(audio.byteLength) },
    });
    return new RawReply(response, meta.sandbox, { provider: meta.provider, model: meta.model_used });
  },
});
