/**
 * Speech limits and budgets, from the environment (all optional):
 *
 *   SPEECH_MAX_UPLOAD_BYTES    largest STT audio file, bytes (default 10 MB = 10485760). Enforced while the upload is
 *                              read: the request is cut off with 413 as soon as the body passes it, never buffered
 *                              whole first.
 *   SPEECH_MAX_AUDIO_SECONDS   longest STT recording, seconds (default 600). Longer audio is refused (422), never
 *                              silently trimmed (Sunbird trims at 10 minutes).
 *   SPEECH_DEADLINE_MS         whole-request budget of a transcription or synthesis, provider fallbacks included
 *                              (default 60000).
 */

export const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_AUDIO_SECONDS = 600;
export const DEFAULT_SPEECH_DEADLINE_MS = 60_000;
/** TTS text, Unicode code points after trimming (Sunbird Orpheus takes 2,000). */
export const MAX_TTS_CHARS = 2_000;
/** Room for the multipart framing and the small fields around the audio part. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

type Env = Record<string, string | undefined>;

function intFromEnv(env: Env, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min ? n : fallback;
}

export function maxUploadBytes(env: Env = process.env): number {
  return intFromEnv(env, "SPEECH_MAX_UPLOAD_BYTES", DEFAULT_MAX_UPLOAD_BYTES, 1);
}

export function maxAudioSeconds(env: Env = process.env): number {
  return intFromEnv(env, "SPEECH_MAX_AUDIO_SECONDS", DEFAULT_MAX_AUDIO_SECONDS, 1);
}

export function speechDeadlineMs(env: Env = process.env): number {
  return intFromEnv(env, "SPEECH_DEADLINE_MS", DEFAULT_SPEECH_DEADLINE_MS, 100);
}
