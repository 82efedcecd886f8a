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
 * second, the largest of the current voices), and its slowest voices speak about 8 characters a second.
 */
export const TTS_AUDIO_BYTES_PER_CHAR = 6_000;
const WAV_HEADER_BYTES = 44;
/** Room in the JSON answer for everything but the audio (the metadata fields). */
const TTS_JSON_METADATA_BYTES = 16 * 1024;

/** The largest answer a text of `characters` can produce: raw audio, or JSON (base64, a third larger, plus the fields). */
export function ttsAnswerBytes(characters: number, raw: boolean): number {
  const audio = WAV_HEADER_BYTES + characters * TTS_AUDIO_BYTES_PER_CHAR;
  return raw ? audio : Math.ceil(audio / 3) * 4 + TTS_JSON_METADATA_BYTES;
}

/** The longest text (at most MAX_TTS_CHARS) whose answer — raw audio or JSON — fits `maxBytes`. */
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

/** The longest TTS text whose JSON answer fits a response body of `bodyLimitBytes` (Vercel's 4.5 MB: 560 characters). */
export function ttsCharsFitting(bodyLimitBytes: number): number {
  return ttsMaxCharsFor(bodyLimitBytes, false);
}
