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
 * The most audio a synthesised character can take, for the up-front size check: WAV at 24 kHz, 16-bit mono (Sunbird's
 * Orpheus, the largest of the current voices: 48,000 bytes a second) at 0.1 s a character (slow speech; voices speak
 * about 0.06 s a character).
 */
export const TTS_MAX_AUDIO_BYTES_PER_CHAR = 4_800;

/** The largest answer a text of `characters` can produce: raw audio, or JSON (base64, a third larger, plus the fields). */
export function ttsAnswerBytes(characters: number, raw: boolean): number {
  const audio = 44 + characters * TTS_MAX_AUDIO_BYTES_PER_CHAR;
  return raw ? audio : Math.ceil(audio / 3) * 4 + 1_024;
}

/** The longest text whose answer fits `maxBytes`. */
export function ttsMaxCharsFor(maxBytes: number, raw: boolean): number {
  let lo = 0;
  let hi = MAX_TTS_CHARS;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ttsAnswerBytes(mid, raw) <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
