import { readFileSync } from "node:fs";
import { ALL_AVAILABLE, type AvailabilityView, modelSubject, sttSubject } from "@/lib/availability";
import { ApiError } from "@/lib/kit/errors";
import type { ProviderDescriptor } from "@/lib/providers/descriptor";
import { PROVIDERS } from "@/lib/providers/descriptors";
import type { ProviderId } from "@/lib/providers/types";
import { detectableLanguages } from "./detectable";
import { hfModels, isDefaultCatalogue, type ResolvedHfModels } from "./models";
import { allPairs, type PairOption } from "./pairs";
import { qualityBand } from "./quality-bands";
import { LANGUAGES, type Language, normalizeLanguageCode } from "./registry";
import type { LanguageEntry, LanguagesQuery, LanguagesResponse } from "./schemas";
import { speechCapabilities } from "./speech";

/**
 * GET /api/v1/languages, computed from the same pair tables translate routes with — so every target listed is one
 * translate serves, with the provider, model and quality_score translate reports for it.
 *
 *  - translation.targets: the languages this one translates into. Without ?provider: the provider auto routing tries
 *    first and its best model. With ?provider=X: only X's pairs, with X's model and quality (what forcing X gives).
 *  - translation.sources: the languages that translate into this one (same provider rule).
 *  - stt / tts: from the speech catalogue (./speech.ts), the table STT/TTS route with — per provider in
 *    routing order, STT model and upload formats, TTS voices with each provider's default marked. With ?provider=X:
 *    only X's.
 *  - Filters: capability (translation|stt|tts), provider (only languages that provider serves in some way: a pair, STT
 *    or TTS), source (only languages reachable from that source; adds from_source). Filters combine (AND).
 *  - Live availability (lib/availability): routes and speech models known to be unavailable now are left out, so
 *    every pair, model and voice listed is one that would be tried; a pair whose every route is unavailable is not
 *    listed. Each target carries its quality band (the contract's interpretation of quality_score).
 *  - detectable: whether source detection can name the language (./detectable.ts).
 *  - A language nobody serves (no pair, no STT, no TTS) is not listed.
 *  - Order: by English name.
 */
export function listLanguages(
  query: LanguagesQuery = {},
  models: ResolvedHfModels = hfModels(),
  providers: readonly ProviderDescriptor[] = PROVIDERS,
  availability: AvailabilityView = ALL_AVAILABLE,
): LanguagesResponse {
  let source: string | undefined;
  if (query.source !== undefined) {
    source = normalizeLanguageCode(query.source);
    if (!source) {
      throw new ApiError(
        "UNSUPPORTED_LANGUAGE",
        "source is not a supported language code. GET /api/v1/languages (without source) lists the supported codes.",
        {
          errors: [{ loc: ["query", "source"], msg: "Unsupported language", type: "unsupported_language" }],
        },
      );
    }
  }
  const provider = query.provider as ProviderId | undefined;
  const pick = (options: readonly PairOption[]): PairOption | undefined => (provider ? options.find((o) => o.provider === provider) : options[0]);

  const targets = new Map<string, LanguageEntry["translation"]["targets"]>();
  const sources = new Map<string, string[]>();
  for (const pair of allPairs(models, providers, availability)) {
    const option = pick(pair.options);
    if (!option) continue;
    if (!targets.has(pair.source)) targets.set(pair.source, []);
    targets.get(pair.source)!.push({
      code: pair.target,
      provider: option.provider as ProviderId,
      model: option.model,
      quality_score: option.quality,
      quality_band: qualityBand(option.quality),
    });
    if (!sources.has(pair.target)) sources.set(pair.target, []);
    sources.get(pair.target)!.push(pair.source);
  }

  const detectable = detectableLanguages();
  const entries: LanguageEntry[] = [];
  for (const lang of languagesByName()) {
    const t = targets.get(lang.code) ?? [];
    const s = sources.get(lang.code) ?? [];
    const translationSupported = t.length > 0 || s.length > 0;
    const speech = speechCapabilities(lang.code, providers);
    const served = (p: ProviderId, model: string) => availability.isAvailable(modelSubject(p, model));
    const stt = speech.stt.filter(
      (p) => (!provider || p.provider === provider) && served(p.provider, p.model) && availability.isAvailable(sttSubject(p.provider, lang.code)),
    );
    const tts = speech.tts
      .filter((p) => !provider || p.provider === provider)
      .map((p) => ({ ...p, voices: p.voices.filter((v) => served(p.provider, v.model)) }))
      .filter((p) => p.voices.length > 0);
    const entry: LanguageEntry = {
      code: lang.code,
      name: lang.name,
      native_name: lang.nativeName,
      region: lang.region,
      aliases: [...lang.aliases],
      detectable: detectable.has(lang.code),
      translation: { supported: translationSupported, targets: t, sources: s },
      stt: { supported: stt.length > 0, providers: stt },
      tts: { supported: tts.length > 0, providers: tts },
    };
    if (provider && !translationSupported && stt.length === 0 && tts.length === 0) continue;
    if (query.capability === "translation" && !translationSupported) continue;
    if (query.capability === "stt" && !entry.stt.supported) continue;
    if (query.capability === "tts" && !entry.tts.supported) continue;
    if (source !== undefined) {
      const via = targets.get(source)?.find((x) => x.code === lang.code);
      if (!via) continue;
      entry.from_source = { source, provider: via.provider, model: via.model, quality_score: via.quality_score, quality_band: via.quality_band };
    }
    if (!translationSupported && stt.length === 0 && tts.length === 0) continue; // served by nobody: not listed
    entries.push(entry);
  }
  return { languages: entries, total: entries.length };
}

/**
 * The bytes of the listing for `query`, when they are the ones shipped in ./default-listing.json: unfiltered, with
 * nothing unavailable and the built-in catalogue — a new instance's first listing, nearly always. `npm run
 * catalogue:data` writes the file with listLanguages and a test holds the two equal. Building it walks every pair's
 * routes, ≈60 ms of CPU and as much again of garbage collection in a cold function's first listing; the file is read
 * as bytes, not imported: a 290 kB module costs ≈12 ms to load and its JSON ≈15 ms to parse, the bytes 0.2 ms to read.
 * undefined otherwise (the caller lists with listLanguages).
 */
export function shippedListing(query: LanguagesQuery, view: AvailabilityView): Uint8Array<ArrayBuffer> | undefined {
  const unfiltered = query.capability === undefined && query.provider === undefined && query.source === undefined;
  if (!unfiltered || view !== ALL_AVAILABLE || !isDefaultCatalogue(hfModels())) return undefined;
  return readFileSync(new URL("./default-listing.json", import.meta.url));
}

let byName: readonly Language[] | undefined;

/**
 * The registry in the listing's order, by English name, sorted once. The names are plain ASCII, so lower-case code
 * unit order is English collation's (languages.test.ts holds it to `localeCompare(…, "en")`): the first collator a
 * process makes loads ICU's collation data, 10–14 ms of a cold function's first listing.
 */
function languagesByName(): readonly Language[] {
  byName ??= [...LANGUAGES].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1));
  return byName;
}
