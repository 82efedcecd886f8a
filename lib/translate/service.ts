import type { Availability, AvailabilityView } from "@/lib/availability";
import { unavailableSubject } from "@/lib/availability/subjects";
import type { CatalogFiles } from "@/lib/catalog/files";
import { type GlossaryWithEntries, usableGlossary } from "@/lib/glossaries/store";
import { ApiError } from "@/lib/kit/errors";
import { countUpstreamCalls, totalUpstreamCalls } from "@/lib/kit/telemetry";
import { type Detection, detectLanguage } from "@/lib/languages/detect";
import { hfModels, type ResolvedHfModels } from "@/lib/languages/models";
import { type PairOption, pairOptions } from "@/lib/languages/pairs";
import { getLanguage } from "@/lib/languages/registry";
import { resolveLanguageCode } from "@/lib/languages/resolve";
import type { LocaliseFormat, Protected } from "@/lib/localise";
import { type ProviderDescriptor, QUALITY, type TranslationRoute } from "@/lib/providers/descriptor";
import type { ProviderClient, ProviderId } from "@/lib/providers/types";
import { chainFailure, fieldError, type Route, routingFields, runChain } from "@/lib/routing";
import type { BatchSettings } from "./batch";
import { type CacheCaller, type Fresh, type TranslationCaching, throughCache, translationCacheKey } from "./cache";
import { checkRouteLimit, codePointLength, MAX_TEXT_CHARS } from "./limits";
import { type Localisation, type LocalisedTranslation, localisationKey, maskRequest, translateMasked } from "./localised";
import type { TextRequest } from "./long-text";
import { MAX_BATCH_ITEMS, type ProviderChoice, type TranslateResponse } from "./schemas";

/**
 * Single translation: validation, source detection, routing, fallback, limits, and its result. It reads
 * plan (prepare) → run the chain (lib/routing) → respond.
 *
 * Routing. auto: the routes that serve the pair, provider by provider in routing order (lib/languages/pairs.ts), each
 * provider's models best first. A forced provider is the whole chain: if it does not serve the pair → 422
 * PROVIDER_UNSUPPORTED_PAIR; if it fails → 503 PROVIDER_ERROR. It never falls back.
 *
 * Fallback, the deadline share and the move from one model of a provider to its next: lib/routing/chain.ts. One
 * deadline for the whole request (TRANSLATE_DEADLINE_MS, default 20 s), shared by the chain.
 *
 * Limits. A route's limit bounds one upstream call. Auto: every route that serves the pair is a candidate whatever the
 * text's length (up to the API's 5,000 characters); a route the text is too long for splits it at sentence boundaries
 * and translates the chunks itself (./long-text.ts), so long texts stay on the specialist. Forced provider: the
 * contract's limit — a text over its input limit → 422 TEXT_TOO_LONG naming that limit; within it, the text is still
 * split when it is over the route's output-bound chunk size (maxChunkChars).
 *
 * Cache and coalescing (./cache.ts): after planning, an identical earlier answer is served from the cache, and
 * identical requests in flight share one chain run; only the chain's own answers reach the upstream.
 *
 * Localisation (./localised.ts): after planning, the glossary is resolved and the text masked once; each route's
 * attempt translates the masked segments, verifies and unmasks them, so a translation that damaged a placeholder is
 * that route's failure.
 */

export { FALLBACK_SHARE } from "@/lib/routing";

export interface TranslateInput {
  text: string;
  target_lang: string;
  source_lang?: string | null;
  provider?: ProviderChoice;
  /** Localisation (docs/decisions.md "Localising an app"): default text, no terms, no glossary. */
  format?: LocaliseFormat;
  do_not_translate?: readonly string[];
  glossary_id?: string;
}

/** Finds one of a key's glossaries (lib/glossaries/store.ts); the batch looks each id up once for all its items. */
export type GlossaryLookup = (keyId: string, glossaryId: string) => Promise<GlossaryWithEntries | undefined>;

/** Runs one provider call; the batch passes one that bounds concurrency per provider. */
export type ProviderGate = <T>(provider: ProviderId, deadline: number, call: () => Promise<T>) => Promise<T>;

