import { z } from "zod";

/**
 * Fault modes an emulator can inject, applied to every matching request before normal handling:
 * - status: answer with `status` and the provider's real error body for it (`variant` picks among its shapes)
 * - malformed: `variant` "truncated" (JSON cut in half, default), "garbage" (bytes labelled JSON), "shape" (valid JSON of
 *   the wrong shape), "cut" (headers and part of the body, then the connection drops)
 * - html: an HTML gateway page (status `status`, default 200)
 * - hang: never answer (`variant` "body": send 200 headers, then nothing)
 * - reset: drop the connection without answering
 * - loading: the provider's cold-start answer (HF 503 with estimated_time = `estimatedTimeSeconds`)
 * - rate_limited: the provider's 429 (`retryAfterSeconds` when it sends Retry-After; `variant` "quota" for Sunbird quotas)
 * - tokens: a normal answer whose localisation tokens (lib/localise: QZAX, QZBX, ...) are damaged, as machine
 *   translation damages them: `variant` "drop" (the first token is lost, default), "duplicate" (the first token comes
 *   twice), "move" (the first and the last token swap places, as another language's word order would), "mangle" (the
 *   first token is broken apart: "QZ-AX"). An answer without tokens is left as it is.
 */
export const FAIL_MODES = ["none", "status", "malformed", "html", "hang", "reset", "loading", "rate_limited", "tokens"] as const;
export type FailMode = (typeof FAIL_MODES)[number];

export const emulatorControlsSchema = z.strictObject({
  /** Delay before every answer (faults included). */
  latencyMs: z.number().int().min(0).max(600_000),
  failMode: z.enum(FAIL_MODES),
  status: z.number().int().min(100).max(599).optional(),
  variant: z.string().max(40).optional(),
  retryAfterSeconds: z.number().min(0).max(86_400).optional(),
  estimatedTimeSeconds: z.number().min(0).max(86_400).optional(),
  /** Only the next N matching requests fail; counts down to 0, after which requests succeed. */
  failNext: z.number().int().min(0).optional(),
  /**
   * The next N matching requests are answered normally before any fault applies (counts down to 0): with failNext 1,
   * exactly the (N+1)th fails, e.g. one chunk in the middle of a split text.
   */
  failAfter: z.number().int().min(0).optional(),
  /** This fraction of matching requests fails, spread evenly and deterministically (0.5 → every second one). */
  failRatio: z.number().min(0).max(1).optional(),
  /** Faults apply only to paths starting with this (e.g. "/tasks" to spare Sunbird's audio downloads). */
  pathPrefix: z.string().max(200).optional(),
});

export type EmulatorControls = z.infer<typeof emulatorControlsSchema>;

export function defaultControls(): EmulatorControls {
  return { latencyMs: 0, failMode: "none" };
}

export interface RecordedRequest {
  method: string;
  /** Path with query string. */
  path: string;
  headers: Record<string, string>;
  bodyBytes: number;
  /** UTF-8 body, first 64 KB, for text bodies only. */
  bodyText?: string;
}

export interface EmulatorStats {
  /** Requests to the emulated API (control requests excluded). */
  requests: number;
  inFlight: number;
  /** Highest number of requests being handled at the same time: how batch concurrency bounds are checked. */
  maxInFlight: number;
  byPath: Record<string, number>;
  /** The last 100 requests, oldest first. */
  recent: RecordedRequest[];
  /**
   * Translation calls received and the size of their texts in code points: what tests of caching, coalescing and
   * long-text splitting assert (upstream calls saved, no call over a provider's input limit) and the benchmark reports.
   */
  translations: { calls: number; totalChars: number; maxChars: number };
  /**
   * Quota units spent, as the upstream charges them: one per request to a metered endpoint, counted on arrival
   * (before latency, faults or the work: a request that fails or times out still costs one). Language identification,
   * token requests, signed audio downloads and model information cost nothing.
   */
  quotaUnits: number;
}

export function emptyStats(): EmulatorStats {
  return { requests: 0, inFlight: 0, maxInFlight: 0, byPath: {}, recent: [], translations: { calls: 0, totalChars: 0, maxChars: 0 }, quotaUnits: 0 };
}
