import { getLanguage, normalizeLanguageCode } from "@/lib/languages/registry";
import {
  DEFAULT_HF_ASR_MODEL,
  defaultHfTtsModel,
  KHAYA_ASR_LANGUAGES,
  KHAYA_TTS_LANGUAGES,
  SUNBIRD_ORPHEUS_VOICES,
  SUNBIRD_SPARK_VOICES,
  SUNBIRD_STT_LANGUAGES,
  toIso3,
} from "@/lib/providers/codes";
import { KHAYA_SPEAKERS, KHAYA_STT_MODEL, KHAYA_TTS_MODEL } from "@/lib/providers/khaya";
import { SUNBIRD_STT_MODEL } from "@/lib/providers/sunbird";
import { PROVIDER_IDS, type ProviderId } from "@/lib/providers/types";
import type { AudioFormat } from "./audio";

/**
 * Who serves speech, for which language, in which audio formats, with which voices. The one table behind STT/TTS
 * routing and what GET /api/v1/languages reports, so the listing can never promise what the routes refuse.
 *
 * Speech-to-text (auto routing tries them in this order, each only for the languages it has):
 *   provider_a  Sunbird /tasks/audio/transcriptions: en, lug, ach, teo, nyn, lgg, sw, rw, xog, myx (its `language` enum)
 *   provider_b  Khaya ASR v3: its catalogue, limited to the languages this API knows (en, fr, tw, ee, gaa, fat, yo, dag,
 *               ki, gur, luo, mer, kus, ha, ig, rw, sn, sw, wo)
 *   provider_c  Whisper (openai/whisper-large-v3-turbo, or HF_ASR_MODEL) on the HF router: only languages Whisper knows that
 *               this API knows — en, fr, pt, ar, sw, yo, ha, ln, sn, so, af, am, mg. hf-inference has no language
 *               parameter: Whisper detects the spoken language itself.
 * Upload formats each provider takes: provider_a WAV, MP3, OGG, M4A, WebM
 * (not FLAC); provider_b WAV, MP3, FLAC, OGG (not M4A, WebM); provider_c all six. A provider that cannot take the
 * upload's format is left out of the chain, never sent a relabelled file.
 *
 * Text-to-speech voices (a voice id names exactly one provider, so an explicit voice also fixes the provider):
 *   provider_a  spark-tts speaker ids "241" Acholi, "242" Ateso, "243" Runyankore, "245" Lugbara, "246" Swahili,
 *               "248" Luganda (the default voice of those languages), and the Orpheus catalogue tags
 *               ("salt_lug_0001", "waxal_swa_0006", ...), which add English, Kinyarwanda, Yoruba, Hausa and others.
 *   provider_b  Khaya's multilingual speakers "female" (default), "male_low", "male_high", for every Khaya TTS language.
 *   provider_c  one voice per language: the MMS-TTS model itself ("facebook/mms-tts-swh"), best effort — hf-inference no
 *               longer lists text-to-speech, so it is the last resort of the chain.
 */

export type SpeechDirection = "stt" | "tts";

/**
 * Canonical code of `input` for the speech endpoints: the registry's spellings (any case, ISO 639-3, aliases). The
 * registry also holds the languages only speech serves (Lusoga xog, Lumasaba myx), so there is one list of names.
 */
export function resolveSpeechLanguage(input: string): string | undefined {
  return normalizeLanguageCode(input);
}

export function speechLanguageName(code: string): string {
  return getLanguage(code)?.name ?? code;
}

/**
 * Provider ISO 639-3 code → our canonical code, only when the client maps it back to exactly that wire code (so the
 * request reaches the provider with the code its catalogue lists).
 */
function canonicalFor(iso3: string): string | undefined {
  const code = resolveSpeechLanguage(iso3);
  return code && toIso3(code) === iso3 ? code : undefined;
}

function mapCodes(iso3s: readonly string[]): string[] {
  return [...new Set(iso3s.map(canonicalFor).filter((c): c is string => c !== undefined))];
}

// ---------------------------------------------------------------------------------------------------------------
// Speech-to-text

