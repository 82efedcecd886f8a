import { AsyncLocalStorage } from "node:async_hooks";
import {
  type Attributes,
  type Counter,
  context,
  type Histogram,
  type Meter,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

/**
 * What the app reports of itself besides its answers: the facts of the request in flight (for its access line), the
 * spans of the trace (OpenTelemetry, only when the start-up registered an exporter: instrumentation.ts) and the metric
 * instruments (built by the composition root on its meter, lib/server/metrics.ts). Everything here is a no-op until
 * switched on, so the parts below lib/server call it without knowing whether anyone listens.
 */

/** The facts of one request that its access line carries (never a key, a text or audio). */
export interface RequestFacts {
  provider?: string;
  model?: string;
  fallback?: boolean;
  cache?: string;
  upstreamAttempts: number;
  /** Bytes sent to and received from the upstreams (request bodies and Content-Length of the answers). */
  upstreamBytes: number;
  /** Upstream calls (quota units) by provider: what the request cost, for its answer, its usage count and its log line. */
  upstreamCalls: UpstreamCalls;
}

const scope = new AsyncLocalStorage<RequestFacts>();

/** Runs `fn` with a fresh record of the request's facts, readable by everything it calls. */
export function withRequestFacts<T>(facts: RequestFacts, fn: () => T): T {
  return scope.run(facts, fn);
}

/** The facts of the request in flight, if any. */
export function requestFacts(): RequestFacts | undefined {
  return scope.getStore();
}

/** Upstream calls (quota units) by provider id: every request sent to a provider's metered API, retries included. */
export type UpstreamCalls = Record<string, number>;

interface CallCount {
  calls: UpstreamCalls;
  /** The enclosing count (the request's, around a service's own): a call counts in each. */
  outer?: CallCount;
}

const callScope = new AsyncLocalStorage<CallCount>();

/**
 * Runs `fn` and counts the upstream calls it makes (lib/providers notes each one as it is sent: an upstream charges it
 * before the work, whatever the answer). Counts nest: a call made inside a batch's item counts for the item's scope,
 * the batch's and the request's. A call another request joins (coalescing) counts for the request that sent it.
 */
export async function countUpstreamCalls<T>(fn: () => Promise<T>): Promise<{ value: T; calls: UpstreamCalls }> {
  const count: CallCount = { calls: {}, outer: callScope.getStore() };
  const value = await callScope.run(count, fn);
  return { value, calls: count.calls };
}

/** One request sent to `provider`'s metered API, in the request's facts and every count in scope. */
export function noteUpstreamCall(provider: string): void {
  const facts = scope.getStore();
  if (facts) facts.upstreamCalls[provider] = (facts.upstreamCalls[provider] ?? 0) + 1;
  for (let c = callScope.getStore(); c; c = c.outer) c.calls[provider] = (c.calls[provider] ?? 0) + 1;
}

/** The sum of a count. */
export function totalUpstreamCalls(calls: UpstreamCalls): number {
  let n = 0;
  for (const v of Object.values(calls)) n += v;
  return n;
}

const chunkScope = new AsyncLocalStorage<number>();

/** Runs `fn` as the upstream call for part `index` of a text split into chunks (the attempt spans name it). */
export function withChunk<T>(index: number, fn: () => T): T {
  return chunkScope.run(index, fn);
}

/** The chunk index of the upstream call in flight, when its text was split. */
export function currentChunk(): number | undefined {
  return chunkScope.getStore();
}

// --- traces -------------------------------------------------------------------------------------------------------

const TRACING = Symbol.for("lugha.tracing");
type WithTracing = typeof globalThis & { [TRACING]?: boolean };

/** Called by the start-up once it has registered a tracer provider with an exporter. */
export function markTracingOn() {
  (globalThis as WithTracing)[TRACING] = true;
}

/** Whether spans are recorded and exported (OTEL_EXPORTER_OTLP_ENDPOINT set at start-up). */
export function tracingOn(): boolean {
  return (globalThis as WithTracing)[TRACING] === true;
}

export const TRACER_NAME = "lugha";

/**
 * Runs `fn` in a span named `name` (a child of the active one), ending it when `fn` settles and marking it failed when
 * `fn` throws. Without tracing, `fn` runs alone: no span object, no context switch.
 */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span?: Span) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  if (!tracingOn()) return fn();
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : "error" });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Adds the active trace's `traceparent` (and `tracestate`) to outgoing headers; nothing without tracing. */
export function injectTraceContext(headers: Record<string, string>) {
  if (tracingOn()) propagation.inject(context.active(), headers);
}

export { SpanKind, SpanStatusCode };

// --- metrics ------------------------------------------------------------------------------------------------------