export interface TranslateDeps {
  providers: Record<ProviderId, ProviderClient>;
  /** Whole-request deadline budget, ms. */
  deadlineMs: number;
  models?: ResolvedHfModels;
  /** The providers, in routing order (default: every descriptor in lib/providers). */
  catalogue?: readonly ProviderDescriptor[];
  detect?: (text: string) => Promise<Detection>;
  gate?: ProviderGate;
  /** The translation cache and the runs in flight; used for requests that name their caller. */
  caching?: TranslationCaching;
  /** Live availability (lib/availability): unavailable routes are not planned, and refusals that prove a route unavailable are recorded. */
  availability?: Availability;
  /** The availability view prepare() routes with (set by translateText from `availability`). */
  view?: AvailabilityView;
  /** The caller's glossaries (lib/server: the database); without it, every glossary_id is unknown. */
  glossaries?: GlossaryLookup;
  /** translateBatch's deadline and concurrency (lib/server: from the configuration). */
  batch?: BatchSettings;
  /** Where a catalog's files are read and written (lib/server: large ones on worker threads; default: in process). */
  catalogFiles?: CatalogFiles;
}

export interface TranslateOptions {
  /** performance.now() at request arrival (latency_ms covers the whole request). */
  startedAt?: number;
  /** Absolute deadline (epoch ms); default now + deps.deadlineMs. */
  deadline?: number;
  /** Location prefix for field errors: ["body"] for single translate, ["body","items",i] in a batch. */
  loc?: (string | number)[];
  /** The API key asking, and whether it bypasses the cache. Without it the request is neither cached nor coalesced. */
  caller?: CacheCaller;
  /** In a packed batch (./batch.ts): where the first route's attempt goes, and whom to tell that the item waits. */
  pack?: PackSlot;
}

/**
 * A batch item's place in its batch's packs: the item's first-choice route translates through `translate` (its text
 * packed with the batch's others); `waiting` says the item waits on something else (an identical request's answer)
 * or is done, so the packs need not wait for it.
 */
export interface PackSlot {
  translate(
    route: TranslationRoute,
    client: ProviderClient,
    masked: Protected,
    group: string,
    pair: TextPair,
    deadline: number,
  ): Promise<LocalisedTranslation>;
  waiting(): void;
}

export type TranslateOutcome = TranslateResponse;

type TextPair = Omit<TextRequest, "text">;

/** Fields that describe this request rather than the translation: never stored, recomputed for each answer. */
type PerRequestField =
  | "detected_source_lang"
  | "target_lang"
  | "latency_ms"
  | "characters_translated"
  | "detected_source_confidence"
  | "detection_method"
  | "requested_provider"
  | "fallback_used"
  | "providers_tried"
  | "cached"
  | "upstream_calls";

/** A translation without its per-request fields: what the cache stores and identical requests in flight share. */
export type StoredTranslation = Omit<TranslateResponse, PerRequestField>;

interface Answer extends Fresh<StoredTranslation> {
  routing: Pick<TranslateResponse, "fallback_used" | "providers_tried">;
}

interface Prepared {
  text: string;
  characters: number;
  source: string;
  target: string;
  detection?: Detection;
  /** Detected, but not reliably: a provider that infers the source itself is not told it (TranslateRequest.inferSource). */
  inferSource: boolean;
  /** What to try, in order (for a forced provider, only its routes whose input limit the text fits). */
  routes: TranslationRoute[];
  requested: ProviderChoice;
}

/** Validates and plans (detecting the source when it is not given); throws ApiError (422) for anything wrong with the request. */
async function prepare(
  input: TranslateInput,
  deps: Pick<TranslateDeps, "models" | "catalogue" | "detect" | "view">,
  loc: (string | number)[] = ["body"],
): Promise<Prepared> {
  const models = deps.models ?? hfModels();
  const text = input.text.trim();
  if (text.length === 0) {
    throw fieldError("VALIDATION_ERROR", "text must not be empty or only whitespace.", [...loc, "text"], "string_too_short");
  }
  const characters = codePointLength(text);
  if (characters > MAX_TEXT_CHARS) throw textTooLong(characters, [...loc, "text"]);

  const target = resolveLanguageCode(input.target_lang, "target_lang", loc);
  let source: string;
  let detection: Detection | undefined;
  const givenSource = input.source_lang ?? undefined;
  if (givenSource === undefined || givenSource.trim().toLowerCase() === "auto") {
    detection = await (deps.detect ?? detectLanguage)(text);
    source = detection.code;
  } else {
    source = resolveLanguageCode(givenSource, "source_lang", loc);
  }

  if (source === target) throw sameLanguage(source, loc, detection);

  const options = pairOptions(source, target, models, deps.catalogue, deps.view);
  if (options.length === 0) throw unsupportedPair(source, target, loc, detection);

  const requested: ProviderChoice = input.provider ?? "auto";
  let chosen: readonly PairOption[];
  if (requested === "auto") {
    chosen = options;
  } else {
    const option = options.find((o) => o.provider === requested);
    if (!option)
      throw providerUnsupportedPair(
        requested,
        source,
        target,
        options.map((o) => o.provider),
      );
    chosen = [option];
  }

  // Input limits. Auto: a route splits a text too long for one call itself. Forced: keep the routes the text fits.
  const routes = chosen.flatMap((option) => (requested === "auto" ? option.routes : option.routes.filter((r) => checkRouteLimit(r, text).ok)));
  if (routes.length === 0) {
    const check = checkRouteLimit(chosen[0].routes[0], text);
    throw fieldError(
      "TEXT_TOO_LONG",
      `The text is too long for ${requested}: it accepts at most ${check.limit} (the text is ${check.actual}). With provider "auto", a long text is split at sentence boundaries instead.`,
      [...loc, "text"],
      "text_too_long",
    );
  }

  return { text, characters, source, target, detection, inferSource: detection?.reliable === false, routes, requested };
}