export interface SttOption {
  provider: ProviderId;
  /** The model part of model_used. */
  model: string;
  formats: readonly AudioFormat[];
}

export const STT_FORMATS: Readonly<Record<ProviderId, readonly AudioFormat[]>> = {
  provider_a: ["wav", "mp3", "ogg", "m4a", "webm"],
  provider_b: ["wav", "mp3", "flac", "ogg"],
  provider_c: ["wav", "mp3", "ogg", "webm", "flac", "m4a"],
};

export const STT_MODELS: Readonly<Record<ProviderId, string>> = {
  provider_a: SUNBIRD_STT_MODEL,
  provider_b: KHAYA_STT_MODEL,
  provider_c: DEFAULT_HF_ASR_MODEL,
};

/** provider_c's ASR model: HF_ASR_MODEL ("org/name", a Whisper model) or openai/whisper-large-v3-turbo. */
export function hfAsrModel(env: Record<string, string | undefined> = process.env): string {
  const configured = env.HF_ASR_MODEL?.trim();
  return configured && /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(configured) ? configured : DEFAULT_HF_ASR_MODEL;
}

/** Whisper's languages (its tokenizer's list) that this API knows; the others are not claimed. */
const WHISPER_LANGUAGES: readonly string[] = ["en", "fr", "pt", "ar", "sw", "yo", "ha", "ln", "sn", "so", "af", "am", "mg"];

export const STT_LANGUAGES: Readonly<Record<ProviderId, readonly string[]>> = {
  provider_a: mapCodes(SUNBIRD_STT_LANGUAGES),
  provider_b: mapCodes(KHAYA_ASR_LANGUAGES),
  provider_c: WHISPER_LANGUAGES.filter((c) => resolveSpeechLanguage(c) === c),
};

