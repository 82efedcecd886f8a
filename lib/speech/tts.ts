import { formatBytes } from "@/lib/kit/bytes";
import type { ApiError } from "@/lib/kit/errors";
import { countUpstreamCalls, totalUpstreamCalls } from "@/lib/kit/telemetry";
import { findVoice, resolveSpeechLanguage, speechLanguageCodes, ttsOptions, type Voice, voiceIdsFor } from "@/lib/languages/speech";
import { descriptorFor, PROVIDERS } from "@/lib/providers/descriptors";
import { type ProviderClient, ProviderError, type ProviderId, type SynthesizeRequest, type SynthesizeResult } from "@/lib/providers/types";
import { chainFailure, fieldError, routingFields, runChain } from "@/lib/routing";
import { mapWithConcurrency, splitForLimit } from "@/lib/translate/segment";
import { type AudioInfo, AudioRejected, analyzeAudio } from "./audio";
import { encodeSpeech } from "./encode";
import { TTS_MEDIA_TYPES, type TtsFormat } from "./formats";
import { joinClips } from "./join";
import { MAX_TTS_CHARS, ttsAnswerBytes, ttsMaxCharsFor } from "./limits";
import type { SpeechProviderChoice, TtsResponse } from "./schemas";
import { describe, noteSpeechFailure, round3, type SpeechDeps, speechView } from "./stt";

/**
 * Text-to-speech: text, language, voice and provider checks, then plan → run the chain (lib/routing) → respond with the audio —
 * always the bytes themselves (provider_a's signed URL is downloaded by its client), checked and measured here, then
 * encoded to MP3 or Ogg/Opus when that format was asked for (lib/speech/encode.ts; WAV passes through).
 *
 * A text longer than one synthesis of the voice takes (its descriptor's tts.pieceChars) is split at sentence boundaries
 * (lib/translate/segment.ts) into pieces, synthesised by one provider and voice (see synthesizePieces: Sunbird's batch
 * endpoint takes them all in one request), and the clips are joined into one WAV (./join.ts) before any encoding.
 *
 *   empty / whitespace-only text              → 422 VALIDATION_ERROR (body.text)
 *   text over 5,000 characters                → 422 TEXT_TOO_LONG (body.text)
 *   unknown language, or nobody speaks it     → 422 UNSUPPORTED_LANGUAGE (body.language)
 *   forced provider does not speak it         → 422 UNSUPPORTED_LANGUAGE (body.provider)
 *   unknown voice, a voice of another
 *   language, or of another provider than the
 *   forced one                                → 422 UNSUPPORTED_VOICE (body.voice), listing the valid voices
 *   every provider tried failed               → 503 PROVIDER_ERROR
 *
 * Voices whose model live availability (lib/availability) knows to be unavailable are left out of the plan, as in
 * translate and STT: auto routing speaks with the provider's next available voice or goes to the next provider, and a
 * forced provider or an explicit voice left out answers 422 as above (the voice error lists the voices available now).
 * A call answered "not supported"/"does not exist" marks the voice's model unavailable.
 *
 * An explicit voice belongs to exactly one provider, so it fixes the chain to that provider (no fallback: another
 * provider would mean another voice). Without a voice, each provider tried speaks with its default voice for the
 * language, and the response names the voice that spoke.
 */

export interface SynthesizeInput {
  text: string;
  language: string;
  voice?: string;
  provider?: SpeechProviderChoice;
  /** The answer will be the raw audio (Accept: audio/*) rather than JSON with base64: what the size check assumes. */
  raw?: boolean;
  /** The audio's format (default WAV, the provider's own): MP3 and Opus are encoded here after the synthesis. */
  format?: TtsFormat;
}

/** The JSON result plus the audio bytes, so a route can answer with either form. */
export interface SynthesisOutcome {
  response: Omit<TtsResponse, "audio_base64">;
  audio: Uint8Array;
}

interface Candidate {
  provider: ProviderId;
  voice: Voice;
}

