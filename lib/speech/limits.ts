/**
 * Speech limits that are facts of the API rather than settings. The configurable ones (SPEECH_MAX_UPLOAD_BYTES,
 * SPEECH_MAX_AUDIO_SECONDS, SPEECH_DEADLINE_MS) are in the configuration schema (lib/config) and reach the speech
 * services as SpeechDeps.
 */

import { MP3_KBITS_PER_SECOND, OPUS_BITS_PER_SECOND, type TtsFormat } from "./formats";

/**
 * TTS text, Unicode code points after trimming: as much as the API translates, so any translation can be spoken. Longer
 * than one synthesis of most voices (Sunbird's Orpheus takes 2,000 characters, and pieces of 500 in its batch): a
 * longer text is split and the audio joined (lib/speech/tts.ts). At the slowest voices' 8 characters a second that is
 * at most about ten minutes of speech, as long as the longest recording speech-to-text takes.
 */
export const MAX_TTS_CHARS = 5_000;
/** Room for the multipart framing and the small fields around the audio part. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** The slowest current voices speak about 8 characters a second: the size rule counts that many seconds per character. */
const TTS_CHARS_PER_SECOND = 8;

/**
 * Answer bytes per second of audio, at most, in each format: WAV is the provider's own (Sunbird's Orpheus answers at
 * 24 kHz, 16-bit, mono: 48,000 bytes a second, the largest of the current voices); MP3 and Opus are encoded here at
 * fixed bit rates (lib/speech/encode.ts), with room for the frame and Ogg page overhead.
 */
const TTS_BYTES_PER_SECOND: Record<TtsFormat, number> = {
  wav: 48_000,
  mp3: (MP3_KBITS_PER_SECOND * 1000) / 8 + 500,
  opus: OPUS_BITS_PER_SECOND / 8 + 500,
};
const WAV_HEADER_BYTES = 44;
/** Room in the JSON answer for everything but the audio (the metadata fields). */
const TTS_JSON_METADATA_BYTES = 16 * 1024;

/** The largest answer a text of `characters` can produce in `format`: raw audio, or JSON (base64, a third larger, plus the fields). */
export function ttsAnswerBytes(characters: number, raw: boolean, format: TtsFormat = "wav"): number {
  const audio = WAV_HEADER_BYTES + Math.ceil((characters / TTS_CHARS_PER_SECOND) * TTS_BYTES_PER_SECOND[format]);
  return raw ? audio : Math.ceil(audio / 3) * 4 + TTS_JSON_METADATA_BYTES;
}

/** The longest text (at most MAX_TTS_CHARS) whose answer in `format` — raw audio or JSON — fits `maxBytes`. */
export function ttsMaxCharsFor(maxBytes: number, raw: boolean, format: TtsFormat = "wav"): number {
  let lo = 0;
  let hi = MAX_TTS_CHARS;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ttsAnswerBytes(mid, raw, format) <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The longest TTS text whose JSON answer in `format` fits a response body of `bodyLimitBytes` (Vercel's 4.5 MB: 560 characters in WAV). */
export function ttsCharsFitting(bodyLimitBytes: number, format: TtsFormat = "wav"): number {
  return ttsMaxCharsFor(bodyLimitBytes, false, format);
}