/** The providers that transcribe `language`, in auto-routing order (provider_a → provider_b → provider_c). */
export function sttOptions(language: string): SttOption[] {
  return PROVIDER_IDS.filter((p) => STT_LANGUAGES[p].includes(language)).map((provider) => ({
    provider,
    model: provider === "provider_c" ? hfAsrModel() : STT_MODELS[provider],
    formats: STT_FORMATS[provider],
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Text-to-speech

export interface Voice {
  /** What the caller sends as `voice` and gets back in the response. */
  id: string;
  provider: ProviderId;
  /** The model part of model_used when this voice speaks. */
  model: string;
  name: string;
  gender?: "female" | "male";
  /** Canonical codes this voice speaks. */
  languages: readonly string[];
}

const SPARK_NAMES: Readonly<Record<string, { name: string; gender: "female" | "male" }>> = {
  "241": { name: "Acholi (female)", gender: "female" },
  "242": { name: "Ateso (female)", gender: "female" },
  "243": { name: "Runyankore (female)", gender: "female" },
  "245": { name: "Lugbara (female)", gender: "female" },
  "246": { name: "Swahili (male)", gender: "male" },
  "248": { name: "Luganda (female)", gender: "female" },
};

const KHAYA_SPEAKER_NAMES: Readonly<Record<string, { name: string; gender: "female" | "male" }>> = {
  female: { name: "Female", gender: "female" },
  male_low: { name: "Male, low pitch", gender: "male" },
  male_high: { name: "Male, high pitch", gender: "male" },
};

/** The MMS-TTS models known to exist on the Hub for languages this API knows. */
const MMS_TTS_LANGUAGES: readonly string[] = ["en", "sw", "yo", "ha", "rw", "lug", "am"];

function buildVoices(): Voice[] {
  const voices: Voice[] = [];
  // provider_a: spark-tts speakers first (they are the languages' defaults), then the Orpheus catalogue.
  for (const [id, iso3] of Object.entries(SUNBIRD_SPARK_VOICES)) {
    const code = canonicalFor(iso3);
    if (!code) continue;
    const label = SPARK_NAMES[id] ?? { name: `${speechLanguageName(code)} speaker ${id}`, gender: undefined };
    voices.push({
      id,
      provider: "provider_a",
      model: "spark-tts",
      name: label.name,
      ...(label.gender && { gender: label.gender }),
      languages: [code],
    });
  }
  for (const [iso3, tags] of Object.entries(SUNBIRD_ORPHEUS_VOICES)) {
    const code = canonicalFor(iso3);
    if (!code) continue;
    for (const [i, tag] of tags.entries()) {
      voices.push({
        id: tag,
        provider: "provider_a",
        model: "orpheus-3b-tts",
        name: `${speechLanguageName(code)} ${i + 1} (Orpheus)`,
        languages: [code],
      });
    }
  }
  const khayaLanguages = mapCodes(KHAYA_TTS_LANGUAGES);
  for (const speaker of KHAYA_SPEAKERS) {
    const label = KHAYA_SPEAKER_NAMES[speaker] ?? { name: speaker, gender: undefined };
    voices.push({
      id: speaker,
      provider: "provider_b",
      model: KHAYA_TTS_MODEL,
      name: label.name,
      ...(label.gender && { gender: label.gender }),
      languages: khayaLanguages,
    });
  }
  for (const code of MMS_TTS_LANGUAGES) {
    if (resolveSpeechLanguage(code) !== code) continue;
    const model = defaultHfTtsModel(code);
    voices.push({ id: model, provider: "provider_c", model, name: `${speechLanguageName(code)} (MMS-TTS)`, languages: [code] });
  }
  const seen = new Set<string>();
  for (const v of voices) {
    if (seen.has(v.id)) throw new Error(`speech catalog: voice id ${v.id} is used twice`);
    seen.add(v.id);
  }
  return voices;
}

export const VOICES: readonly Voice[] = buildVoices();
const VOICE_BY_ID = new Map(VOICES.map((v) => [v.id, v]));

export function findVoice(id: string): Voice | undefined {
  return VOICE_BY_ID.get(id);
}

/** Default voice per provider for a language: the first listed (spark-tts before Orpheus; Khaya "female"). */
export interface TtsOption {
  provider: ProviderId;
  voices: Voice[];
  defaultVoice: Voice;
}

/** The providers that speak `language`, in auto-routing order, each with its voices (default first). */
export function ttsOptions(language: string): TtsOption[] {
  const options: TtsOption[] = [];
  for (const provider of PROVIDER_IDS) {
    const voices = VOICES.filter((v) => v.provider === provider && v.languages.includes(language));
    if (voices.length > 0) options.push({ provider, voices, defaultVoice: voices[0] });
  }
  return options;
}

/** Every voice id valid for `language` (for error messages). */
export function voiceIdsFor(language: string): string[] {
  return ttsOptions(language).flatMap((o) => o.voices.map((v) => v.id));
}

// ---------------------------------------------------------------------------------------------------------------
// What GET /api/v1/languages reports

export interface SpeechCapabilityEntry {
  stt: { provider: ProviderId; model: string; formats: AudioFormat[] }[];
  tts: {
    provider: ProviderId;
    voices: { id: string; name: string; gender?: "female" | "male"; model: string; default: boolean }[];
  }[];
}

/**
 * Speech capabilities of one language (canonical code), per provider in routing order: STT models and accepted
 * formats, TTS voices with the default marked. Empty arrays when the language has none.
 */
export function speechCapabilities(code: string): SpeechCapabilityEntry {
  return {
    stt: sttOptions(code).map((o) => ({ provider: o.provider, model: o.model, formats: [...o.formats] })),
    tts: ttsOptions(code).map((o) => ({
      provider: o.provider,
      voices: o.voices.map((v) => ({
        id: v.id,
        name: v.name,
        ...(v.gender && { gender: v.gender }),
        model: v.model,
        default: v === o.defaultVoice,
      })),
    })),
  };
}

/** Every language with at least one speech capability (canonical codes). */
export function speechLanguageCodes(direction?: SpeechDirection): string[] {
  const stt = PROVIDER_IDS.flatMap((p) => STT_LANGUAGES[p]);
  const tts = VOICES.flatMap((v) => v.languages);
  const all = direction === "stt" ? stt : direction === "tts" ? tts : [...stt, ...tts];
  return [...new Set(all)].sort();
}
