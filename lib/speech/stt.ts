import { ALL_AVAILABLE, type Availability, type AvailabilityView } from "@/lib/availability";
import { unavailableSubject } from "@/lib/availability/subjects";
import { parseJsonBody } from "@/lib/kit/body";
import { ApiError } from "@/lib/kit/errors";
import { countUpstreamCalls, totalUpstreamCalls } from "@/lib/kit/telemetry";
import { resolveSpeechLanguage, type SttOption, speechLanguageCodes, speechLanguageName, sttOptions } from "@/lib/languages/speech";
import type { ProviderDescriptor } from "@/lib/providers/descriptor";
import { descriptorFor, PROVIDERS } from "@/lib/providers/descriptors";
import { type ProviderClient, ProviderError, type ProviderId } from "@/lib/providers/types";
import { chainFailure, fieldError, routingFields, runChain } from "@/lib/routing";
import { type AudioInfo, AudioRejected, analyzeAudio, asUnsupportedMedia, FORMAT_NAMES } from "./audio";
import { type AudioUrlPolicy, fetchAudioUrl } from "./audio-url";
import { type SpeechProviderChoice, type SttResponse, SttUrlRequest } from "./schemas";

/**
 * Speech-to-text: language and provider checks, audio checks, then plan → run the chain (lib/routing) → respond.
 *
 *   unknown language                         → 422 UNSUPPORTED_LANGUAGE (body.language)
 *   known, but nobody transcribes it         → 422 UNSUPPORTED_LANGUAGE (body.language)
 *   forced provider does not transcribe it   → 422 UNSUPPORTED_LANGUAGE (body.provider)
 *
 * Providers whose model live availability (lib/availability) knows to be unavailable are left out of the plan, as in
 * translate: auto routing goes to the next provider, and a forced provider left out answers 422 as above. A call
 * answered "not supported"/"does not exist" marks its model unavailable.
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
  /** The providers, in routing order (default: every descriptor in lib/providers). */
  catalogue?: readonly ProviderDescriptor[];
  /** Live availability: models known to be unavailable are not planned; refusals proving a model unavailable are recorded. */
  availability?: Availability;
  /** How a recording sent by URL is fetched (AUDIO_URL_*); without it, audio_url is refused. */
  audioUrl?: AudioUrlPolicy;
  /** The largest response the platform lets through (Vercel: 4.5 MB); TTS refuses texts whose audio could pass it. */
  maxResponseBytes?: number;
}

/** The availability view a speech request plans with (everything available without `availability`). */
export async function speechView(deps: Pick<SpeechDeps, "availability">): Promise<AvailabilityView> {
  return deps.availability ? deps.availability.view() : ALL_AVAILABLE;
}

/** Rethrows `err` after recording the model it proves unavailable, if it does (the same detection as translate). */
export async function noteSpeechFailure(
  err: unknown,
  deps: Pick<SpeechDeps, "availability">,
  route: { provider: ProviderId; model: string; sttLanguage?: string },
): Promise<never> {
  const finding = deps.availability && unavailableSubject(err, route);
  if (finding) await deps.availability!.markUnavailable(finding.subject, finding.reason);
  throw err;
}

export interface TranscribeInput {
  audio: Uint8Array;
  language: string;
  provider?: SpeechProviderChoice;
  /** The request field the audio came in (its errors name it): the upload `audio` (default) or the fetched `audio_url`. */
  field?: "audio" | "audio_url";
}

