import { RawReply, serveRoute } from "@/lib/api/route";
import { services } from "@/lib/server";
import { prefersRawAudio, synthesizeSpeech } from "@/lib/speech";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 300;

/**
 * POST /api/v1/speech/tts — text-to-speech. JSON {text, language, voice?, provider?}.
 * The audio is in the response, never a link: JSON with audio_base64 by default, or the raw bytes with their
 * Content-Type (and the metadata in X-Lugha-* headers) when Accept prefers audio/*. 422 for request problems
 * (VALIDATION_ERROR, TEXT_TOO_LONG, UNSUPPORTED_LANGUAGE, UNSUPPORTED_VOICE), 503 PROVIDER_ERROR when no provider spoke.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/speech/tts", {
  POST: async ({ req, body, startedAt }) => {
    const raw = prefersRawAudio(req.headers.get("accept"));
    const { response: meta, audio } = await synthesizeSpeech({ ...body, raw }, services().speech, { startedAt });
    if (raw) {
      const response = new Response(audio as Uint8Array<ArrayBuffer>, {
        headers: {
          Vary: "Accept",
          "Content-Type": meta.content_type,
          "Content-Length": String(audio.byteLength),
          "Content-Disposition": `inline; filename="speech.${meta.content_type === "audio/mpeg" ? "mp3" : meta.content_type.split("/")[1]}"`,
          "X-Lugha-Language": meta.language,
          "X-Lugha-Voice": meta.voice,
          "X-Lugha-Model-Used": meta.model_used,
          "X-Lugha-Provider": meta.provider,
          "X-Lugha-Latency-Ms": String(meta.latency_ms),
          "X-Lugha-Audio-Duration-Seconds": String(meta.audio_duration_seconds),
          "X-Lugha-Requested-Provider": meta.requested_provider,
          "X-Lugha-Fallback-Used": String(meta.fallback_used),
          "X-Lugha-Providers-Tried": meta.providers_tried.join(","),
        },
      });
      return new RawReply(response, meta.sandbox, { provider: meta.provider, model: meta.model_used });
    }
    return new RawReply(
      Response.json({ audio_base64: Buffer.from(audio).toString("base64"), ...meta }, { headers: { Vary: "Accept" } }),
      meta.sandbox,
      { provider: meta.provider, model: meta.model_used },
    );
  },
});