export async function synthesizeSpeech(
  input: SynthesizeInput,
  deps: Pick<SpeechDeps, "providers" | "deadlineMs" | "catalogue" | "availability" | "maxResponseBytes">,
  options: { startedAt?: number } = {},
): Promise<SynthesisOutcome> {
  const startedAt = options.startedAt ?? performance.now();
  const deadline = Date.now() + deps.deadlineMs;
  const requested = input.provider ?? "auto";
  const catalogue = deps.catalogue ?? PROVIDERS;

  const text = input.text.trim();
  if (text.length === 0) throw fieldError("VALIDATION_ERROR", "text must not be empty or only whitespace.", ["body", "text"], "string_too_short");
  const characters = [...text].length;
  if (characters > MAX_TTS_CHARS) {
    throw fieldError(
      "TEXT_TOO_LONG",
      `text is ${characters.toLocaleString("en-US")} characters; the limit is ${MAX_TTS_CHARS.toLocaleString("en-US")} characters.`,
      ["body", "text"],
      "string_too_long",
    );
  }
  // Where the platform caps a response (Vercel: 4.5 MB), a text whose audio could pass the cap is refused before any
  // provider is called (and charged), rather than failing after the synthesis. Raw audio (no base64) fits more, and
  // MP3 and Opus far more than WAV.
  const format = input.format ?? "wav";
  if (deps.maxResponseBytes !== undefined && ttsAnswerBytes(characters, input.raw === true, format) > deps.maxResponseBytes) {
    const limit = ttsMaxCharsFor(deps.maxResponseBytes, input.raw === true, format);
    const opus = ttsMaxCharsFor(deps.maxResponseBytes, input.raw === true, "opus");
    throw fieldError(
      "TEXT_TOO_LONG",
      `text is ${characters.toLocaleString("en-US")} characters; the limit is ${limit.toLocaleString("en-US")} characters on this deployment in ${format}, whose answers may carry at most ${formatBytes(deps.maxResponseBytes)}${format === "opus" ? "" : ` (${opus.toLocaleString("en-US")} in opus)`}. Split the text${format === "opus" ? "" : " or ask for Opus"}.`,
      ["body", "text"],
      "string_too_long",
    );
  }

  const language = resolveSpeechLanguage(input.language);
  if (!language) {
    throw fieldError(
      "UNSUPPORTED_LANGUAGE",
      "language is not a supported language code. GET /api/v1/languages?capability=tts lists the supported codes (e.g. lug, sw, tw, en).",
      ["body", "language"],
      "unsupported_language",
    );
  }
  const view = await speechView(deps);
  const options_ = ttsOptions(language, catalogue, view);
  if (options_.length === 0) {
    throw fieldError(
      "UNSUPPORTED_LANGUAGE",
      `Text-to-speech is not available for ${describe(language)}. Languages with text-to-speech: ${speechLanguageCodes("tts", catalogue).join(", ")} (GET /api/v1/languages?capability=tts).`,
      ["body", "language"],
      "unsupported_language",
    );
  }

  let chain: Candidate[];
  let forcedBy = "requested explicitly";
  if (input.voice !== undefined) {
    const voice = findVoice(input.voice, catalogue);
    const valid = voiceIdsFor(language, catalogue, view);
    const list = () => `Voices for ${describe(language)}: ${valid.join(", ")}.`;
    if (!voice) throw unknownVoice(language, valid);
    if (!voice.languages.includes(language)) {
      throw voiceError(`Voice "${voice.id}" (${voice.provider}, ${voice.name}) does not speak ${describe(language)}. ${list()}`);
    }
    if (!valid.includes(voice.id)) {
      throw voiceError(`Voice "${voice.id}" (${voice.provider}, ${voice.name}) is not available now: its model is not served upstream. ${list()}`);
    }
    if (requested !== "auto" && voice.provider !== requested) {
      const own = valid.filter((id) => findVoice(id, catalogue)?.provider === requested);
      throw voiceError(
        `Voice "${voice.id}" belongs to ${voice.provider}, not ${requested}. ${own.length ? `${requested} voices for ${describe(language)}: ${own.join(", ")}.` : list()}`,
      );
    }
    chain = [{ provider: voice.provider, voice }];
    if (requested === "auto") forcedBy = `chosen by the voice "${voice.id}"`;
  } else if (requested === "auto") {
    chain = options_.map((o) => ({ provider: o.provider, voice: o.defaultVoice }));
  } else {
    const option = options_.find((o) => o.provider === requested);
    if (!option) {
      throw fieldError(
        "UNSUPPORTED_LANGUAGE",
        `${requested} does not speak ${describe(language)}. Providers that do: ${options_.map((o) => o.provider).join(", ")}; or use provider "auto".`,
        ["body", "provider"],
        "unsupported_language",
      );
    }
    chain = [{ provider: option.provider, voice: option.defaultVoice }];
  }

  const { value: outcome, calls } = await countUpstreamCalls(() =>
    runChain(
      chain.map(({ provider, voice }) => ({
        provider,
        attempt: async (callDeadline: number) => {
          const client = deps.providers[provider];
          const tts = descriptorFor(provider, catalogue).tts;
          const pieces = splitForLimit(text, tts?.pieceChars(voice) ?? MAX_TTS_CHARS, { locale: language }).chunks;
          const request = { language, ...(tts?.request?.(voice) ?? { voice: voice.id }), deadline: callDeadline };
          const results = await synthesizePieces(client, pieces, request).catch((err: unknown) =>
            noteSpeechFailure(err, deps, { provider, model: voice.model }),
          );
          const clips: AudioInfo[] = [];
          for (const result of results) {
            try {
              clips.push(await analyzeAudio(result.audio));
            } catch (err) {
              if (err instanceof AudioRejected) throw new ProviderError(provider, "malformed", "provider returned audio that could not be decoded");
              throw err;
            }
          }
          return { results, clips, voice, sandbox: client.mode === "sandbox" };
        },
      })),
      deadline,
    ),
  );
  if (!outcome.ok) {
    const forced = requested !== "auto" || input.voice !== undefined ? chain[0].provider : undefined;
    throw chainFailure(outcome, { what: `to synthesise speech in ${describe(language)}`, forced, forcedBy });
  }

  const { results, clips, voice, sandbox } = outcome.value;
  const { provider, requested_provider, fallback_used, providers_tried } = routingFields(requested, outcome);
  // One piece: the provider's own audio. Several: their clips joined into one WAV first.
  const whole =
    results.length === 1
      ? { audio: results[0].audio, format: clips[0].format, contentType: clips[0].contentType, durationSeconds: clips[0].durationSeconds }
      : {
          ...(await joinClips(results.map((r, i) => ({ audio: r.audio, format: clips[i].format })))),
          format: "wav" as const,
          contentType: TTS_MEDIA_TYPES.wav.contentType,
        };
  const answer = format === "wav" ? whole : await encodeSpeech(whole.audio, whole.format, format);
  return {
    audio: answer.audio,
    response: {
      content_type: format === "wav" ? whole.contentType : TTS_MEDIA_TYPES[format].contentType,
      language,
      voice: voice.id,
      model_used: `${provider}/${results[0].model}`,
      provider,
      latency_ms: Math.max(0, Math.round(performance.now() - startedAt)),
      audio_duration_seconds: round3(answer.durationSeconds),
      requested_provider,
      fallback_used,
      providers_tried,
      upstream_calls: totalUpstreamCalls(calls),
      sandbox,
    },
  };
}

