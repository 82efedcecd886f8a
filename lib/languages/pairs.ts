import { KHAYA_TRANSLATE_MODEL } from "@/lib/providers/khaya";
import { SUNBIRD_TRANSLATE_MODEL } from "@/lib/providers/sunbird";
import type { HfModelRoute, ProviderId } from "@/lib/providers/types";
import { PROVIDER_IDS } from "@/lib/providers/types";
import { qualityFor } from "@/lib/translate/quality";
import { hfModels, hfRoutesFor, type ResolvedHfModels } from "./models";
import { LANGUAGES } from "./registry";

/**
 * Pair tables: which provider serves which ordered pair (canonical codes).
 *
 *  provider_a (Sunbird): every ordered pair within {en, lug, ach, teo, nyn, lgg} — exactly the set of the first
 *    routing rule (docs/guide.md#routing-and-fallback). (Sunbird's Sunflower model knows ~32 languages; we route only
 *    this set to it, so forcing provider_a for anything else is PROVIDER_UNSUPPORTED_PAIR.)
 *  provider_b (Khaya): en ↔ {tw, ee, gaa, fat, yo, dag, ki, gur, luo, mer, kus} (Khaya's official 22 pairs).
 *  provider_c (Hugging Face): whatever the model map (./models.ts) can produce.
 */
export const PROVIDER_A_LANGUAGES: readonly string[] = ["en", "lug", "ach", "teo", "nyn", "lgg"];
export const PROVIDER_B_LANGUAGES: readonly string[] = ["tw", "ee", "gaa", "fat", "yo", "dag", "ki", "gur", "luo", "mer", "kus"];

const A = new Set(PROVIDER_A_LANGUAGES);
const B = new Set(PROVIDER_B_LANGUAGES);

export function providerASupports(source: string, target: string): boolean {
  return source !== target && A.has(source) && A.has(target);
}

export function providerBSupports(source: string, target: string): boolean {
  return (source === "en" && B.has(target)) || (target === "en" && B.has(source));
}

/** One provider able to serve a pair; for provider_c, the models to try in order (best first). */
export interface PairOption {
  provider: ProviderId;
  /** Quality of the best engine this provider has for the pair. */
  quality: number;
  /** "<model>" of that best engine, as model_used would show it after the provider prefix. */
  model: string;
  hfRoutes?: HfModelRoute[];
}

/** Model names of the specialised providers, as their clients report them in TranslateResult.model. */
export const PROVIDER_MODEL_NAMES: Readonly<Record<"provider_a" | "provider_b", string>> = {
  provider_a: SUNBIRD_TRANSLATE_MODEL,
  provider_b: KHAYA_TRANSLATE_MODEL,
};

/**
 * The providers able to serve source → target, in the auto-routing order: provider_a, provider_b,
 * provider_c. Empty when nobody serves the pair.
 */
export function pairOptions(source: string, target: string, models: ResolvedHfModels = hfModels()): PairOption[] {
  if (source === target) return [];
  const options: PairOption[] = [];
  if (providerASupports(source, target))
    options.push({ provider: "provider_a", quality: qualityFor("provider_a"), model: PROVIDER_MODEL_NAMES.provider_a });
  if (providerBSupports(source, target))
    options.push({ provider: "provider_b", quality: qualityFor("provider_b"), model: PROVIDER_MODEL_NAMES.provider_b });
  const hfRoutes = hfRoutesFor(source, target, models);
  if (hfRoutes.length > 0)
    options.push({ provider: "provider_c", quality: qualityFor("provider_c", hfRoutes[0].tier), model: hfRoutes[0].model, hfRoutes });
  return options;
}

export interface PairEntry {
  source: string;
  target: string;
  options: PairOption[];
}

let pairCache: { models: ResolvedHfModels; pairs: PairEntry[] } | undefined;

/** Every ordered pair somebody serves, with its options (cached per resolved model map). */
export function allPairs(models: ResolvedHfModels = hfModels()): PairEntry[] {
  if (pairCache?.models === models) return pairCache.pairs;
  const pairs: PairEntry[] = [];
  for (const s of LANGUAGES) {
    for (const t of LANGUAGES) {
      const options = pairOptions(s.code, t.code, models);
      if (options.length > 0) pairs.push({ source: s.code, target: t.code, options });
    }
  }
  pairCache = { models, pairs };
  return pairs;
}

/** Whether `provider` can serve the pair. */
export function providerSupports(provider: ProviderId, source: string, target: string, models: ResolvedHfModels = hfModels()): boolean {
  return pairOptions(source, target, models).some((o) => o.provider === provider);
}

export { PROVIDER_IDS };
