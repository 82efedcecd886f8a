export {
  resolveSpeechLanguage,
  type SpeechCapabilityEntry,
  STT_LANGUAGES,
  speechCapabilities,
  speechLanguageCodes,
  VOICES,
} from "@/lib/languages/speech";
export { prefersRawAudio, ttsFormatAccepted } from "./accept";
export { AUDIO_CONTENT_TYPES, AUDIO_FORMATS, type AudioFormat, type AudioInfo, AudioRejected, analyzeAudio } from "./audio";
export { type AudioUrlPolicy, fetchAudioUrl, InFlightBudget } from "./audio-url";
export { TTS_FORMATS, TTS_MEDIA_TYPES, type TtsFormat } from "./formats";
export { MAX_TTS_CHARS, MULTIPART_OVERHEAD_BYTES, ttsCharsFitting } from "./limits";
export { readSttUpload, type SttUpload } from "./multipart";
export { type SpeechDeps, STT_JSON_BODY_BYTES, type TranscribeInput, transcribeAudio, transcribeAudioUrl, transcribeUrl } from "./stt";
export { type SynthesisOutcome, type SynthesizeInput, synthesizeSpeech, unknownVoice } from "./tts";
