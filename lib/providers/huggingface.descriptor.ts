import { defaultHfTtsModel } from "./codes";
import { catalogueSettings } from "./deployment";
import { NO_ROUTES, type ProviderDescriptor, type VoiceSpec, withDecoded } from "./descriptor";
import { HF_ASR_NATIVE_FORMATS, HF_MAX_INPUT_TOKENS, HF_TTS_PIECE_CHARS, HF_WHISPER_WINDOW_SECONDS, HuggingFaceClient } from "./huggingface";
import { hfBehaviour } from "./sandbox/hf";

/**
 * Whisper's languages (its tokenizer's list) that this API knows; the others are not claimed. hf-inference has no
 * language parameter: Whisper detects the spoken language itself.
 */
const WHISPER_LANGUAGES: readonly string[] = ["en", "fr", "pt", "ar", "sw", "yo", "ha", "ln", "sn", "so", "af", "am", "mg"];

/** The MMS-TTS models known to exist on the Hub for languages this API knows. */
const MMS_TTS_LANGUAGES: readonly string[] = ["en", "sw", "yo", "ha", "rw", "lug", "am"];

/** One voice per language: the MMS-TTS model itself. */
function mmsVoices(): VoiceSpec[] {
  return MMS_TTS_LANGUAGES.map((code) => {
    const model = defaultHfTtsModel(code);
    return { id: model, model, languages: [code], name: (language) => `${language} (MMS-TTS)` };
  });
}

export const huggingFace: ProviderDescriptor = {
  id: "provider_c",
  displayName: "Hugging Face",
  blurb: "open models, for the rest",
  client: HuggingFaceClient,
  env: { url: "HF_API_URL", credential: "HF_TOKEN" },
  emulator: { kind: "hf", behaviour: hfBehaviour },
  translation: {
    limit: { unit: "tokens", max: HF_MAX_INPUT_TOKENS },
    // Several models per pair, from the model map (lib/languages/hf-models.json), best first; each is its own route.
    routes: (source, target, ctx) => {
      const routes = ctx.modelMapRoutes(source, target);
      return routes.length === 0 ? NO_ROUTES : routes.map((hf) => ({ model: hf.model, tier: hf.tier, label: hf.model, hf }));
    },
    knows: (code, ctx) => ctx.modelMapKnows(code),
  },
  stt: {
    languages: WHISPER_LANGUAGES,
    formats: withDecoded(HF_ASR_NATIVE_FORMATS),
    // HF_ASR_MODEL, read when routing (lib/providers/deployment.ts).
    model: () => catalogueSettings().hfAsrModel,
    request: (model) => ({ hfModel: model }),
    // Whisper takes 30 s of raw audio: longer recordings go in windows, except M4A, which cannot be decoded here to be cut.
    maxAudioSeconds: (format) => (format === "m4a" ? HF_WHISPER_WINDOW_SECONDS : undefined),
    // One segment per window.
    timestamps: true,
  },
  // Best effort: hf-inference no longer lists text-to-speech, so it is the last resort of the chain.
  tts: { voices: mmsVoices, request: (voice) => ({ hfModel: voice.model }), pieceChars: () => HF_TTS_PIECE_CHARS },
};