interface Served extends LocalisedTranslation {
  client: ProviderClient;
}

/** Translates one text. Throws ApiError: 422 for request problems, 503 PROVIDER_ERROR when no provider served it. */
export async function translateText(input: TranslateInput, deps: TranslateDeps, options: TranslateOptions = {}): Promise<TranslateOutcome> {
  const startedAt = options.startedAt ?? performance.now();
  if (deps.availability && !deps.view) deps = { ...deps, view: await deps.availability.view() };
  const loc = options.loc ?? ["body"];
  const { caller } = options;
  // The fixed order: languages (detection included) → glossary → mask; then, per route, segment → translate → verify → unmask.
  const plan = await prepare(input, deps, loc);
  const localisation: Localisation = {
    format: input.format ?? "text",
    doNotTranslate: input.do_not_translate ?? [],
    glossary: input.glossary_id === undefined ? undefined : await glossaryFor(input.glossary_id, plan, caller, deps, loc),
  };
  const masked = await maskRequest(plan.text, localisation, loc);
  const deadline = options.deadline ?? Date.now() + deps.deadlineMs;
  const { caching } = deps;
  // The key comes from the request as sent (its text, not the masked one) and everything that changes what is sent.
  const key =
    caching?.cache.enabled && caller
      ? translationCacheKey(caching.cache, caller.apiKeyId, plan, deps.providers, localisationKey(localisation))
      : undefined;
  const { value: looked, calls } = await countUpstreamCalls(() =>
    throughCache<StoredTranslation, Answer>(
      caching,
      key,
      caller,
      deadline,
      () => serve(plan, masked, localisation, deps, deadline, options.pack),
      options.pack?.waiting,
    ),
  );

  // A hit names what served the original call, and this request tried no provider.
  const answer = looked.outcome === "hit" ? { value: looked.value, routing: { fallback_used: false, providers_tried: [] } } : looked.fresh;
  return {
    ...answer.value,
    detected_source_lang: plan.detection ? plan.source : (input.source_lang as string),
    target_lang: input.target_lang,
    latency_ms: Math.max(0, Math.round(performance.now() - startedAt)),
    characters_translated: plan.characters,
    detected_source_confidence: plan.detection ? round2(plan.detection.confidence) : null,
    detection_method: plan.detection?.method ?? null,
    requested_provider: plan.requested,
    ...answer.routing,
    cached: looked.outcome === "hit",
    upstream_calls: totalUpstreamCalls(calls),
  };
}

/** The request's glossary: the caller's own, for the planned (detected) pair; else 422 on glossary_id. */
async function glossaryFor(id: string, plan: Prepared, caller: CacheCaller | undefined, deps: TranslateDeps, loc: (string | number)[]) {
  const found = caller ? await deps.glossaries?.(caller.apiKeyId, id) : undefined;
  return usableGlossary(found, plan.source, plan.target, [...loc, "glossary_id"]);
}

