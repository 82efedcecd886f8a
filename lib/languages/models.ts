import { readFileSync } from "node:fs";
import { z } from "zod";
import { DEFAULT_HF_ASR_MODEL } from "@/lib/providers/codes";
import { catalogueSettings } from "@/lib/providers/deployment";
import type { HfModelRoute } from "@/lib/providers/types";
import defaultMap from "./hf-models.json";
import { normalizeLanguageCode } from "./registry";

/**
 * The Hugging Face (provider_c) model map: which model translates which pair. Configuration, not code.
 *
 * Default: ./hf-models.json. Override: HF_MODEL_MAP = a path to a JSON file, or the JSON itself (starts with "{").
 * Each top-level key present in the override (dedicated, general, fallback) replaces that section of the default;
 * a key set to null disables the section; absent keys keep the default. Codes are our canonical codes (aliases are
 * accepted); a code the registry does not know is a configuration error, reported at first use (fail loudly, never
 * route to a model for a language we cannot name).
 *
 *   dedicated              {"en-sw": "Helsinki-NLP/opus-mt-en-sw", ...}  one opus-mt pair model per ordered pair
 *   general                {"model": "...nllb...", "codes": {"en": "eng_Latn", ...}}  many-to-many, FLORES-200 codes:
 *                          serves every ordered pair of two listed languages (src_lang/tgt_lang parameters)
 *   fallback.from_english  {"model": "...opus-mt-en-mul", "target_tokens": {"sw": "swh", ...}}  en → each listed
 *                          language, with ">>token<< " prefixed to the input (the model has no tgt_lang parameter)
 *   fallback.to_english    {"model": "...opus-mt-mul-en", "sources": ["sw", ...]}  each listed language → en
 *
 * Only pairs a model can actually produce are claimed: no model serves a language it does not list.
 */

const ModelId = z.string().regex(/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/, "model id must look like org/name");

const HfModelMapSchema = z.object({
  dedicated: z
    .record(z.string().regex(/^[a-z]{2,3}-[a-z]{2,3}$/i, 'pair key must look like "en-sw"'), ModelId)
    .nullable()
    .optional(),
  general: z
    .object({ model: ModelId, codes: z.record(z.string(), z.string().regex(/^[a-z]{3}_[A-Z][a-z]{3}$/, "FLORES-200 code like eng_Latn")) })
    .nullable()
    .optional(),
  fallback: z
    .object({
      from_english: z
        .object({ model: ModelId, target_tokens: z.record(z.string(), z.string().regex(/^[a-z]{2,3}(_[A-Z][a-z]{3})?$/)) })
        .nullable()
        .optional(),
      to_english: z
        .object({ model: ModelId, sources: z.array(z.string()) })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
});

export type HfModelMap = z.infer<typeof HfModelMapSchema>;

/** The resolved map: canonical codes only, ready for lookups. */
export interface ResolvedHfModels {
  dedicated: Map<string, string>; // "src>tgt" → model
  general?: { model: string; codes: Map<string, string> };
  fromEnglish?: { model: string; tokens: Map<string, string> };
  toEnglish?: { model: string; sources: Set<string> };
}

/** The resolved map and the HF_MODEL_MAP value it was resolved from. */
let cached: { from: string | undefined; models: ResolvedHfModels } | undefined;

export class ModelMapError extends Error {
  override readonly name = "ModelMapError";
}

function loadOverride(value: string): unknown {
  const text = value.trim().startsWith("{") ? value : readFileSync(value, "utf8");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ModelMapError(`HF_MODEL_MAP is not valid JSON: ${(err as Error).message}`);
  }
}

function canonical(code: string, where: string): string {
  const c = normalizeLanguageCode(code);
  if (!c) throw new ModelMapError(`HF model map: unknown language code "${code}" in ${where} (add it to lib/languages/registry.ts first)`);
  return c;
}

/** Builds the resolved map from the default and an optional override (exported for tests). */
export function resolveModelMap(override?: unknown): ResolvedHfModels {
  // The default map is this repository's own file, held to the schema by a test (languages.test.ts): validating it
  // again on every start cost ≈10 ms of a cold function's first request. Overrides are configuration: always checked.
  const base = defaultMap as HfModelMap;
  let merged: HfModelMap = base;
  if (override !== undefined) {
    const parsed = HfModelMapSchema.safeParse(override);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new ModelMapError(`HF model map override is invalid at ${first.path.join(".") || "(root)"}: ${first.message}`);
    }
    merged = { ...base };
    for (const key of ["dedicated", "general", "fallback"] as const) {
      if (key in (override as object)) (merged as Record<string, unknown>)[key] = parsed.data[key];
    }
  }

  const dedicated = new Map<string, string>();
  for (const [pair, model] of Object.entries(merged.dedicated ?? {})) {
    const [s, t] = pair.split("-");
    const src = canonical(s, `dedicated["${pair}"]`);
    const tgt = canonical(t, `dedicated["${pair}"]`);
    if (src === tgt) throw new ModelMapError(`HF model map: dedicated["${pair}"] has the same source and target`);
    dedicated.set(`${src}>${tgt}`, model);
  }
  const out: ResolvedHfModels = { dedicated };
  if (merged.general) {
    const codes = new Map<string, string>();
    for (const [code, flores] of Object.entries(merged.general.codes)) codes.set(canonical(code, "general.codes"), flores);
    out.general = { model: merged.general.model, codes };
  }
  const fe = merged.fallback?.from_english;
  if (fe) {
    const tokens = new Map<string, string>();
    for (const [code, token] of Object.entries(fe.target_tokens)) tokens.set(canonical(code, "fallback.from_english.target_tokens"), token);
    tokens.delete("en");
    out.fromEnglish = { model: fe.model, tokens };
  }
  const te = merged.fallback?.to_english;
  if (te) {
    const sources = new Set(te.sources.map((c) => canonical(c, "fallback.to_english.sources")));
    sources.delete("en");
    out.toEnglish = { model: te.model, sources };
  }
  return out;
}

