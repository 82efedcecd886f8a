/**
 * Speech limits that are facts of the API rather than settings. The configurable ones (SPEECH_MAX_UPLOAD_BYTES,
 * SPEECH_MAX_AUDIO_SECONDS, SPEECH_DEADLINE_MS) are in the configuration schema (lib/config) and reach the speech
 * services as SpeechDeps.
 */

/** TTS text, Unicode code points after trimming (Sunbird Orpheus takes 2,000). */
export const MAX_TTS_CHARS = 2_000;
/** Room for the multipart framing and the small fields around the audio part. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