/** Pieces of one text synthesised at once on a provider without a batch endpoint (each is a call of its own). */
export const TTS_PIECE_CONCURRENCY = 2;

/**
 * The audio of each piece, in order, from one provider and voice: a single piece in one call; several in the provider's
 * batch endpoint when it has one (Sunbird: one request, one quota unit), else one call each, TTS_PIECE_CONCURRENCY at
 * a time. Any piece failing fails the whole: a text is never answered with a part of its audio missing.
 */
async function synthesizePieces(
  client: ProviderClient,
  pieces: readonly string[],
  request: Omit<SynthesizeRequest, "text">,
): Promise<SynthesizeResult[]> {
  const synthesize = client.synthesize?.bind(client);
  if (!synthesize) throw new ProviderError(client.id, "rejected", "provider offers no text-to-speech");
  if (pieces.length === 1) return [await synthesize({ ...request, text: pieces[0] })];
  if (client.synthesizeBatch) return client.synthesizeBatch({ ...request, texts: pieces });
  try {
    return await mapWithConcurrency(pieces, TTS_PIECE_CONCURRENCY, (text, _, signal) => synthesize({ ...request, text, signal }), {
      deadline: request.deadline,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "TimeoutError")
      throw new ProviderError(client.id, "timeout", `deadline reached before the ${pieces.length} parts of the text were synthesised`);
    throw err;
  }
}

/** 422 UNSUPPORTED_VOICE for a voice id no provider has; `voices` are the ones `language` has now. */
export function unknownVoice(language: string, voices: readonly string[]): ApiError {
  return voiceError(`voice is not a known voice id. Voices for ${describe(language)}: ${voices.join(", ")}.`);
}

function voiceError(message: string) {
  return fieldError("UNSUPPORTED_VOICE", message, ["body", "voice"], "unsupported_voice");
}
