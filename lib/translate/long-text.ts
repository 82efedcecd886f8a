import { withChunk } from "@/lib/kit/telemetry";
import type { TranslationRoute } from "@/lib/providers/descriptor";
import { type ProviderClient, ProviderError, type TranslateResult } from "@/lib/providers/types";
import { chunkLimit, codePointLength } from "./limits";
import { joinSegments, mapWithConcurrency, splitForLimit } from "./segment";
import type { ProviderGate } from "./service";

/**
 * One route's attempt at a text (what lib/routing runs as one unit). A text the route takes in one call is sent as is.
 * A longer one is split for this route (./segment.ts: sentence boundaries, chunks within the route's chunkLimit), the
 * chunks are translated on this route with at most CHUNK_CONCURRENCY calls in flight, all within the route's deadline,
 * and the translations are joined with the original's whitespace (paragraph breaks included): the whitespace at each
 * cut is the original's, so each chunk's translation is trimmed before it is put back. Each chunk takes a slot of the
 * gate (the batch's per-provider bound) for its own call.
 *
 * One route serves every chunk, so the answer has one provider, one model and one quality_score. The route succeeds or
 * fails as a whole: the first chunk that fails stops the others (their calls are cancelled, which no circuit holds
 * against the provider) and fails the route, and the next route gets the whole text and splits it by its own limit.
 * Every chunk is one upstream call, and draws on the provider's budget like any call.
 */

/** Calls in flight per request for one split text: enough to translate 5,000 characters in two rounds on provider_b. */
export const CHUNK_CONCURRENCY = 4;

export interface TextRequest {
  text: string;
  source: string;
  target: string;
  /** The source was detected without certainty (TranslateRequest.inferSource). */
  inferSource?: boolean;
}

export interface RouteTranslation {
  result: TranslateResult;
  /** Upstream calls the text took on this route: 1 when it was not split. */
  segments: number;
}

export async function translateOnRoute(
  route: TranslationRoute,
  client: ProviderClient,
  { text, source, target, inferSource }: TextRequest,
  deadline: number,
  gate: ProviderGate,
  /** Cancels the calls (when the text is one of several segments of a request and another failed). */
  outer?: AbortSignal,
): Promise<RouteTranslation> {
  const call = (chunk: string, signal = outer) =>
    gate(route.provider, deadline, () =>
      client.translate({ text: chunk, source, target, inferSource, deadline, signal, ...(route.hf && { hf: route.hf }) }),
    );

  const limit = chunkLimit(route);
  const fits = typeof limit === "number" ? codePointLength(text) <= limit : limit(text);
  if (fits) return { result: await call(text), segments: 1 };

  const { chunks, separators } = splitForLimit(text, limit, { locale: source });
  let results: TranslateResult[];
  try {
    results = await mapWithConcurrency(chunks, CHUNK_CONCURRENCY, (chunk, i, signal) => withChunk(i, () => call(chunk, signal)), {
      deadline,
      signal: outer,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "TimeoutError")
      throw new ProviderError(route.provider, "timeout", `deadline reached before the ${chunks.length} parts of the text were translated`);
    throw err;
  }
  const translatedText = joinSegments(
    separators,
    results.map((r) => r.translatedText.trim()),
  );
  return { result: { translatedText, model: results[0].model }, segments: chunks.length };
}
