/**
 * Speech limits that are facts of the API rather than settings. The configurable ones (SPEECH_MAX_UPLOAD_BYTES,
 * SPEECH_MAX_AUDIO_SECONDS, SPEECH_DEADLINE_MS) are in the configuration schema (lib/config) and reach the speech
 * services as SpeechDeps.
 */

/** TTS text, Unicode code points after trimming (Sunbird Orpheus takes 2,000). */
export const MAX_TTS_CHARS = 2_000;
/** Room for the multipart framing and the small fields around the audio part. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * Audio bytes per character of TTS text, at most: Sunbird's Orpheus answers WAV at 24 kHz, 16-bit, mono (48,000 bytes a
 * second), and its slowest voices speak about 8 characters a second.
 */
export const TTS_AUDIO_BYTES_PER_CHAR = 6_000;
/** Room in the JSON answer for everything but the audio (the metadata fields). */
const TTS_JSON_METADATA_BYTES = 16 * 1024;

/**
 * The longest TTS text whose JSON answer (the audio as base64, 4/3 of its bytes, plus the metadata) fits a response body
 * of `bodyLimitBytes` (Vercel's 4.5 MB: 560 characters); never more than MAX_TTS_CHARS.
 */
export function ttsCharsFitting(bodyLimitBytes: number): number {
  return Math.min(MAX_TTS_CHARS, Math.floor((bodyLimitBytes - TTS_JSON_METADATA_BYTES) / ((TTS_AUDIO_BYTES_PER_CHAR * 4) / 3)));
}
