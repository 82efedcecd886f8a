import { SUNBIRD_ORPHEUS_VOICES, SUNBIRD_SPARK_VOICES, SUNBIRD_STT_LANGUAGES, SUNBIRD_TRANSLATE_LANGUAGES, toIso3 } from "./codes";
import { catalogueSettings } from "./deployment";
import { NO_ROUTES, type ProviderDescriptor, type RouteSpec, type VoiceSpec, withDecoded, withinSet } from "./descriptor";
import { sunbirdBehaviour } from "./sandbox/sunbird";
import {
  SUNBIRD_MAX_CHUNK_CHARS,
  SUNBIRD_MAX_TEXT_CHARS,
  SUNBIRD_STT_MODEL,
  SUNBIRD_STT_NATIVE_FORMATS,
  SUNBIRD_TRANSLATE_MODEL,
  SUNBIRD_TTS_PIECE_CHARS,
  SUNBIRD_TTS_TEXT_LIMITS,
  SunbirdClient,
} from "./sunbird";

/**
 * The languages provider_a translates between first (every ordered pair of them): the Ugandan set of routing rule (a).
 */
export const SUNBIRD_ROUTED_LANGUAGES: readonly string[] = ["en", "lug", "ach", "teo", "nyn", "lgg"];

/** Asked for nearly every ordered pair when the pair tables are built: the answer per code is kept. */
const sunflowerCodes = new Map<string, boolean>();
function sunflowerKnows(code: string): boolean {
  let known = sunflowerCodes.get(code);
  if (known === undefined) sunflowerCodes.set(code, (known = SUNBIRD_TRANSLATE_LANGUAGES[toIso3(code)] !== undefined));
  return known;
}

/**
 * Any pair of Sunflower's 32 languages outside rule (a)'s set: provider_a as the last candidate, after provider_b and
 * provider_c (see `lastResort`).
 */
function sunflowerPair(source: string, target: string): readonly RouteSpec[] {
  return source !== target && sunflowerKnows(source) && sunflowerKnows(target) ? SUNFLOWER_ROUTES : NO_ROUTES;
}

const SUNFLOWER_ROUTES: readonly RouteSpec[] = [
  { model: SUNBIRD_TRANSLATE_MODEL, tier: "sunflower-extended", maxChunkChars: SUNBIRD_MAX_CHUNK_CHARS },
];

const SPARK_LABELS: Readonly<Record<string, { name: string; gender: "female" | "male" }>> = {
  "241": { name: "Acholi (female)", gender: "female" },
  "242": { name: "Ateso (female)", gender: "female" },
  "243": { name: "Runyankore (female)", gender: "female" },
  "245": { name: "Lugbara (female)", gender: "female" },
  "246": { name: "Swahili (male)", gender: "male" },
  "248": { name: "Luganda (female)", gender: "female" },
};

/** spark-tts speakers first (they are their languages' defaults), then the Orpheus catalogue. */
function sunbirdVoices(): VoiceSpec[] {
  const spark = Object.entries(SUNBIRD_SPARK_VOICES).map(([id, iso3]): VoiceSpec => {
    const label = SPARK_LABELS[id];
    return {
      id,
      model: "spark-tts",
      languages: [iso3],
      name: label?.name ?? ((language) => `${language} speaker ${id}`),
      ...(label && { gender: label.gender }),
    };
  });
  const orpheus = Object.entries(SUNBIRD_ORPHEUS_VOICES).flatMap(([iso3, tags]) =>
    tags.map((id, i): VoiceSpec => ({ id, model: "orpheus-3b-tts", languages: [iso3], name: (language) => `${language} ${i + 1} (Orpheus)` })),
  );
  return [...spark, ...orpheus];
}

export const sunbird: ProviderDescriptor = {
  id: "provider_a",
  displayName: "Sunbird AI",
  blurb: "Ugandan languages",
  client: SunbirdClient,
  env: { url: "SUNBIRD_API_URL", credential: "SUNBIRD_API_TOKEN" },
  emulator: { kind: "sunbird", behaviour: sunbirdBehaviour },
  translation: {
    limit: { unit: "characters", max: SUNBIRD_MAX_TEXT_CHARS },
    routes: withinSet(SUNBIRD_ROUTED_LANGUAGES, { model: SUNBIRD_TRANSLATE_MODEL, tier: "specialised-a", maxChunkChars: SUNBIRD_MAX_CHUNK_CHARS }),
    lastResort: sunflowerPair,
    knows: (code) => SUNBIRD_ROUTED_LANGUAGES.includes(code) || sunflowerKnows(code),
  },
  stt: {
    languages: SUNBIRD_STT_LANGUAGES,
    // What it takes itself, and what is decoded and sent as WAV.
    formats: withDecoded(SUNBIRD_STT_NATIVE_FORMATS),
    model: () => SUNBIRD_STT_MODEL,
    // Longer recordings go in windows, but M4A cannot be decoded here to be cut: it goes whole or not at all.
    maxAudioSeconds: (format) => (format === "m4a" ? catalogueSettings().sunbirdSttWindowSeconds : undefined),
    timestamps: false,
  },
  tts: {
    voices: sunbirdVoices,
    // Orpheus pieces go in one batch request; spark-tts has no batch endpoint, but takes more than the API's limit whole.
    pieceChars: (voice) => (voice.model === "spark-tts" ? SUNBIRD_TTS_TEXT_LIMITS["spark-tts"] : SUNBIRD_TTS_PIECE_CHARS),
  },
};
