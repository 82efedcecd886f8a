import { ApiError, type FieldError } from "@/lib/http/errors";
import { type Detection, detectLanguage } from "@/lib/languages/detect";
import { hfModels, type ResolvedHfModels } from "@/lib/languages/models";
import { type PairOption, pairOptions } from "@/lib/languages/pairs";
import { getLanguage, normalizeLanguageCode } from "@/lib/languages/registry";
import { type HfModelRoute, type ProviderClient, ProviderError, type ProviderId, type TranslateResult } from "@/lib/providers/types";
import { checkProviderLimit, codePointLength, MAX_TEXT_CHARS } from "./limits";
import { qualityFor } from "./quality";
import type { ProviderChoice, TranslateResponse } from "./schemas";

/**
 * Single translation: validation, source detection, routing, fallback, limits, and its result.
 *
 * Routing. auto: the providers that serve the pair, in the order provider_a → provider_b → provider_c (./pairs.ts).
 * A forced provider is the whole chain: if it does not serve the pair → 422 PROVIDER_UNSUPPORTED_PAIR; if it fails →
 * 503 PROVIDER_ERROR. It never falls back.
 *
 * Fallback (auto). Any ProviderError moves on to the next provider in the chain — network errors, timeouts, 5xx,
 * outages, open circuits, rate limits, credential problems, unreadable answers, and also rejections: our own
 * validation has already passed, so a provider refusing the request means its table disagrees with ours (a model not
 * deployed, a language dropped), and the next provider may well serve the pair. Anything that is not a ProviderError
 * is a bug and surfaces as a 500.
 *
 * Inside provider_c the models for the pair are tried best first (dedicated → general → multilingual fallback), moving
 * to the next model only on a failure that concerns that model (not deployed / refused, an unreadable answer, an HTTP
 * 5xx or "loading" for that model). A failure of the provider itself (network, timeout, rate limit, credentials, open
 * circuit) ends provider_c's turn at once. The result names the model that actually served and its quality.
 *
 * Deadline. One deadline for the whole request (TRANSLATE_DEADLINE_MS, default 20 s), shared by the chain. A provider
 * that is not the last in the chain gets at most FALLBACK_SHARE (60%) of the time that remains when it starts, so a
 * hanging provider always leaves time for the next one.
 *
 * Limits. The text must fit the serving provider's limit. Forced provider: over its limit → 422
 * TEXT_TOO_LONG naming that limit. Auto: providers (and provider_c models) whose limit the text exceeds are skipped,
 * and the next one that can take the text serves it; only if none can → 422 TEXT_TOO_LONG naming each limit.
 */

export const DEFAULT_TRANSLATE_DEADLINE_MS = 20_000;
export const FALLBACK_SHARE = 0.6;
/** Below this much remaining time a provider is not called at all. */
const MIN_CALL_MS = 50;

export interface TranslateInput {
  text: string;
  target_lang: string;
  source_lang?: string | null;
  provider?: ProviderChoice;
}

/** Runs one provider call; the batch passes one that bounds concurrency per provider. */
export type ProviderGate = <T>(provider: ProviderId, deadline: number, call: () => Promise<T>) => Promise<T>;

export interface TranslateDeps {
  providers: Record<ProviderId, ProviderClient>;
  /** Whole-request deadline budget, ms. */
  deadlineMs: number;
  models?: ResolvedHfModels;
  detect?: (text: string) => Detection;
  gate?: ProviderGate;
}

export interface TranslateOptions {
  /** performance.now() at request arrival (latency_ms covers the whole request). */
  startedAt?: number;
  /** Absolute deadline (epoch ms); default now + deps.deadlineMs. */
  deadline?: number;
  /** Location prefix for field errors: ["body"] for single translate, ["body","items",i] in a batch. */
  loc?: (string | number)[];
}

export type TranslateOutcome = TranslateResponse;

export function deadlineFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.TRANSLATE_DEADLINE_MS);
  return Number.isFinite(n) && n >= 100 ? Math.floor(n) : DEFAULT_TRANSLATE_DEADLINE_MS;
}

interface Prepared {
  text: string;
  characters: number;
  source: string;
  target: string;
  detection?: Detection;
  chain: Candidate[];
  requested: ProviderChoice;
}

interface Candidate {
  provider: ProviderId;
  /** provider_c: the models that fit, best first. */
  hfRoutes?: HfModelRoute[];
}