export async function transcribeAudio(
  input: TranscribeInput,
  deps: SpeechDeps,
  options: { startedAt?: number; deadline?: number } = {},
): Promise<SttResponse> {
  const startedAt = options.startedAt ?? performance.now();
  const deadline = options.deadline ?? Date.now() + deps.deadlineMs;
  const requested = input.provider ?? "auto";
  const field = input.field ?? "audio";
  const catalogue = deps.catalogue ?? PROVIDERS;
  const language = resolveLanguage(input.language);
  const candidates = chooseProviders(language, requested, catalogue, await speechView(deps));

  let info: AudioInfo;
  try {
    info = await analyzeAudio(input.audio);
  } catch (err) {
    if (err instanceof AudioRejected) throw asUnsupportedMedia(err, ["body", field]);
    throw err;
  }
  if (info.durationSeconds > deps.maxAudioSeconds) {
    const msg = `The recording is ${formatSeconds(info.durationSeconds)} long; the limit is ${formatSeconds(deps.maxAudioSeconds)}. Split it into shorter parts.`;
    throw new ApiError("VALIDATION_ERROR", msg, { errors: [{ loc: ["body", field], msg, type: "audio_too_long" }] });
  }

  const inFormat = candidates.filter((o) => o.formats.includes(info.format));
  if (inFormat.length === 0) {
    const accepted = candidates.map((o) => `${o.provider} accepts ${o.formats.map((f) => FORMAT_NAMES[f]).join(", ")}`).join("; ");
    const msg = `${FORMAT_NAMES[info.format]} audio cannot be transcribed in ${describe(language)} by ${requested === "auto" ? "any provider that serves it" : requested}: ${accepted}. Convert the recording to one of those formats.`;
    throw new ApiError("UNSUPPORTED_MEDIA_TYPE", msg, { errors: [{ loc: ["body", field], msg, type: "audio_format_not_served" }] });
  }
  // A provider that takes only so much audio in a format that cannot be cut here (M4A) is not planned for more.
  const longest = (o: SttOption) => o.maxAudioSeconds?.(info.format) ?? Number.POSITIVE_INFINITY;
  const served = inFormat.filter((o) => info.durationSeconds <= longest(o));
  if (served.length === 0) {
    const limits = inFormat.map((o) => `${o.provider} takes at most ${formatSeconds(longest(o))} of ${FORMAT_NAMES[info.format]}`).join("; ");
    const msg = `The recording is ${formatSeconds(info.durationSeconds)} long: ${limits}. Send it as WAV, MP3, OGG/Opus, WebM/Opus or FLAC (any length up to the limit), or split it.`;
    throw new ApiError("VALIDATION_ERROR", msg, { errors: [{ loc: ["body", field], msg, type: "audio_too_long" }] });
  }

  const chain = served.map((option) => ({
    provider: option.provider,
    attempt: async (callDeadline: number) => {
      const client: ProviderClient = deps.providers[option.provider];
      if (!client.transcribe) throw new ProviderError(option.provider, "rejected", "provider offers no speech-to-text");
      const result = await client
        .transcribe({
          audio: input.audio,
          contentType: info.contentType,
          format: info.format,
          language,
          durationSeconds: info.durationSeconds,
          ...descriptorFor(option.provider, catalogue).stt?.request?.(option.model),
          deadline: callDeadline,
        })
        .catch((err: unknown) => noteSpeechFailure(err, deps, { ...option, sttLanguage: language }));
      return { result, sandbox: client.mode === "sandbox" };
    },
  }));
  const { value: outcome, calls } = await countUpstreamCalls(() => runChain(chain, deadline));
  if (!outcome.ok) {
    throw chainFailure(outcome, { what: `to transcribe ${describe(language)}`, forced: requested === "auto" ? undefined : requested });
  }

  const { result, sandbox } = outcome.value;
  const { provider, requested_provider, fallback_used, providers_tried } = routingFields(requested, outcome);
  return {
    transcript: result.transcript,
    segments: result.segments ?? null,
    language,
    model_used: `${provider}/${result.model}`,
    provider,
    latency_ms: Math.max(0, Math.round(performance.now() - startedAt)),
    audio_duration_seconds: round3(info.durationSeconds),
    audio_content_type: info.contentType,
    requested_provider,
    fallback_used,
    providers_tried,
    upstream_calls: totalUpstreamCalls(calls),
    sandbox,
  };
}

/**
 * The JSON form: `{audio_url, language, provider?}`. The recording is fetched under the URL rules (./audio-url.ts)
 * within the request's deadline, then transcribed exactly like an upload; its errors name audio_url.
 */
export async function transcribeUrl(
  req: Request,
  deps: SpeechDeps,
  options: { startedAt?: number /** The API key's id: its share of the audio_url budget. */; caller?: string } = {},
): Promise<SttResponse> {
  return transcribeAudioUrl(await parseJsonBody(req, SttUrlRequest, STT_JSON_BODY_BYTES), deps, options);
}

/** The recording at `body.audio_url` (already validated), fetched under the URL rules and budgets, transcribed. */
export async function transcribeAudioUrl(
  body: SttUrlRequest,
  deps: SpeechDeps,
  options: { startedAt?: number; caller?: string } = {},
): Promise<SttResponse> {
  const deadline = Date.now() + deps.deadlineMs;
  resolveLanguage(body.language); // a bad language is refused before anything is fetched
  if (!deps.audioUrl)
    throw fieldError("VALIDATION_ERROR", "audio_url is not accepted by this deployment.", ["body", "audio_url"], "audio_url_refused");
  const audio = await fetchAudioUrl(body.audio_url, deps.audioUrl, deadline, options.caller);
  return transcribeAudio({ audio, language: body.language, provider: body.provider, field: "audio_url" }, deps, {
    startedAt: options.startedAt,
    deadline,
  });
}

/** Largest JSON body of the audio_url form. */
export const STT_JSON_BODY_BYTES = 64 * 1024;

function resolveLanguage(value: string): string {
  const code = resolveSpeechLanguage(value);
  if (!code) {
    throw languageError(
      "language is not a supported language code. GET /api/v1/languages?capability=stt lists the supported codes (e.g. en, lug, sw, tw).",
    );
  }
  return code;
}

function chooseProviders(
  language: string,
  requested: SpeechProviderChoice,
  catalogue: readonly ProviderDescriptor[],
  view: AvailabilityView,
): SttOption[] {
  const options = sttOptions(language, catalogue, view);
  if (options.length === 0) {
    throw languageError(
      `Speech-to-text is not available for ${describe(language)}. Languages with speech-to-text: ${speechLanguageCodes("stt", catalogue).join(", ")} (GET /api/v1/languages?capability=stt).`,
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
  return fieldError("UNSUPPORTED_LANGUAGE", message, ["body", field], "unsupported_language");
}

export function describe(code: string): string {
  return `${speechLanguageName(code)} (${code})`;
}

export const round3 = (n: number) => Math.round(n * 1000) / 1000;

function formatSeconds(s: number): string {
  if (s < 120) return `${+s.toFixed(1)} s`;
  return `${+(s / 60).toFixed(1)} min`;
}