/** The active model map (default + HF_MODEL_MAP, lib/providers/deployment.ts), resolved once per value. */
export function hfModels(): ResolvedHfModels {
  const from = catalogueSettings().hfModelMap;
  if (!cached || cached.from !== from) cached = { from, models: resolveModelMap(from?.trim() ? loadOverride(from) : undefined) };
  return cached.models;
}

/**
 * Whether `models` is the default map as resolved with no HF_MODEL_MAP: what facts derived from the default map ahead
 * of time (the detector's candidates, ./detection-candidates.json) hold for.
 */
export function isDefaultModelMap(models: ResolvedHfModels): boolean {
  return cached?.models === models && !cached.from?.trim();
}

/**
 * Whether the catalogue is the built-in one: `models` the default map (above) and HF_ASR_MODEL its default — what the
 * listing and the availability subjects shipped ahead of time (./default-listing.json, ./catalogue-subjects.json) hold
 * for. (SUNBIRD_STT_WINDOW_SECONDS, the catalogue's third setting, appears in neither.)
 */
export function isDefaultCatalogue(models: ResolvedHfModels): boolean {
  return isDefaultModelMap(models) && catalogueSettings().hfAsrModel === DEFAULT_HF_ASR_MODEL;
}

/** Forget the resolved map (tests that change HF_MODEL_MAP). */
export function resetHfModels(): void {
  cached = undefined;
}

/**
 * The provider_c models that can produce source → target, best first: dedicated pair model, then the general model,
 * then the multilingual fallback. Empty when provider_c cannot serve the pair.
 */
export function hfRoutesFor(source: string, target: string, models: ResolvedHfModels = hfModels()): HfModelRoute[] {
  const routes: HfModelRoute[] = [];
  const dedicated = models.dedicated.get(`${source}>${target}`);
  if (dedicated) routes.push({ model: dedicated, tier: "dedicated" });
  const g = models.general;
  const srcLang = g?.codes.get(source);
  const tgtLang = g?.codes.get(target);
  if (g && srcLang && tgtLang) routes.push({ model: g.model, tier: "general", srcLang, tgtLang });
  if (source === "en" && models.fromEnglish?.tokens.has(target)) {
    routes.push({ model: models.fromEnglish.model, tier: "fallback", inputPrefix: `>>${models.fromEnglish.tokens.get(target)}<< ` });
  }
  if (target === "en" && models.toEnglish?.sources.has(source)) routes.push({ model: models.toEnglish.model, tier: "fallback" });
  return routes;
}

const namedCodes = new WeakMap<ResolvedHfModels, ReadonlySet<string>>();

/** Every code the model map names, as a source or a target of some model: no route of hfRoutesFor has another. */
export function hfModelCodes(models: ResolvedHfModels = hfModels()): ReadonlySet<string> {
  let codes = namedCodes.get(models);
  if (!codes) {
    const named = new Set<string>();
    for (const pair of models.dedicated.keys()) for (const code of pair.split(">")) named.add(code);
    for (const code of models.general?.codes.keys() ?? []) named.add(code);
    for (const code of models.fromEnglish?.tokens.keys() ?? []) named.add(code);
    for (const code of models.toEnglish?.sources ?? []) named.add(code);
    if (models.fromEnglish || models.toEnglish) named.add("en");
    namedCodes.set(models, (codes = named));
  }
  return codes;
}