/** The instruments the parts record on (built on the composition root's meter; no-ops before). */
export interface Instruments {
  /** http.server.request.duration (s): every API request, by method, route template and status. */
  serverDuration: Histogram;
  /** http.client.request.duration (s): every upstream attempt, by provider, model, status and error type. */
  upstreamDuration: Histogram;
  /** lugha.cache.lookups: translation requests by cache outcome (hit, miss, bypass). */
  cacheLookups: Counter;
  /** lugha.cache.coalesced: requests that joined an identical call in flight instead of making their own. */
  coalesced: Counter;
  /** lugha.ratelimit.refusals: requests refused by a rate limit, by bucket. */
  rateLimitRefusals: Counter;
}

const INSTRUMENTS = Symbol.for("lugha.instruments");
type WithInstruments = typeof globalThis & { [INSTRUMENTS]?: Instruments };

/** Builds the instruments on `meter` and makes them the process's. */
export function installInstruments(meter: Meter): Instruments {
  const instruments: Instruments = {
    serverDuration: meter.createHistogram("http.server.request.duration", {
      unit: "s",
      description: "Duration of HTTP server requests.",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    upstreamDuration: meter.createHistogram("http.client.request.duration", {
      unit: "s",
      description: "Duration of upstream provider requests, one per attempt.",
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    cacheLookups: meter.createCounter("lugha.cache.lookups", { description: "Translation requests by cache outcome (hit, miss, bypass)." }),
    coalesced: meter.createCounter("lugha.cache.coalesced", { description: "Requests that joined an identical upstream call in flight." }),
    rateLimitRefusals: meter.createCounter("lugha.ratelimit.refusals", { description: "Requests refused by a rate limit, by bucket." }),
  };
  (globalThis as WithInstruments)[INSTRUMENTS] = instruments;
  return instruments;
}

/** The bucket boundaries (s) of both duration histograms. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60];

/**
 * Records one upstream attempt: on http.client.request.duration and in the last hour's per-minute window of its
 * provider (what the status page reads: error rate and p50, estimated from the same buckets as the histogram).
 */
export function recordUpstream(provider: string, seconds: number, failed: boolean, attributes: Attributes) {
  instruments()?.upstreamDuration.record(seconds, attributes);
  upstreamWindow().add(provider, seconds, failed);
}

/** Per provider, per minute of the last hour: attempts, failures and counts per duration bucket. */
export class RecentWindow {
  private readonly minutes = new Map<string, { minute: number; calls: number; errors: number; buckets: number[] }[]>();

  constructor(
    private readonly spanMinutes = 60,
    private readonly now: () => number = Date.now,
  ) {}

  add(provider: string, seconds: number, failed: boolean) {
    const minute = Math.floor(this.now() / 60_000);
    let list = this.minutes.get(provider);
    if (!list) this.minutes.set(provider, (list = []));
    let last = list.at(-1);
    if (!last || last.minute !== minute) {
      list.push((last = { minute, calls: 0, errors: 0, buckets: new Array(DURATION_BUCKETS.length + 1).fill(0) }));
      while (list.length > 0 && list[0].minute <= minute - this.spanMinutes) list.shift();
    }
    last.calls++;
    if (failed) last.errors++;
    const i = DURATION_BUCKETS.findIndex((b) => seconds <= b);
    last.buckets[i === -1 ? DURATION_BUCKETS.length : i]++;
  }

  /**
   * The last hour of `provider`: attempts, failures, error rate, and the median duration in ms estimated within its
   * histogram bucket (linear interpolation, as Prometheus's histogram_quantile does); null without attempts.
   */
  summary(provider: string): { calls: number; errors: number; error_rate: number | null; p50_ms: number | null } {
    const since = Math.floor(this.now() / 60_000) - this.spanMinutes;
    const recent = (this.minutes.get(provider) ?? []).filter((m) => m.minute > since);
    const calls = recent.reduce((n, m) => n + m.calls, 0);
    const errors = recent.reduce((n, m) => n + m.errors, 0);
    if (calls === 0) return { calls, errors, error_rate: null, p50_ms: null };
    const buckets = DURATION_BUCKETS.map((_, i) => recent.reduce((n, m) => n + m.buckets[i], 0));
    const rank = calls / 2;
    let seen = 0;
    let p50 = DURATION_BUCKETS.at(-1)!;
    for (let i = 0; i < buckets.length; i++) {
      if (seen + buckets[i] >= rank && buckets[i] > 0) {
        const lower = i === 0 ? 0 : DURATION_BUCKETS[i - 1];
        p50 = lower + (DURATION_BUCKETS[i] - lower) * ((rank - seen) / buckets[i]);
        break;
      }
      seen += buckets[i];
    }
    return { calls, errors, error_rate: errors / calls, p50_ms: Math.round(p50 * 1000) };
  }
}

const WINDOW = Symbol.for("lugha.upstream-window");

/** The process's window of upstream attempts (kept on globalThis like the instruments). */
export function upstreamWindow(): RecentWindow {
  const g = globalThis as typeof globalThis & { [WINDOW]?: RecentWindow };
  return (g[WINDOW] ??= new RecentWindow());
}

/** The process's instruments, or undefined before the composition root built them. */
export function instruments(): Instruments | undefined {
  return (globalThis as WithInstruments)[INSTRUMENTS];
}
