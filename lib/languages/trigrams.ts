/**
 * franc-all's `francAll`, scoring only the languages Lugha detects. franc-all turns the trigram profiles of all its
 * 400+ languages into lookup tables when its module loads (≈120,000 object properties, the largest single cost of the
 * first request that detects a source language: docs/benchmark.md "Cold starts on Vercel"); this module builds tables
 * for the languages it is asked about, once each, on first use, from franc-all's profiles of the registry's languages
 * only (./trigram-profiles.json, 36 of its 400+ profiles: `npm run detector:data` writes it from franc-all's data,
 * and `trigrams.test.ts` holds it equal to that data). The scoring is franc-all 7's, step for step (script by character
 * share, then the rank distance of the text's trigrams to each profile, normalised): `trigrams.test.ts` holds it equal
 * to `francAll` on the detector's samples.
 */
import { expressions } from "franc-all/expressions.js";
import { asTuples } from "trigram-utils";
import profiles from "./trigram-profiles.json";

/** Script → franc code → that language's trigrams, most frequent first, "|"-separated (franc-all's data format). */
export type TrigramProfiles = Record<string, Record<string, string>>;

const data: TrigramProfiles = profiles;

/**
 * What ./trigram-profiles.json holds: of franc-all's profiles, those of the given franc codes, under every script
 * franc-all has profiles for (a script none of them is written in stays, empty, so that text in it is still
 * undetermined rather than taken for that script's one language).
 */
export function selectProfiles(all: TrigramProfiles, codes: readonly string[]): TrigramProfiles {
  const wanted = new Set(codes);
  return Object.fromEntries(
    Object.entries(all).map(([script, languages]) => [script, Object.fromEntries(Object.entries(languages).filter(([code]) => wanted.has(code)))]),
  );
}

/** franc-all's constants: the longest sample read, and the distance of a trigram the profile lacks. */
const MAX_LENGTH = 2048;
const MAX_DIFFERENCE = 300;

/** "script/franc code" → that profile's trigram ranks; built on first use per language. */
const tables = new Map<string, Map<string, number>>();

function ranksOf(script: string, language: string): Map<string, number> {
  const key = `${script}/${language}`;
  let ranks = tables.get(key);
  if (!ranks) {
    ranks = new Map();
    // An index loop, not entries(): ≈10,000 trigrams go through it on a cold process's first detection.
    const trigrams = data[script][language].split("|");
    for (let rank = 0; rank < trigrams.length; rank++) ranks.set(trigrams[rank], rank);
    tables.set(key, ranks);
  }
  return ranks;
}

/**
 * [franc code, score in 0..1] for the languages of `only` (not empty) written in the text's main script, best first —
 * what `francAll(text, { only, minLength: 1 })` answers; `[["und", 1]]` when none fits.
 */
export function francOnly(text: string, only: readonly string[]): [string, number][] {
  if (!text) return [["und", 1]];
  const value = text.slice(0, MAX_LENGTH);
  const [script, share] = topScript(value);
  if (script === undefined || !(script in data)) {
    // A script that franc-all ties to one language (Hangul, Thai, …): that language when allowed, else undetermined.
    return script !== undefined && share > 0 && only.includes(script) ? [[script, 1]] : [["und", 1]];
  }
  // In the data's order, as franc-all lists them (equal distances keep that order).
  const languages = Object.keys(data[script]).filter((code) => only.includes(code));
  if (languages.length === 0) return [["und", 1]];
  const trigrams = asTuples(value);
  const distances = languages.map((code) => [code, distance(trigrams, ranksOf(script, code))] as [string, number]);
  distances.sort((a, b) => a[1] - b[1]);
  const min = distances[0][1];
  const max = value.length * MAX_DIFFERENCE - min;
  for (const d of distances) d[1] = 1 - (d[1] - min) / max || 0;
  return distances;
}

/** The script whose characters make the largest share of the text (franc-all's getTopScript). */
function topScript(value: string): [string | undefined, number] {
  let top: string | undefined;
  let topShare = -1;
  for (const [script, expression] of Object.entries(expressions)) {
    const share = (value.match(expression)?.length ?? 0) / value.length || 0;
    if (share > topShare) {
      topShare = share;
      top = script;
    }
  }
  return [top, topShare];
}

function distance(trigrams: [string, number][], ranks: Map<string, number>): number {
  let sum = 0;
  for (const [trigram, rank] of trigrams) {
    const model = ranks.get(trigram);
    sum += model === undefined ? MAX_DIFFERENCE : Math.abs(rank - model - 1);
  }
  return sum;
}
