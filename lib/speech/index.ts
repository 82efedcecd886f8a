import { getProviders } from "@/lib/providers";
import { getAvailability } from "@/lib/server/availability";
import { maxAudioSeconds, speechDeadlineMs } from "./limits";
import type { SpeechDeps } from "./stt";

export {
  resolveSpeechLanguage,
  type SpeechCapabilityEntry,
  STT_LANGUAGES,
  speechCapabilities,
  speechLanguageCodes,
  VOICES,
} from "@/lib/languages/speech";
export { prefersRawAudio } from "./accept";
export { AUDIO_CONTENT_TYPES, AUDIO_FORMATS, type AudioFormat, type AudioInfo, AudioRejected, analyzeAudio } from "./audio";
export { DEFAULT_MAX_UPLOAD_BYTES, MAX_TTS_CHARS, maxAudioSeconds, maxUploadBytes, speechDeadlineMs } from "./limits";
export { readSttUpload, type SttUpload } from "./multipart";
export { type SpeechDeps, type TranscribeInput, transcribeAudio } from "./stt";
export { type SynthesisOutcome, type SynthesizeInput, synthesizeSpeech } from "./tts";

/** The production wiring: the shared provider clients (live or sandbox, per the environment), env-configured limits and live availability. */
export function defaultSpeechDeps(): SpeechDeps {
  return { providers: getProviders(), deadlineMs: speechDeadlineMs(), maxAudioSeconds: maxAudioSeconds(), availability: getAvailability() };
}
