import { KHAYA_ASR_LANGUAGES, KHAYA_TRANSLATE_LANGUAGES, KHAYA_TTS_LANGUAGES } from "./codes";
import { type ProviderDescriptor, toAndFromEnglish, type VoiceSpec, withDecoded } from "./descriptor";
import {
  KHAYA_MAX_TEXT_CHARS,
  KHAYA_SPEAKERS,
  KHAYA_STT_MODEL,
  KHAYA_STT_NATIVE_FORMATS,
  KHAYA_TRANSLATE_MODEL,
  KHAYA_TTS_MODEL,
  KHAYA_TTS_PIECE_CHARS,
  KhayaClient,
} from "./khaya";
import { khayaBehaviour } from "./sandbox/khaya";

/** The languages provider_b translates to and from English: Khaya's official pairs. */
export const KHAYA_ROUTED_LANGUAGES: readonly string[] = Object.keys(KHAYA_TRANSLATE_LANGUAGES);

const SPEAKER_LABELS: Readonly<Record<string, { name: string; gender: "female" | "male" }>> = {
  female: { name: "Female", gender: "female" },
  male_low: { name: "Male, low pitch", gender: "male" },
  male_high: { name: "Male, high pitch", gender: "male" },
};

/** Khaya's multilingual speakers, each for every Khaya TTS language; "female" first, so the default. */
function khayaVoices(): VoiceSpec[] {
  return KHAYA_SPEAKERS.map((id) => {
    const label = SPEAKER_LABELS[id];
    return { id, model: KHAYA_TTS_MODEL, languages: KHAYA_TTS_LANGUAGES, name: label?.name ?? id, ...(label && { gender: label.gender }) };
  });
}

export const khaya: ProviderDescriptor = {
  id: "provider_b",
  displayName: "GhanaNLP Khaya",
  blurb: "West African languages ↔ English",
  client: KhayaClient,
  env: { url: "KHAYA_API_URL", credential: "KHAYA_API_KEY" },
  emulator: { kind: "khaya", behaviour: khayaBehaviour },
  translation: {
    limit: { unit: "characters", max: KHAYA_MAX_TEXT_CHARS },
    routes: toAndFromEnglish(KHAYA_ROUTED_LANGUAGES, { model: KHAYA_TRANSLATE_MODEL, tier: "specialised-b" }),
    knows: (code) => code === "en" || KHAYA_ROUTED_LANGUAGES.includes(code),
  },
  stt: { languages: KHAYA_ASR_LANGUAGES, formats: withDecoded(KHAYA_STT_NATIVE_FORMATS), model: () => KHAYA_STT_MODEL, timestamps: true },
  tts: { voices: khayaVoices, pieceChars: () => KHAYA_TTS_PIECE_CHARS },
};