/** Validates and plans; throws ApiError (422) for anything wrong with the request. Exported for tests and the batch. */
export function prepare(input: TranslateInput, deps: Pick<TranslateDeps, "models" | "detect">, loc: (string | number)[] = ["body"]): Prepared {
  const models = deps.models ?? hfModels();
  const text = input.text.trim();
  if (text.length === 0) {
    throw fieldError("VALIDATION_ERROR", "text must not be empty or only whitespace.", [...loc, "text"], "string_too_short");
  }
  const characters = codePointLength(text);
  if (characters > MAX_TEXT_CHARS) {
    throw fieldError(
      "TEXT_TOO_LONG",
      `text is ${fmt(characters)} characters; the limit is ${fmt(MAX_TEXT_CHARS)} characters.`,
      [...loc, "text"],
      "string_too_long",
    );
  }

  const target = resolveCode(input.target_lang, "target_lang", loc);
  let source: string;
  let detection: Detection | undefined;
  const givenSource = input.source_lang ?? undefined;
  if (givenSource === undefined || givenSource.trim().toLowerCase() === "auto") {
    detection = (deps.detect ?? detectLanguage)(text);
    source = detection.code;
  } else {
    source = resolveCode(givenSource, "source_lang", loc);
  }

  if (source === target) {
    const name = getLanguage(target)?.name ?? target;
    throw new ApiError(
      "SAME_LANGUAGE",
      detection
        ? `The text was detected as ${name} (${source}), which is also the target language. If the detection is wrong, pass source_lang.`
        : `source_lang and target_lang are both ${name} (${source}); nothing to translate.`,
      {
        errors: [{ loc: [...loc, detection ? "target_lang" : "source_lang"], msg: "Source and target language are the same", type: "same_language" }],
      },
    );
  }

  const options = pairOptions(source, target, models);
  if (options.length === 0) {
    throw new ApiError(
      "UNSUPPORTED_LANGUAGE_PAIR",
      `No provider translates ${describePair(source, target)}.` +
        (detection
          ? ` The source language was detected as ${source} (confidence ${detection.confidence.toFixed(2)}); pass source_lang if that is wrong.`
          : "") +
        " See GET /api/v1/languages?source=" +
        source +
        " for the targets available.",
      { errors: [{ loc: [...loc, "target_lang"], msg: "Language pair not supported", type: "unsupported_language_pair" }] },
    );
  }

  const requested: ProviderChoice = input.provider ?? "auto";
  let chosen: PairOption[];
  if (requested === "auto") {
    chosen = options;
  } else {
    const option = options.find((o) => o.provider === requested);
    if (!option) {
      throw new ApiError(
        "PROVIDER_UNSUPPORTED_PAIR",
        `${requested} does not translate ${describePair(source, target)}. Providers for this pair: ${options.map((o) => o.provider).join(", ")}; or use provider "auto".`,
        { errors: [{ loc: ["body", "provider"], msg: "Provider does not support this language pair", type: "provider_unsupported_pair" }] },
      );
    }
    chosen = [option];
  }

  // Provider input limits: keep what fits; say which limit applied when nothing does.
  const chain: Candidate[] = [];
  const tooLong: string[] = [];
  for (const option of chosen) {
    if (option.provider === "provider_c") {
      const fitting = (option.hfRoutes ?? []).filter((r) => checkProviderLimit("provider_c", text, r.inputPrefix).ok);
      if (fitting.length > 0) chain.push({ provider: "provider_c", hfRoutes: fitting });
      else {
        const check = checkProviderLimit("provider_c", text, option.hfRoutes?.[0]?.inputPrefix);
        tooLong.push(`provider_c accepts at most ${check.limit} (the text is ${check.actual})`);
      }
    } else {
      const check = checkProviderLimit(option.provider, text);
      if (check.ok) chain.push({ provider: option.provider });
      else tooLong.push(`${option.provider} accepts at most ${check.limit} (the text is ${check.actual})`);
    }
  }
  if (chain.length === 0) {
    const scope = requested === "auto" ? `every provider that translates ${describePair(source, target)}` : requested;
    throw fieldError("TEXT_TOO_LONG", `The text is too long for ${scope}: ${tooLong.join("; ")}.`, [...loc, "text"], "text_too_long");
  }

  return { text, characters, source, target, detection, chain, requested };
}

