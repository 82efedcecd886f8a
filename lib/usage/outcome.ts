import type { RequestLogEntry, RequestOutcome } from "@/lib/keys/usage-buffer";
import type { UpstreamCalls } from "@/lib/kit/telemetry";
import { translationUsage } from "@/lib/translate";
import type { BatchTranslateResponse, TranslateResponse } from "@/lib/translate/schemas";

/**
 * How a request ended, for the usage breakdown: the route wrapper calls this once per authenticated request with the
 * operation ("POST /api/v1/translate"), the response status and what the handler returned (nothing when it threw).
 * The language pair and provider are read from the result: a translation's detected_source_lang, target_lang and
 * provider; a batch's when every item that succeeded shares them; any other result's `provider` (speech). The
 * upstream calls are the request's, by the provider called (lib/kit/telemetry.ts), whatever the status.
 */
export function requestOutcome(
  endpoint: string,
  status: number,
  result?: unknown,
  translation = false,
  upstreamCalls: UpstreamCalls = {},
): RequestOutcome {
  const served = status < 400 ? servedBy(result) : { languagePair: "", provider: "" };
  const { characters, cacheHits } =
    translation && status < 400 && isObject(result) ? translationUsage(result as TranslateResponse | BatchTranslateResponse) : NO_TRANSLATION;
  return { endpoint, status, ...served, characters, cacheHits, upstreamCalls };
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

/**
 * The request log's line for a request (GET /api/v1/usage/requests): when, which, how it ended, how long it took, and
 * what served it — read from the result (`provider`, `model_used`, `cached`; a batch: the provider and model every
 * served item shares, and the cache "hit", "miss" or "partial") or, for a response the handler built (raw audio), from
 * what the handler said. Never anything of the text or the audio. `cache` is the response's X-Lugha-Cache: "bypass"
 * (the caller asked for a fresh answer) is logged as such, and without it (the cache is off, or the endpoint has none)
 * the line names no cache outcome.
 */
export function requestLogEntry(
  request: { requestId: string; endpoint: string; status: number; latencyMs: number; at: number; upstreamCalls: number; cache?: string | null },
  result?: unknown,
  served?: { provider?: string; model?: string },
): RequestLogEntry {
  const { cache: header, ...line } = request;
  const entry: RequestLogEntry = { ...line, latencyMs: Math.max(0, Math.round(request.latencyMs)), provider: "", model: "", cache: "" };
  if (request.status >= 400) return entry;
  if (served) return { ...entry, provider: served.provider ?? "", model: served.model ?? "" };
  if (!isObject(result)) return entry;
  if (Array.isArray(result.results)) {
    const items = (result.results as unknown[]).filter((r): r is Record<string, unknown> => isObject(r) && r.error === null);
    const hits = items.filter((r) => r.cached === true).length;
    return {
      ...entry,
      provider: shared(items.map(providerOf)),
      model: shared(items.map(modelOf)),
      cache: !header || items.length === 0 ? "" : header === "bypass" ? "bypass" : hits === items.length ? "hit" : hits === 0 ? "miss" : "partial",
    };
  }
  return { ...entry, provider: providerOf(result), model: modelOf(result), cache: header ?? "" };
}

const modelOf = (r: Record<string, unknown>) => (typeof r.model_used === "string" ? r.model_used : "");
