import { RawReply, serveRoute } from "@/lib/api/route";
import { services } from "@/lib/server";
import { prefersRawAudio, synthesizeSpeech, TTS_MEDIA_TYPES, ttsFormatAccepted } from "@/lib/speech";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 300;

/**
 * POST /api/v1/speech/tts — text-to-speech. JSON {text, language, voice?, provider?, format?}.
 * The audio is in the response, never a link: JSON with audio_base64 in `format` (wav by default, mp3, opus), or the
 * raw bytes with their Content-Type (and the metadata in X-Lugha-* headers) when Accept prefers audio/*: in the format
 * Accept names (audio/ogg, audio/mpeg, audio/wav), else `format`. 422 for request problems
 * (VALIDATION_ERROR, TEXT_TOO_LONG, UNSUPPORTED_LANGUAGE, UNSUPPORTED_VOICE), 503 PROVIDER_ERROR when no provider spoke.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/speech/tts", {
  POST: async ({ req, body, startedAt }) => {
    const accept = req.headers.get("accept");
    const raw = prefersRawAudio(accept);
    const format = (raw ? ttsFormatAccepted(accept) : undefined) ?? body.format ?? "wav";
    const { response: meta, audio } = await synthesizeSpeech({ ...body, raw, format }, services().speech, { startedAt });
    if (raw) {
      const response = new Response(audio as Uint8Array<ArrayBuffer>, {
        headers: {
          Vary: "Accept",
          "Content-Type": meta.content_type,
          "Content-Length": String(audio.byteLength),
          "Content-Disposition": `inline; filename="speech.${TTS_MEDIA_TYPES[format].extension}"`,
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