/** Runs the planned routes: the only path that calls a provider. */
async function serve(
  plan: Prepared,
  masked: Protected,
  localisation: Localisation,
  deps: TranslateDeps,
  deadline: number,
  pack?: PackSlot,
): Promise<Answer> {
  const gate: ProviderGate = deps.gate ?? ((_p, _d, call) => call());
  // In a packed batch the first-choice route's call is shared with the batch's other texts of the same group: the same
  // pair, protection, and whether the provider is told the source or infers it (one request carries one choice).
  const group = pack && JSON.stringify([plan.source, plan.inferSource, plan.target, localisationKey(localisation)]);

  const chain = plan.routes.map((route, i): Route<Served> & { translation: TranslationRoute } => ({
    provider: route.provider,
    label: route.label,
    translation: route,
    attempt: async (callDeadline) => {
      const client = deps.providers[route.provider];
      try {
        const translated =
          pack && i === 0
            ? await pack.translate(route, client, masked, group!, plan, callDeadline)
            : await translateMasked(route, client, masked, plan, callDeadline, gate);
        return { ...translated, client };
      } catch (err) {
        const finding = deps.availability && unavailableSubject(err, { ...route, source: plan.source, target: plan.target });
        if (finding) await deps.availability!.markUnavailable(finding.subject, finding.reason);
        throw err;
      }
    },
  }));
  const outcome = await runChain(chain, deadline);
  if (!outcome.ok) {
    throw chainFailure(outcome, {
      what: `for ${describePair(plan.source, plan.target)}`,
      forced: plan.requested === "auto" ? undefined : plan.requested,
    });
  }

  const { result, client, segments, glossaryTermsApplied } = outcome.value;
  const { provider, fallback_used, providers_tried } = routingFields(plan.requested, outcome);
  return {
    value: {
      translated_text: result.translatedText,
      model_used: `${provider}/${result.model}`,
      provider,
      quality_score: QUALITY[outcome.route.translation.tier],
      segments,
      glossary_terms_applied: localisation.glossary ? glossaryTermsApplied : null,
      sandbox: client.mode === "sandbox",
    },
    routing: { fallback_used, providers_tried },
    // The first-choice route served: nothing failed before it, so the answer is what this request normally gets.
    storable: outcome.route === chain[0],
  };
}

/*
 * The refusals of a translate request, one builder each: the service answers with them and the OpenAPI examples quote
 * them (lib/api/openapi/errors.ts). They name fields, codes and limits, never the text or a value sent.
 */

/** 422 TEXT_TOO_LONG: a text of `characters` code points, over MAX_TEXT_CHARS. */
export function textTooLong(characters: number, loc: (string | number)[] = ["body", "text"]): ApiError {
  return fieldError(
    "TEXT_TOO_LONG",
    `text is ${fmt(characters)} characters; the limit is ${fmt(MAX_TEXT_CHARS)} characters.`,
    loc,
    "string_too_long",
  );
}

/** 422 SAME_LANGUAGE: the source (given, or detected as `detection` says) is the target language. */
export function sameLanguage(code: string, loc: (string | number)[] = ["body"], detection?: Detection): ApiError {
  const name = getLanguage(code)?.name ?? code;
  return new ApiError(
    "SAME_LANGUAGE",
    detection
      ? `The text was detected as ${name} (${code}), which is also the target language. If the detection is wrong, pass source_lang.`
      : `source_lang and target_lang are both ${name} (${code}); nothing to translate.`,
    {
      errors: [{ loc: [...loc, detection ? "target_lang" : "source_lang"], msg: "Source and target language are the same", type: "same_language" }],
    },
  );
}

/** 422 UNSUPPORTED_LANGUAGE_PAIR: both languages known, no provider translates between them. */
export function unsupportedPair(source: string, target: string, loc: (string | number)[] = ["body"], detection?: Detection): ApiError {
  return new ApiError(
    "UNSUPPORTED_LANGUAGE_PAIR",
    `No provider translates ${describePair(source, target)}.` +
      (detection
        ? ` The source language was detected as ${source} (confidence ${detection.confidence.toFixed(2)}); pass source_lang if that is wrong.`
        : "") +
      ` See GET /api/v1/languages?source=${source} for the targets available.`,
    { errors: [{ loc: [...loc, "target_lang"], msg: "Language pair not supported", type: "unsupported_language_pair" }] },
  );
}

/** 422 PROVIDER_UNSUPPORTED_PAIR: the forced provider does not serve the pair; `providers` do. */
export function providerUnsupportedPair(requested: string, source: string, target: string, providers: readonly string[]): ApiError {
  return new ApiError(
    "PROVIDER_UNSUPPORTED_PAIR",
    `${requested} does not translate ${describePair(source, target)}. Providers for this pair: ${providers.join(", ")}; or use provider "auto".`,
    { errors: [{ loc: ["body", "provider"], msg: "Provider does not support this language pair", type: "provider_unsupported_pair" }] },
  );
}

/** 422 BATCH_TOO_LARGE: a batch of `count` items, over MAX_BATCH_ITEMS. */
export function batchTooLarge(count: number): ApiError {
  return new ApiError("BATCH_TOO_LARGE", `A batch holds at most ${MAX_BATCH_ITEMS} items; this one has ${count}. Split it into several requests.`, {
    errors: [{ loc: ["body", "items"], msg: `List should have at most ${MAX_BATCH_ITEMS} items`, type: "too_long" }],
  });
}

function describePair(source: string, target: string): string {
  const s = getLanguage(source)?.name ?? source;
  const t = getLanguage(target)?.name ?? target;
  return `${s} (${source}) → ${t} (${target})`;
}

const fmt = (n: number) => n.toLocaleString("en-US");
const round2 = (n: number) => Math.round(n * 100) / 100;
