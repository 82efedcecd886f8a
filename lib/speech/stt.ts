import { ApiError } from "@/lib/http/errors";
import { type ProviderClient, ProviderError, type ProviderId } from "@/lib/providers/types";
import { type AudioInfo, AudioRejected, analyzeAudio, asUnsupportedMedia, FORMAT_NAMES } from "./audio";
import { resolveSpeechLanguage, type SttOption, speechLanguageCodes, speechLanguageName, sttOptions } from "./catalog";
import { clip, providerFailure, round3, runChain } from "./routing";
import type { SpeechProviderChoice, SttResponse } from "./schemas";

/**
 * Speech-to-text: language and provider checks, audio checks, routing with fallback (./routing.ts), the result.
 *
 *   unknown language                         → 422 UNSUPPORTED_LANGUAGE (body.language)
 *   known, but nobody transcribes it         → 422 UNSUPPORTED_LANGUAGE (body.language)
 *   forced provider does not transcribe it   → 422 UNSUPPORTED_LANGUAGE (body.provider)
 *   empty / not audio / truncated / video    → 415 UNSUPPORTED_MEDIA_TYPE (body.audio)
 *   longer than SPEECH_MAX_AUDIO_SECONDS     → 422 VALIDATION_ERROR (body.audio, type audio_too_long)
 *   no provider for the language takes the
 *   format (e.g. FLAC in Luganda)            → 415 UNSUPPORTED_MEDIA_TYPE, naming the formats that would work
 *   every provider tried failed              → 503 PROVIDER_ERROR
 */

export interface SpeechDeps {
  providers: Record<ProviderId, ProviderClient>;
  /** Whole-request budget, ms. */
  deadlineMs: number;
  /** Longest recording accepted, seconds. */
  maxAudioSeconds: number;
}

export interface TranscribeInput {
  audio: Uint8Array;
  language: string;
  provider?: SpeechProviderChoice;
}

export async function transcribeAudio(input: TranscribeInput, deps: SpeechDeps, options: { startedAt?: number } = {}): Promise<SttResponse> {
  const startedAt = options.startedAt ?? performance.now();
  const deadline = Date.now() + deps.deadlineMs;
  const requested = input.provider ?? "auto";
  const language = resolveLanguage(input.language);
  const candidates = chooseProviders(language, requested);

  let info: AudioInfo;
  try {
    info = await analyzeAudio(input.audio);
  } catch (err) {
    if (err instanceof AudioRejected) throw asUnsupportedMedia(err);
    throw err;
  }
  if (info.durationSeconds > deps.maxAudioSeconds) {
    const msg = `The recording is ${formatSeconds(info.durationSeconds)} long; the limit is ${formatSeconds(deps.maxAudioSeconds)}. Split it into shorter parts.`;
    throw new ApiError("VALIDATION_ERROR", msg, { errors: [{ loc: ["body", "audio"], msg, type: "audio_too_long" }] });
  }

  const chain = candidates.filter((o) => o.formats.includes(info.format));
  if (chain.length === 0) {
    const accepted = candidates.map((o) => `${o.provider} accepts ${o.formats.map((f) => FORMAT_NAMES[f]).join(", ")}`).join("; ");
    const msg = `${FORMAT_NAMES[info.format]} audio cannot be transcribed in ${describe(language)} by ${requested === "auto" ? "any provider that serves it" : requested}: ${accepted}. Convert the recording to one of those formats.`;
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", msg, { errors: [{ loc: ["body", "audio"], msg, type: "audio_format_not_served" }] });
  }

  const outcome = await runChain(chain, deadline, async (option, callDeadline) => {
    const client = deps.providers[option.provider];
    if (!client.transcribe) throw new ProviderError(option.provider, "rejected", "provider offers no speech-to-text");
    const result = await client.transcribe({
      audio: input.audio,
      contentType: info.contentType,
      language,
      ...(option.provider === "provider_c" && { hfModel: option.model }),
      deadline: callDeadline,
    });
    return { result, sandbox: client.mode === "sandbox" };
  });
  if (!("value" in outcome)) throw providerFailure(requested, `transcribe ${describe(language)}`, outcome.failures);

  const { result, sandbox } = outcome.value;
  return {
    transcript: result.transcript,
    language,
    model_used: `${outcome.provider}/${result.model}`,
    provider: outcome.provider,
    latency_ms: Math.max(0, Math.round(performance.now() - startedAt)),
    audio_duration_seconds: round3(info.durationSeconds),
    audio_content_type: info.contentType,
    requested_provider: requested,
    fallback_used: outcome.failures.length > 0,
    providers_tried: outcome.tried,
    sandbox,
  };
}

function resolveLanguage(value: string): string {
  const code = resolveSpeechLanguage(value);
  if (!code) {
    throw languageError(
      `language "${clip(value)}" is not a supported language. Use a code from GET /api/v1/languages?capability=stt (e.g. en, lug, sw, tw).`,
    );
  }
  return code;
}

function chooseProviders(language: string, requested: SpeechProviderChoice): SttOption[] {
  const options = sttOptions(language);
  if (options.length === 0) {
    throw languageError(
      `Speech-to-text is not available for ${describe(language)}. Languages with speech-to-text: ${speechLanguageCodes("stt").join(", ")} (GET /api/v1/languages?capability=stt).`,
    );
  }
  if (requested === "auto") return options;
  const option = options.find((o) => o.provider === requested);
  if (!option) {
    throw languageError(
      `${requested} does not transcribe ${describe(language)}. Providers that do: ${options.map((o) => o.provider).join(", ")}; or use provider "auto".`,
      "provider",
    );
  }
  return [option];
}

function languageError(message: string, field: "language" | "provider" = "language") {
  return new ApiError("UNSUPPORTED_LANGUAGE", message, { errors: [{ loc: ["body", field], msg: message, type: "unsupported_language" }] });
}

export function describe(code: string): string {
  return `${speechLanguageName(code)} (${code})`;
}

function formatSeconds(s: number): string {
  if (s < 120) return `${+s.toFixed(1)} s`;
  return `${+(s / 60).toFixed(1)} min`;
}
