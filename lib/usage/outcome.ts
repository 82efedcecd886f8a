import type { RequestOutcome } from "@/lib/keys/usage-buffer";
import { translationUsage } from "@/lib/translate";
import type { BatchTranslateResponse, TranslateResponse } from "@/lib/translate/schemas";

/**
 * How a request ended, for the usage breakdown: the route wrapper calls this once per authenticated request with the
 * operation ("POST /api/v1/translate"), the response status and what the handler returned (nothing when it threw).
 * The language pair and provider are read from the result: a translation's detected_source_lang, target_lang and
 * provider; a batch's when every item that succeeded shares them; any other result's `provider` (speech).
 */
export function requestOutcome(endpoint: string, status: number, result?: unknown, translation = false): RequestOutcome {
  const served = status < 400 ? servedBy(result) : { languagePair: "", provider: "" };
  const { characters, cacheHits } =
    translation && status < 400 && isObject(result) ? translationUsage(result as TranslateResponse | BatchTranslateResponse) : NO_TRANSLATION;
  return { endpoint, status, ...served, characters, cacheHits };
}

const NO_TRANSLATION = { characters: 0, cacheHits: 0 };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !(v instanceof Response);

function servedBy(result: unknown): { languagePair: string; provider: string } {
  if (!isObject(result)) return { languagePair: "", provider: "" };
  if (Array.isArray(result.results)) {
    const served = (result.results as Record<string, unknown>[]).filter((r) => isObject(r) && r.error === null);
    return { languagePair: shared(served.map(pairOf)), provider: shared(served.map(providerOf)) };
  }
  return { languagePair: pairOf(result), provider: providerOf(result) };
}

const pairOf = (r: Record<string, unknown>) => {
  const source = r.detected_source_lang ?? r.source_lang; // a catalog names its source_lang
  return typeof source === "string" && typeof r.target_lang === "string" ? `${source}-${r.target_lang}` : "";
};
const providerOf = (r: Record<string, unknown>) => (typeof r.provider === "string" ? r.provider : "");

/** The one value every entry has, or "" (none, or several). */
function shared(values: string[]): string {
  return values.length > 0 && values.every((v) => v === values[0]) ? values[0] : "";
}
