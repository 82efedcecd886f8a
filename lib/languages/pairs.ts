import { type ProviderDescriptor, QUALITY, type RouteContext, type TranslationRoute } from "@/lib/providers/descriptor";
import { PROVIDERS } from "@/lib/providers/descriptors";
import type { ProviderId } from "@/lib/providers/types";
import { hfModels, hfRoutesFor, type ResolvedHfModels } from "./models";
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

/** The providers able to serve source → target, in routing order. Empty when nobody serves the pair. */
export function pairOptions(
  source: string,
  target: string,
  models: ResolvedHfModels = hfModels(),
  providers: readonly ProviderDescriptor[] = PROVIDERS,
): PairOption[] {
  if (source === target) return [];
  const ctx: RouteContext = { modelMapRoutes: (s, t) => hfRoutesFor(s, t, models) };
  const options: PairOption[] = [];
  for (const { id, translation } of providers) {
    const routes = (translation?.routes(source, target, ctx) ?? []).map((route) => ({ provider: id, limit: translation!.limit, ...route }));
    if (routes.length > 0) options.push({ provider: id, quality: QUALITY[routes[0].tier], model: routes[0].model, routes });
  }
  return options;
}

export interface PairEntry {
  source: string;
  target: string;
  options: PairOption[];
}

let pairCache: { models: ResolvedHfModels; providers: readonly ProviderDescriptor[]; pairs: PairEntry[] } | undefined;

/** Every ordered pair somebody serves, with its options (cached per resolved model map and provider list). */
export function allPairs(models: ResolvedHfModels = hfModels(), providers: readonly ProviderDescriptor[] = PROVIDERS): PairEntry[] {
  if (pairCache?.models === models && pairCache.providers === providers) return pairCache.pairs;
  const pairs: PairEntry[] = [];
  for (const s of LANGUAGES) {
    for (const t of LANGUAGES) {
      const options = pairOptions(s.code, t.code, models, providers);
      if (options.length > 0) pairs.push({ source: s.code, target: t.code, options });
    }
  }
  pairCache = { models, providers, pairs };
  return pairs;
}

/** Whether `provider` can serve the pair. */
export function providerSupports(provider: ProviderId, source: string, target: string, models: ResolvedHfModels = hfModels()): boolean {
  return pairOptions(source, target, models).some((o) => o.provider === provider);
}
