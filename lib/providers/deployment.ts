import { CONFIG_DEFAULTS } from "@/lib/config";
import { DEFAULT_HF_ASR_MODEL } from "./codes";

/**
 * The settings that change the catalogue itself — which models provider_c routes a pair to (HF_MODEL_MAP), which
 * Whisper model it transcribes with (HF_ASR_MODEL) and how long provider_a's transcription windows are
 * (SUNBIRD_STT_WINDOW_SECONDS). The catalogue's tables are read by pure functions all over the routing and the
 * listing, so instead of threading these values through every one of them, the composition
 * root (lib/server) sets them once, from the parsed configuration, before the first request; every route bundle of
 * the process reads the same values (kept on globalThis). Unset (unit tests), the built-in defaults apply.
 */
export interface CatalogueSettings {
  /** HF_MODEL_MAP: a file path or inline JSON overriding the built-in model map; undefined for the built-in one. */
  hfModelMap?: string;
  /** HF_ASR_MODEL: provider_c's speech-to-text model. */
  hfAsrModel: string;
  /** SUNBIRD_STT_WINDOW_SECONDS: the longest audio provider_a is sent in one transcription request. */
  sunbirdSttWindowSeconds: number;
}

const SETTINGS = Symbol.for("lugha.catalogue.settings");
type WithSettings = typeof globalThis & { [SETTINGS]?: CatalogueSettings };

const DEFAULTS: CatalogueSettings = { hfAsrModel: DEFAULT_HF_ASR_MODEL, sunbirdSttWindowSeconds: CONFIG_DEFAULTS.SUNBIRD_STT_WINDOW_SECONDS };

export function setCatalogueSettings(settings: CatalogueSettings): void {
  (globalThis as WithSettings)[SETTINGS] = settings;
}

export function catalogueSettings(): CatalogueSettings {
  return (globalThis as WithSettings)[SETTINGS] ?? DEFAULTS;
}
