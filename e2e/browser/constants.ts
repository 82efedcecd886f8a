/** Key issuance limit per client address on the browser-test server (RATE_LIMIT_ISSUANCE=N/3600s). */
export const ISSUANCE_LIMIT = 5;
/** The longest recording the browser-test server transcribes (SPEECH_MAX_AUDIO_SECONDS): short enough to record past. */
export const SPEECH_MAX_AUDIO_SECONDS = 12;
