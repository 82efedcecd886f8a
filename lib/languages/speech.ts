import { ALL_AVAILABLE, type AvailabilityView, modelSubject, sttSubject } from "@/lib/availability";
import { toIso3 } from "@/lib/providers/codes";
import type { AudioFormat, ProviderDescriptor } from "@/lib/providers/descriptor";
import { PROVIDERS } from "@/lib/providers/descriptors";
import type { ProviderId } from "@/lib/providers/types";
import { getLanguage, normalizeLanguageCode } from "./registry";

/**
 * Who serves speech, for which language, in which audio formats, with which voices: the provider descriptors' speech
 * capabilities (lib/providers/*.descriptor.ts) under our canonical codes. The one table behind STT/TTS routing and what
 * GET /api/v1/languages reports, so the listing can never promise what the routes refuse.
 *
 * Speech-to-text: the providers with the language, in routing order; a provider that cannot take the upload's format
 * is left out of the chain, never sent a relabelled file (today: provider_a WAV, MP3, OGG, M4A, WebM; provider_b WAV,
 * MP3, FLAC, OGG; provider_c all six, Whisper detecting the language itself).
 *
 * Text-to-speech: a voice id names exactly one provider, so an explicit voice also fixes the provider. A language's
 * first voice of each provider is that provider's default for it (provider_a: the spark-tts speaker where there is one,
 * else the first Orpheus voice; provider_b: "female"; provider_c: the MMS-TTS model itself, best effort — hf-inference no
 * longer lists text-to-speech, so it is the last resort of the chain).
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
 * A descriptor's code (the provider's ISO 639-3 code, or our canonical code) → our canonical code, only when it names
 * exactly that language: an ISO 639-3 code must be the one the clients send for it, so the request reaches the provider
 * with the code its catalogue lists.
 */
function canonicalFor(code: string): string | undefined {
  const canonical = resolveSpeechLanguage(code);
  return canonical && (canonical === code || toIso3(canonical) === code) ? canonical : undefined;
}

function mapCodes(codes: readonly string[]): string[] {
  return [...new Set(codes.map(canonicalFor).filter((c): c is string => c !== undefined))];
}

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

interface SpeechTables {
  stt: Map<ProviderId, string[]>;
  voices: Voice[];
  voiceById: Map<string, Voice>;
}

const tables = new WeakMap<readonly ProviderDescriptor[], SpeechTables>();

function tablesFor(providers: readonly ProviderDescriptor[]): SpeechTables {
  let t = tables.get(providers);
  if (!t) {
    const stt = new Map(providers.flatMap((d) => (d.stt ? [[d.id, mapCodes(d.stt.languages)] as const] : [])));
    const voices = providers.flatMap((d) => (d.tts ? buildVoices(d.id, d.tts.voices()) : []));
    const voiceById = new Map<string, Voice>();
    for (const v of voices) {
      if (voiceById.has(v.id)) throw new Error(`speech catalog: voice id ${v.id} is used twice`);
      voiceById.set(v.id, v);
    }
    tables.set(providers, (t = { stt, voices, voiceById }));
  }
  return t;
}

function buildVoices(provider: ProviderId, specs: ReturnType<NonNullable<ProviderDescriptor["tts"]>["voices"]>): Voice[] {
  return specs.flatMap((spec) => {
    const languages = mapCodes(spec.languages);
    if (languages.length === 0) return [];
    const name = typeof spec.name === "string" ? spec.name : spec.name(speechLanguageName(languages[0]));
    return [{ id: spec.id, provider, model: spec.model, name, ...(spec.gender && { gender: spec.gender }), languages }];
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Speech-to-text

export interface SttOption {
  provider: ProviderId;
  /** The model part of model_used. */
  model: string;
  formats: readonly AudioFormat[];
  /** Longest recording the provider transcribes in this format (undefined: no limit of its own). */
  maxAudioSeconds?: (format: AudioFormat) => number | undefined;
}

/** Canonical codes each provider transcribes. */
export const STT_LANGUAGES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(tablesFor(PROVIDERS).stt);

/** The providers that transcribe `language`, in routing order; those whose model `availability` knows to be unavailable are left out. */
export function sttOptions(
  language: string,
  providers: readonly ProviderDescriptor[] = PROVIDERS,
  availability: AvailabilityView = ALL_AVAILABLE,
): SttOption[] {
  const { stt } = tablesFor(providers);
  return providers.flatMap(({ id, stt: spec }) => {
    if (!spec || !stt.get(id)?.includes(language)) return [];
    const model = spec.model();
    const served = availability.isAvailable(modelSubject(id, model)) && availability.isAvailable(sttSubject(id, language));
    return served ? [{ provider: id, model, formats: spec.formats, maxAudioSeconds: spec.maxAudioSeconds }] : [];
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Text-to-speech

export const VOICES: readonly Voice[] = tablesFor(PROVIDERS).voices;

export function findVoice(id: string, providers: readonly ProviderDescriptor[] = PROVIDERS): Voice | undefined {
  return tablesFor(providers).voiceById.get(id);
}

/** Default voice per provider for a language: the first listed. */
export interface TtsOption {
  provider: ProviderId;
  voices: Voice[];
  defaultVoice: Voice;
}

/**
 * The providers that speak `language`, in routing order, each with its voices (default first); voices whose model
 * `availability` knows to be unavailable are left out, and so is a provider left without voices.
 */
export function ttsOptions(
  language: string,
  providers: readonly ProviderDescriptor[] = PROVIDERS,
  availability: AvailabilityView = ALL_AVAILABLE,
): TtsOption[] {
  const { voices } = tablesFor(providers);
  return providers.flatMap(({ id }) => {
    const own = voices.filter((v) => v.provider === id && v.languages.includes(language) && availability.isAvailable(modelSubject(id, v.model)));
    return own.length > 0 ? [{ provider: id, voices: own, defaultVoice: own[0] }] : [];
  });
}

/** Every voice id valid for `language` now (for error messages). */
export function voiceIdsFor(
  language: string,
  providers: readonly ProviderDescriptor[] = PROVIDERS,
  availability: AvailabilityView = ALL_AVAILABLE,
): string[] {
  return ttsOptions(language, providers, availability).flatMap((o) => o.voices.map((v) => v.id));
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
export function speechCapabilities(code: string, providers: readonly ProviderDescriptor[] = PROVIDERS): SpeechCapabilityEntry {
  return {
    stt: sttOptions(code, providers).map((o) => ({ provider: o.provider, model: o.model, formats: [...o.formats] })),
    tts: ttsOptions(code, providers).map((o) => ({
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
export function speechLanguageCodes(direction?: SpeechDirection, providers: readonly ProviderDescriptor[] = PROVIDERS): string[] {
  const { stt: sttTable, voices } = tablesFor(providers);
  const stt = [...sttTable.values()].flat();
  const tts = voices.flatMap((v) => v.languages);
  const all = direction === "stt" ? stt : direction === "tts" ? tts : [...stt, ...tts];
  return [...new Set(all)].sort();
}
