import { getProviders } from "@/lib/providers";
import { maxAudioSeconds, speechDeadlineMs } from "./limits";
import type { SpeechDeps } from "./stt";

export { transcribeAudio, type SpeechDeps, type TranscribeInput } from "./stt";
export { synthesizeSpeech, type SynthesizeInput, type SynthesisOutcome } from "./tts";
export { readSttUpload, type SttUpload } from "./multipart";
export { prefersRawAudio } from "./accept";
export { analyzeAudio, AudioRejected, AUDIO_FORMATS, AUDIO_CONTENT_TYPES, type AudioFormat, type AudioInfo } from "./audio";
export { speechCapabilities, speechLanguageCodes, resolveSpeechLanguage, VOICES, STT_LANGUAGES, STT_FORMATS, type SpeechCapabilityEntry } from "./catalog";
export { maxUploadBytes, maxAudioSeconds, speechDeadlineMs, MAX_TTS_CHARS, DEFAULT_MAX_UPLOAD_BYTES } from "./limits";

/** The production wiring: the shared provider clients (live or sandbox, per the environment) and env-configured limits. */
export function defaultSpeechDeps(): SpeechDeps {
  return { providers: getProviders(), deadlineMs: speechDeadlineMs(), maxAudioSeconds: maxAudioSeconds() };
}
