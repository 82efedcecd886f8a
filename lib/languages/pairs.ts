import { ALL_AVAILABLE, type AvailabilityView, modelSubject, pairSubject } from "@/lib/availability";
import {
  type InputLimit,
  type ProviderDescriptor,
  QUALITY,
  type RouteContext,
  type RouteSpec,
  type TranslationRoute,
} from "@/lib/providers/descriptor";
import { PROVIDERS } from "@/lib/providers/descriptors";
import type { ProviderId } from "@/lib/providers/types";
import { hfModelCodes, hfModels, hfRoutesFor, type ResolvedHfModels } from "./models";
import { LANGUAGES } from "./registry";

/**
 * Pair tables: which provider serves which ordered pair (canonical codes), from the provider descriptors
 * (lib/providers/*.descriptor.ts), in their routing order. Today: provider_a (Sunbird) every ordered pair within its
 * Ugandan set; provider_b (Khaya) English ↔ each of its languages; provider_c (Hugging Face) whatever the model map
 * (./models.ts) can produce, one route per model, best first.
 */

/** One provider able to serve a pair, with its routes (models) to try in order, best first. */
export interface PairOption {
  provider: ProviderId;
  /** Quality of the provider's best route for the pair. */
  quality: number;
  /** "<model>" of that best route, as model_used would show it after the provider prefix. */
  model: string;
  routes: TranslationRoute[];
}

/** What every pair nobody serves shares: no array is made for each. */
const NO_OPTIONS: readonly PairOption[] = [];

/**
 * The pair tables for one basis — model map, provider list and availability version, the only things they depend on:
 * each pair's options as asked (every translation asks for its pair), and the full list once something lists it.
 */
let tables:
  | {
      models: ResolvedHfModels;
      providers: readonly ProviderDescriptor[];
      version: string;
      /** source → target → options (nested: the tables are asked for thousands of pairs, and no key is built). */
      byPair: Map<string, Map<string, readonly PairOption[]>>;
      all?: PairEntry[];
    }
  | undefined;

function tablesFor(models: ResolvedHfModels, providers: readonly ProviderDescriptor[], availability: AvailabilityView) {
  if (tables?.models !== models || tables.providers !== providers || tables.version !== availability.version)
    tables = { models, providers, version: availability.version, byPair: new Map() };
  return tables;
}

/**
 * The providers able to serve source → target, in routing order: each provider's routes in descriptor order, then the
 * last-resort routes (provider_a's Sunflower pairs beyond rule (a)) of providers that had none. Routes `availability`
 * knows to be unavailable (lib/availability) are left out. Empty when nobody serves the pair. Shared between callers:
 * never modify what it returns.
 */
export function pairOptions(
  source: string,
  target: string,
  models: ResolvedHfModels = hfModels(),
  providers: readonly ProviderDescriptor[] = PROVIDERS,
  availability: AvailabilityView = ALL_AVAILABLE,
): readonly PairOption[] {
  if (source === target) return NO_OPTIONS;
  const { byPair } = tablesFor(models, providers, availability);
  let targets = byPair.get(source);
  if (!targets) byPair.set(source, (targets = new Map()));
  let options = targets.get(target);
  if (!options) targets.set(target, (options = computePairOptions(source, target, models, providers, availability)));
  return options;
}

/** One route context per model map: the pair tables ask it for thousands of pairs. */
const contexts = new WeakMap<ResolvedHfModels, RouteContext>();

function contextFor(models: ResolvedHfModels): RouteContext {
  let ctx = contexts.get(models);
  if (!ctx) {
    const named = hfModelCodes(models);
    contexts.set(models, (ctx = { modelMapRoutes: (s, t) => hfRoutesFor(s, t, models), modelMapKnows: (code) => named.has(code) }));
  }
  return ctx;
}

/*
 * Built for thousands of pairs in a cold process (the listing and detection ask for every pair; most have no route):
 * a pair no provider routes costs each provider's `routes` call and nothing else, no closures, arrays or subject strings.
 */
function computePairOptions(
  source: string,
  target: string,
  models: ResolvedHfModels,
  providers: readonly ProviderDescriptor[],
  availability: AvailabilityView,
): readonly PairOption[] {
  const ctx = contextFor(models);
  let options: PairOption[] | undefined;
  let lastResorts: ProviderDescriptor[] | undefined;
  for (const provider of providers) {
    const translation = provider.translation;
    if (!translation) continue;
    const specs = translation.routes(source, target, ctx);
    if (specs.length > 0) options = addOption(options, provider.id, translation.limit, specs, source, target, availability);
    else if (translation.lastResort) (lastResorts ??= []).push(provider);
  }
  // A provider's last resort counts only for pairs its own routes do not serve at all (not for routes unavailable now).
  for (const { id, translation } of lastResorts ?? []) {
    const specs = translation!.lastResort!(source, target);
    if (specs.length > 0) options = addOption(options, id, translation!.limit, specs, source, target, availability);
  }
  return options ?? NO_OPTIONS;
}

