import type { BaseClient, ClientOptions } from "./client";
import { DECODED_FORMATS } from "./decode";
import type { EmulatorOptions, ProviderBehaviour } from "./sandbox/emulator";
import type { HfModelRoute, ProviderClient, ProviderId, SynthesizeRequest, TranscribeRequest } from "./types";

/**
 * What one provider is and can do, in one place beside its client: identity, wiring (client, environment, sandbox
 * emulator) and capabilities (translation routes, speech-to-text, text-to-speech voices). The ordered list of
 * descriptors (./descriptors.ts) is the routing order; the catalogue (lib/languages) and the services read only these.
 *
 * Language codes in a descriptor are the provider's own (ISO 639-3, as its wire format wants) or our canonical codes;
 * the catalogue keeps a code only when it names exactly one language this API knows.
 */

/** Upload formats the speech endpoints recognise. */
export type AudioFormat = "wav" | "mp3" | "ogg" | "webm" | "flac" | "m4a";

/**
 * quality_score per kind of engine (the tier of a route). Fixed, documented values, not measurements. The band says what
 * served the pair: a specialised provider for the pair ≥ 0.90, a dedicated pair model 0.80–0.89, a general-purpose
 * model 0.70–0.79, a multilingual fallback 0.60–0.69. The score reported is the one of the route that actually served.
 */
export const QUALITY = {
  /** A provider specialised in the pair's languages, its strongest set (Sunbird on its Ugandan pairs). */
  "specialised-a": 0.92,
  /** A provider specialised in the pair's languages (Khaya on its English ↔ West/East African pairs). */
  "specialised-b": 0.9,
  /** A model trained for exactly this pair (Helsinki-NLP opus-mt). */
  dedicated: 0.85,
  /**
   * Sunbird's Sunflower on a pair outside rule (a)'s set (e.g. Lusoga ↔ Rukiga, English → Alur): a model built for
   * these languages, but without the evaluated quality of the core set, so the "good" band, not the 0.92 of rule (a).
   */
  "sunflower-extended": 0.8,
  /** A general many-to-many model (NLLB-200). */
  general: 0.75,
  /** A multilingual fallback model (opus-mt-en-mul / opus-mt-mul-en). */
  fallback: 0.65,
} as const;
export type Tier = keyof typeof QUALITY;

/** How much text one upstream call takes. Tokens are estimated (lib/translate/limits.ts), prefix included. */
export type InputLimit = { unit: "characters"; max: number } | { unit: "tokens"; max: number };

/** One way a provider can translate a pair: one model, one tier, one limit. */
export interface TranslationRoute {
  provider: ProviderId;
  /** The model part of model_used. */
  model: string;
  tier: Tier;
  limit: InputLimit;
  /**
   * For a route whose output is bounded (a model that generates at most so many tokens): the longest text, in code
   * points, sent in one call, so that its translation always fits the output. Auto routing and a forced provider
   * alike split longer texts (lib/translate/long-text.ts); unlike `limit`, it never makes a text too long.
   */
  maxChunkChars?: number;
  /**
   * Set when the provider has several models for a pair: failures of this route are reported under this name, and a
   * failure that concerns only this route moves on to the provider's next route.
   */
  label?: string;
  /** Hugging Face model parameters, passed to the client as TranslateRequest.hf. */
  hf?: HfModelRoute;
}

/** A route as its descriptor declares it: the catalogue adds the provider, and the provider's limit unless it has its own. */
export type RouteSpec = Omit<TranslationRoute, "provider" | "limit"> & { limit?: InputLimit };

/** What the catalogue hands a descriptor to compute its routes: the configured Hugging Face model map. */
export interface RouteContext {
  modelMapRoutes(source: string, target: string): readonly HfModelRoute[];
  /** Whether the model map names this code at all (as a source or a target of some model). */
  modelMapKnows(code: string): boolean;
}

export interface VoiceSpec {
  /** What the caller sends as `voice` and gets back. */
  id: string;
  /** The model part of model_used when this voice speaks. */
  model: string;
  /** Codes this voice speaks (provider codes or canonical codes). */
  languages: readonly string[];
  /** Display name; a function gets the English name of the voice's (first) language. */
  name: string | ((languageName: string) => string);
  gender?: "female" | "male";
}

