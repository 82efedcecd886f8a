import { detectionCandidates } from "./detect";
import { GREETINGS, WORDS } from "./lexicon";
import { LANGUAGES } from "./registry";

/**
 * The languages source detection can name: the ones translate takes as a source (./detect.ts detectionCandidates)
 * for which the detector holds any evidence — a franc trigram model, a word list or greetings (./lexicon.ts). The
 * others (today Lugbara, Gurene, Kimeru, Kusaal, Kongo, Luba-Katanga) are never the answer: pass source_lang for them.
 * GET /languages shows this as `detectable`, and POST /detect lists only these as candidates.
 */
export function detectableLanguages(): ReadonlySet<string> {
  const candidates = detectionCandidates();
  if (cache?.candidates !== candidates) {
    const evidence = (code: string) =>
      LANGUAGES.some((l) => l.code === code && l.franc !== undefined) || (WORDS[code]?.length ?? 0) > 0 || (GREETINGS[code]?.length ?? 0) > 0;
    cache = { candidates, codes: new Set(candidates.filter(evidence)) };
  }
  return cache.codes;
}

let cache: { candidates: string[]; codes: ReadonlySet<string> } | undefined;