/** The provider's routes for the pair that are available now, as one option added to `options` (made on the first). */
function addOption(
  options: PairOption[] | undefined,
  provider: ProviderId,
  limit: InputLimit,
  specs: readonly RouteSpec[],
  source: string,
  target: string,
  availability: AvailabilityView,
): PairOption[] | undefined {
  // Nothing unavailable (the usual case): no subject to build or look up.
  const everything = availability === ALL_AVAILABLE;
  if (!everything && !availability.isAvailable(pairSubject(provider, source, target))) return options;
  const routes: TranslationRoute[] = [];
  for (const spec of specs) if (everything || availability.isAvailable(modelSubject(provider, spec.model))) routes.push({ provider, limit, ...spec });
  if (routes.length === 0) return options;
  const option = { provider, quality: QUALITY[routes[0].tier], model: routes[0].model, routes };
  if (!options) return [option];
  options.push(option);
  return options;
}

export interface PairEntry {
  source: string;
  target: string;
  options: readonly PairOption[];
}

/** Every ordered pair somebody serves now, with its options (cached per model map, provider list and availability). */
export function allPairs(
  models: ResolvedHfModels = hfModels(),
  providers: readonly ProviderDescriptor[] = PROVIDERS,
  availability: AvailabilityView = ALL_AVAILABLE,
): PairEntry[] {
  const cached = tablesFor(models, providers, availability);
  if (cached.all) return cached.all;
  const pairs: PairEntry[] = [];
  for (const { code: source } of LANGUAGES) {
    for (const target of candidateTargets(source, models, providers)) {
      const options = pairOptions(source, target, models, providers, availability);
      if (options.length > 0) pairs.push({ source, target, options });
    }
  }
  cached.all = pairs;
  return pairs;
}

/**
 * Per model map and provider list: each translating provider's known registry codes (all of them when it declares
 * none), and each source's candidate targets (below).
 */
const candidates = new WeakMap<
  ResolvedHfModels,
  { providers: readonly ProviderDescriptor[]; known: ReadonlySet<string>[]; bySource: Map<string, readonly string[]> }
>();

/**
 * The registry codes, in registry order, that some provider knows together with `source` (ProviderDescriptor
 * translation.knows): the only targets `source` can have options for, so that whoever walks every pair asks
 * `pairOptions` for ≈2,000 of the ≈7,000 (empty for a language no provider translates from or into).
 */
export function candidateTargets(
  source: string,
  models: ResolvedHfModels = hfModels(),
  providers: readonly ProviderDescriptor[] = PROVIDERS,
): readonly string[] {
  let cached = candidates.get(models);
  if (cached?.providers !== providers) {
    const ctx = contextFor(models);
    const known = providers.flatMap(({ translation }) =>
      translation ? [new Set(LANGUAGES.filter((l) => translation.knows?.(l.code, ctx) ?? true).map((l) => l.code))] : [],
    );
    candidates.set(models, (cached = { providers, known, bySource: new Map() }));
  }
  let targets = cached.bySource.get(source);
  if (!targets) {
    const withSource = cached.known.filter((codes) => codes.has(source));
    targets = LANGUAGES.map((l) => l.code).filter((t) => t !== source && withSource.some((codes) => codes.has(t)));
    cached.bySource.set(source, targets);
  }
  return targets;
}

/**
 * Every availability subject the pair tables route to (each provider's models), for checking them ahead of routing.
 * ≈2,000 pairs share a few dozen models: each (provider, model) is found in a Set of the route's own strings, and only
 * the distinct ones are made into subjects.
 */
export function translationSubjects(models: ResolvedHfModels = hfModels(), providers: readonly ProviderDescriptor[] = PROVIDERS): string[] {
  const byProvider = new Map<ProviderId, Set<string>>();
  for (const pair of allPairs(models, providers))
    for (const o of pair.options) {
      let named = byProvider.get(o.provider);
      if (!named) byProvider.set(o.provider, (named = new Set()));
      for (const r of o.routes) named.add(r.model);
    }
  return [...byProvider].flatMap(([provider, named]) => [...named].map((model) => modelSubject(provider, model)));
}

/** Whether `provider` can serve the pair. */
export function providerSupports(provider: ProviderId, source: string, target: string, models: ResolvedHfModels = hfModels()): boolean {
  return pairOptions(source, target, models).some((o) => o.provider === provider);
}