/** Translates one text. Throws ApiError: 422 for request problems, 503 PROVIDER_ERROR when no provider served it. */
export async function translateText(input: TranslateInput, deps: TranslateDeps, options: TranslateOptions = {}): Promise<TranslateOutcome> {
  const startedAt = options.startedAt ?? performance.now();
  const plan = prepare(input, deps, options.loc);
  const deadline = options.deadline ?? Date.now() + deps.deadlineMs;
  const gate: ProviderGate = deps.gate ?? ((_p, _d, call) => call());

  const failures: { provider: ProviderId; detail: string; retryAfterMs?: number }[] = [];
  const tried: ProviderId[] = [];

  for (let i = 0; i < plan.chain.length; i++) {
    const candidate = plan.chain[i];
    const isLast = i === plan.chain.length - 1;
    const remaining = deadline - Date.now();
    if (remaining < MIN_CALL_MS) {
      failures.push({ provider: candidate.provider, detail: "not tried: request deadline reached" });
      continue;
    }
    const callDeadline = isLast ? deadline : Date.now() + Math.floor(remaining * FALLBACK_SHARE);
    const client = deps.providers[candidate.provider];
    tried.push(candidate.provider);
    const attempt = await callProvider(client, candidate, plan, callDeadline, gate);
    if (attempt.ok) {
      const { result, route } = attempt;
      return {
        translated_text: result.translatedText,
        detected_source_lang: plan.detection ? plan.source : (input.source_lang as string),
        target_lang: input.target_lang,
        model_used: `${candidate.provider}/${result.model}`,
        provider: candidate.provider,
        quality_score: qualityFor(candidate.provider, route?.tier),
        latency_ms: Math.max(0, Math.round(performance.now() - startedAt)),
        characters_translated: plan.characters,
        detected_source_confidence: plan.detection ? round2(plan.detection.confidence) : null,
        requested_provider: plan.requested,
        fallback_used: failures.length > 0,
        providers_tried: tried,
        sandbox: client.mode === "sandbox",
      };
    }
    failures.push({ provider: candidate.provider, detail: attempt.detail, retryAfterMs: attempt.retryAfterMs });
  }

  const pair = describePair(plan.source, plan.target);
  const summary = failures.map((f) => `${f.provider} (${f.detail})`).join("; ");
  const message =
    plan.requested === "auto"
      ? `All providers failed for ${pair}: ${summary}. Retry shortly.`
      : `${plan.requested} failed for ${pair}: ${failures[0]?.detail ?? "no answer"}. It was requested explicitly, so no other provider was tried; retry, or use provider "auto".`;
  const hints = failures.map((f) => f.retryAfterMs).filter((ms): ms is number => ms !== undefined && ms > 0);
  const headers: Record<string, string> =
    hints.length === failures.length && hints.length > 0 ? { "Retry-After": String(Math.max(1, Math.ceil(Math.min(...hints) / 1000))) } : {};
  throw new ApiError("PROVIDER_ERROR", message, { headers });
}

type Attempt = { ok: true; result: TranslateResult; route?: HfModelRoute } | { ok: false; detail: string; retryAfterMs?: number };

async function callProvider(client: ProviderClient, candidate: Candidate, plan: Prepared, deadline: number, gate: ProviderGate): Promise<Attempt> {
  const base = { text: plan.text, source: plan.source, target: plan.target, deadline };
  if (candidate.provider !== "provider_c") {
    try {
      const result = await gate(candidate.provider, deadline, () => client.translate(base));
      return { ok: true, result };
    } catch (err) {
      const e = asProviderError(err);
      return { ok: false, detail: describeError(e), retryAfterMs: e.retryAfterMs };
    }
  }
  const details: string[] = [];
  let retryAfterMs: number | undefined;
  for (const route of candidate.hfRoutes ?? []) {
    if (deadline - Date.now() < MIN_CALL_MS) {
      details.push(`${route.model}: not tried, deadline reached`);
      break;
    }
    try {
      const result = await gate("provider_c", deadline, () => client.translate({ ...base, hf: route }));
      return { ok: true, result, route };
    } catch (err) {
      const e = asProviderError(err);
      retryAfterMs = e.retryAfterMs;
      if (!isModelSpecific(e)) {
        // The provider itself is failing: no point in trying its other models.
        return { ok: false, detail: details.length ? `${details.join("; ")}; ${describeError(e)}` : describeError(e), retryAfterMs };
      }
      details.push(`${route.model}: ${describeError(e)}`);
    }
  }
  return { ok: false, detail: details.join("; ") || "no model available", retryAfterMs };
}

/** A failure of one provider_c model (try the next model), as opposed to a failure of the provider. */
export function isModelSpecific(e: ProviderError): boolean {
  if (e.kind === "rejected" || e.kind === "malformed") return true;
  return e.kind === "unavailable" && e.status !== undefined && e.status >= 500;
}

/** Non-ProviderErrors are bugs: rethrown so they surface as a 500 with the cause logged, not hidden by a fallback. */
function asProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  throw err;
}

function describeError(e: ProviderError): string {
  return `${e.kind}: ${e.message}`;
}

function resolveCode(value: string, field: "target_lang" | "source_lang", loc: (string | number)[]): string {
  const code = normalizeLanguageCode(value);
  if (!code) {
    throw fieldError(
      "UNSUPPORTED_LANGUAGE",
      `${field} "${clip(value)}" is not a supported language. Use a code from GET /api/v1/languages (e.g. en, lug, sw, yo, tw).`,
      [...loc, field],
      "unsupported_language",
    );
  }
  return code;
}

function fieldError(code: "VALIDATION_ERROR" | "TEXT_TOO_LONG" | "UNSUPPORTED_LANGUAGE", message: string, loc: (string | number)[], type: string) {
  const errors: FieldError[] = [{ loc, msg: message, type }];
  return new ApiError(code, message, { errors });
}

function describePair(source: string, target: string): string {
  const s = getLanguage(source)?.name ?? source;
  const t = getLanguage(target)?.name ?? target;
  return `${s} (${source}) → ${t} (${target})`;
}

const fmt = (n: number) => n.toLocaleString("en-US");
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Caller input quoted in a message: short, one line, no control characters. */
function clip(value: string): string {
  const clean = value.replace(/[\p{Cc}\p{Cf}]/gu, "?");
  return clean.length > 32 ? `${clean.slice(0, 32)}…` : clean;
}
