import type { AudioFormat } from "./descriptor";

export type ProviderId = "provider_a" | "provider_b" | "provider_c";
export const PROVIDER_IDS: readonly ProviderId[] = ["provider_a", "provider_b", "provider_c"];
export type ProviderMode = "live" | "sandbox";
export type CircuitState = "closed" | "open" | "half_open";

/** How provider_c (Hugging Face) should run one pair; chosen by the routing table in lib/languages (not here). */
export interface HfModelRoute {
  /** Hub model id, e.g. "Helsinki-NLP/opus-mt-en-sw". */
  model: string;
  tier: "dedicated" | "general" | "fallback";
  /** NLLB FLORES-200 code, e.g. "eng_Latn"; sent as parameters.src_lang only when set. */
  srcLang?: string;
  tgtLang?: string;
  /** Prepended to the input, e.g. ">>swh<< " for the multi-target Helsinki-NLP/opus-mt-en-mul. */
  inputPrefix?: string;
}

export interface TranslateRequest {
  text: string;
  /** Canonical short code: en, lug, ach, teo, nyn, lgg, tw, ee, gaa, fat, yo, dag, ki, gur, luo, mer, kus, sw, ... */
  source: string;
  target: string;
  /** Required for provider_c. */
  hf?: HfModelRoute;
  /**
   * The source was detected without certainty: a provider whose model infers the source itself (Sunflower) is not
   * told it, so a wrong guess cannot mislead it. The others are told `source` as usual.
   */
  inferSource?: boolean;
  /** Absolute epoch ms: the whole call, retries included, must end by then. */
  deadline: number;
  signal?: AbortSignal;
}

export interface TranslateResult {
  translatedText: string;
  /** The model part of model_used, e.g. "sunflower", "khaya-v1", "Helsinki-NLP/opus-mt-en-sw". */
  model: string;
}

export interface TranscribeRequest {
  audio: Uint8Array;
  /** Declared audio type, e.g. "audio/wav"; forwarded to the upstream. */
  contentType: string;
  /** The format lib/speech recognised by the bytes; clients that convert or window audio use it. */
  format?: AudioFormat;
  /** Canonical short code (en, lug, sw, tw, ...). */
  language: string;
  /** provider_c only: the ASR model to run, e.g. "openai/whisper-large-v3-turbo" (default when omitted). */
  hfModel?: string;
  /** Length of the recording, seconds, as measured by the caller (lib/speech); clients that window audio use it. */
  durationSeconds?: number;
  deadline: number;
  signal?: AbortSignal;
}

/** A stretch of the recording and what was said in it; seconds from the recording's start. */
export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

export interface TranscribeResult {
  transcript: string;
  model: string;
  /** Timed parts of the transcript, in order; null (or absent) when the upstream gives no timing. */
  segments?: TranscriptSegment[] | null;
}

export interface SynthesizeRequest {
  text: string;
  /** Canonical short code. */
  language: string;
  /** Provider voice: Sunbird spark-tts id "241".."248" or an Orpheus tag; Khaya speaker ("female", "male_low", ...). */
  voice?: string;
  /** provider_c only: the TTS model, default "facebook/mms-tts-<iso639-3>". */
  hfModel?: string;
  deadline: number;
  signal?: AbortSignal;
}

/** Several texts (the pieces of one long text) spoken by one voice. */
export interface SynthesizeBatchRequest extends Omit<SynthesizeRequest, "text"> {
  texts: readonly string[];
}

export interface SynthesizeResult {
  audio: Uint8Array;
  contentType: string;
  model: string;
  voice: string;
}

export type ProviderErrorKind = "timeout" | "network" | "unavailable" | "rate_limited" | "auth" | "rejected" | "malformed" | "circuit_open";

/**
 * A failed upstream call. `message` is short and safe to show an API caller: it is written by us, never copied from an
 * upstream body, and never contains credentials. `upstreamCode` is the provider's own machine code when it sent one
 * (e.g. "UNSUPPORTED_LANGUAGE_PAIR", "BAD_REQUEST"), for logs and finer error mapping.
 */
export class ProviderError extends Error {
  override readonly name = "ProviderError";
  constructor(
    readonly provider: ProviderId,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
    readonly upstreamCode?: string,
  ) {
    super(message);
  }
}

export interface ProviderClient {
  readonly id: ProviderId;
  readonly mode: ProviderMode;
  readonly baseUrl: string;
  translate(req: TranslateRequest): Promise<TranslateResult>;
  /** Speech-to-text; absent when the provider offers none. */
  transcribe?(req: TranscribeRequest): Promise<TranscribeResult>;
  /** Text-to-speech; always returns audio bytes, never a link. Absent when the provider offers none. */
  synthesize?(req: SynthesizeRequest): Promise<SynthesizeResult>;
  /**
   * Text-to-speech of several texts in as few upstream requests as the provider's batch endpoint allows: one result per
   * text, in order, or a failure — never some of them. Absent when the provider has no batch endpoint.
   */
  synthesizeBatch?(req: SynthesizeBatchRequest): Promise<SynthesizeResult[]>;
}