export interface ProviderDescriptor {
  id: ProviderId;
  /** Human name of the upstream, e.g. "Sunbird AI". */
  displayName: string;
  /** What it is chosen for, in a few words (the portal's provider choices and home page), e.g. "Ugandan languages". */
  blurb: string;
  client: new (opts: ClientOptions) => BaseClient & ProviderClient;
  env: {
    /** Variable holding the base URL (its public default is in the configuration schema, lib/config). */
    url: string;
    /** Variable holding the token or key. */
    credential: string;
  };
  /** The in-process emulator behind sandbox mode. */
  emulator: { kind: string; behaviour(opts: EmulatorOptions): ProviderBehaviour };
  translation?: {
    /** How much text one call takes (a route may declare its own). */
    limit: InputLimit;
    /** The routes for source → target (canonical codes), best first; empty when the provider does not translate the pair. */
    routes(source: string, target: string, ctx: RouteContext): readonly RouteSpec[];
    /**
     * Routes tried after every provider's `routes`, only for pairs this provider's `routes` does not serve: the pairs it
     * can translate beyond the routing rules' sets (provider_a's Sunflower languages). Absent: none.
     */
    lastResort?(source: string, target: string): readonly RouteSpec[];
    /**
     * Whether `routes` or `lastResort` can name this code, as source or target: the pair tables ask `routes` only for
     * pairs of two codes some provider knows (most of the registry's ≈7,000 ordered pairs have no route, and building
     * the tables in a cold process cost tens of ms, a function call at a time). Absent: every code. A test in
     * lib/languages holds every descriptor's routes within it.
     */
    knows?(code: string, ctx: RouteContext): boolean;
  };
  stt?: {
    languages: readonly string[];
    formats: readonly AudioFormat[];
    /** The model part of model_used (read when routing, so configuration can change it). */
    model(): string;
    /** Request fields that select `model`, for a provider that runs several. */
    request?(model: string): Partial<Pick<TranscribeRequest, "hfModel">>;
    /**
     * The longest recording, in seconds, the provider transcribes whole in `format`; undefined when it sets no limit
     * of its own. Longer recordings are not planned on it.
     */
    maxAudioSeconds?(format: AudioFormat): number | undefined;
    /** Whether its answer carries timing (the `segments` of the response). */
    timestamps?: boolean;
  };
  tts?: {
    /** In order: a language's first voice is its default. */
    voices(): readonly VoiceSpec[];
    /** Request fields that select the voice (default: `voice` = its id). */
    request?(voice: { id: string; model: string }): Partial<Pick<SynthesizeRequest, "voice" | "hfModel">>;
    /**
     * The longest text, in characters, one synthesis with `voice` is given: a longer one is split at sentence boundaries
     * into pieces of at most this many, each synthesised (in one batch request where the client has synthesizeBatch)
     * and the audio joined.
     */
    pieceChars(voice: { id: string; model: string }): number;
  };
}

/** An upstream's own audio formats plus those decoded in-process and sent to it as WAV (./decode.ts). */
export function withDecoded(native: readonly AudioFormat[]): AudioFormat[] {
  return [...new Set([...native, ...DECODED_FORMATS])];
}

/** Every ordered pair of two different languages of `languages`, served by one route. */
export function withinSet(languages: readonly string[], route: RouteSpec) {
  const set = new Set(languages);
  const routes = [route];
  return (source: string, target: string): readonly RouteSpec[] => (source !== target && set.has(source) && set.has(target) ? routes : NO_ROUTES);
}

/** English ↔ each of `languages`, served by one route. */
export function toAndFromEnglish(languages: readonly string[], route: RouteSpec) {
  const set = new Set(languages);
  const routes = [route];
  return (source: string, target: string): readonly RouteSpec[] =>
    (source === "en" && set.has(target)) || (target === "en" && set.has(source)) ? routes : NO_ROUTES;
}

/**
 * What `routes` answers for a pair the provider does not serve, shared: the pair tables ask thousands of pairs in a
 * cold process, and most have no route with most providers (routes are shared too: never modify them). Not frozen: a
 * frozen array is another kind of array to V8, and the pair tables' loops reading `length` ran ≈5 ms slower.
 */
export const NO_ROUTES: readonly RouteSpec[] = [];
