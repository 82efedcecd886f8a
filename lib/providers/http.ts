import { Readable } from "node:stream";
import type { Span } from "@opentelemetry/api";
import { CONFIG_DEFAULTS } from "@/lib/config";
import { concatBytes } from "@/lib/kit/bytes";
import { currentChunk, inSpan, recordUpstream, requestFacts, SpanKind, tracingOn } from "@/lib/kit/telemetry";
import { parsedUrl, type UpstreamResponse } from "@/lib/kit/upstream-fetch";
import { activeCall, type InFlightCall } from "./circuit";
import { ProviderError, type ProviderId } from "./types";

/** The subset of `fetch` the clients use; injectable per client (the in-process sandbox is one, answering with a Response). */
export type FetchLike = (input: string, init: RequestInit) => Promise<UpstreamResponse>;

export interface HttpPolicy {
  /** Longest single attempt (headers and body); always also cut at the request deadline. */
  attemptTimeoutMs: number;
  /** Retries after the first attempt, for retryable failures only. */
  maxRetries: number;
  /** Exponential backoff base and cap when the provider gives no wait hint. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Neither a wait nor a new attempt is started unless at least this much time would remain before the deadline. */
  minAttemptMs: number;
  /** Largest response body read for JSON answers. */
  maxBodyBytes: number;
  random: () => number;
  /** Which failures another attempt may fix (default: isRetryable); a provider that charges every accepted request narrows it. */
  retryable?: (err: ProviderError) => boolean;
}

/** The policy of a client built without settings; the configurable parts default as the configuration does. */
export const DEFAULT_HTTP_POLICY: HttpPolicy = {
  attemptTimeoutMs: CONFIG_DEFAULTS.PROVIDER_TIMEOUT_MS,
  maxRetries: CONFIG_DEFAULTS.PROVIDER_MAX_RETRIES,
  backoffBaseMs: 200,
  backoffMaxMs: 2_000,
  minAttemptMs: 100,
  maxBodyBytes: 1 << 20,
  random: Math.random,
};

export interface SendOptions<T> {
  provider: ProviderId;
  fetch: FetchLike;
  policy: HttpPolicy;
  url: string;
  init: Omit<RequestInit, "signal">;
  deadline: number;
  signal?: AbortSignal;
  /**
   * Turns a response into a result, or throws a ProviderError. Reads the body itself (with `readText`/`readBytes` and
   * the signal given here), so a body that stalls is cut by the same attempt timeout as the headers.
   */
  handle: (res: UpstreamResponse, signal: AbortSignal) => Promise<T>;
}

/**
 * One logical upstream call: bounded attempts inside the caller's deadline. Retries only failures that another attempt
 * can fix (network, timeout, 429, 5xx); waits the provider's hint (Retry-After, HF estimated_time) or a jittered backoff,
 * but only when the wait and a useful attempt still fit before the deadline, and never after the last attempt.
 */
export async function send<T>(opts: SendOptions<T>): Promise<T> {
  const { provider, policy, deadline, signal } = opts;
  // The circuit breaker's record of this call: told of each answer and wait, and aborted when the provider hangs.
  const breakerCall = activeCall();
  for (let attempt = 0; ; attempt++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new ProviderError(provider, "timeout", "provider did not answer before the deadline");
    let error: ProviderError;
    try {
      return await observedAttempt(opts, attempt, () => attemptOnce(opts, Math.min(policy.attemptTimeoutMs, remaining), breakerCall));
    } catch (err) {
      error = err as ProviderError;
    }
    if (signal?.aborted || breakerCall?.cutReason || attempt >= policy.maxRetries || !(policy.retryable ?? isRetryable)(error)) throw error;
    const wait = error.retryAfterMs ?? backoff(policy, attempt);
    if (Date.now() + wait + policy.minAttemptMs > deadline) throw error;
    breakerCall?.pause(true);
    await sleep(wait, signal);
    breakerCall?.pause(false);
    if (signal?.aborted) throw cancelled(provider);
  }
}

/**
 * One attempt as the operator sees it: a sample of http.client.request.duration (provider, model, status or error
 * type), the attempt and its bytes counted on the request's access line, and with tracing on a client span
 * `upstream <provider>` with the same attributes and the retry number (the transport adds `traceparent` to the request).
 * Without tracing no span attributes are built: they would cost on every attempt for nothing.
 */
function observedAttempt<T>(opts: SendOptions<T>, retry: number, run: () => Promise<T>): Promise<T> {
  const facts = requestFacts();
  if (facts) {
    facts.upstreamAttempts++;
    const body = opts.init.body;
    if (typeof body === "string") facts.upstreamBytes += Buffer.byteLength(body);
    else if (body instanceof Uint8Array) facts.upstreamBytes += body.byteLength;
  }
  if (!tracingOn()) return timedAttempt(opts, run);
  const chunk = currentChunk();
  const attributes = {
    "lugha.provider": opts.provider,
    "http.request.method": opts.init.method ?? "GET",
    "server.address": parsedUrl(opts.url).hostname,
    "lugha.upstream.retry": retry,
    ...(chunk !== undefined && { "lugha.upstream.chunk": chunk }),
  };
  return inSpan(`upstream ${opts.provider}`, attributes, (span) => timedAttempt(opts, run, span), SpanKind.CLIENT);
}

/** Runs the attempt and records how it ended (on the span too, when there is one). */
async function timedAttempt<T>(opts: SendOptions<T>, run: () => Promise<T>, span?: Span): Promise<T> {
  const t0 = performance.now();
  let result: T | undefined;
  let failure: unknown;
  try {
    result = await run();
    return result;
  } catch (err) {
    failure = err ?? new Error("attempt failed");
    throw err;
  } finally {
    const outcome = attemptAttributes(opts, result, failure);
    span?.setAttributes(outcome);
    recordUpstream(opts.provider, (performance.now() - t0) / 1000, failure !== undefined, outcome);
  }
}

/** How an attempt ended, as the metric and the span name it: provider, method, model, status, error type. */
function attemptAttributes<T>(opts: SendOptions<T>, result: T | undefined, failure: unknown): Record<string, string | number> {
  const attributes: Record<string, string | number> = { "lugha.provider": opts.provider, "http.request.method": opts.init.method ?? "GET" };
  const model = modelOf(result, opts.url);
  if (model) attributes["lugha.model"] = model;
  if (failure === undefined) attributes["http.response.status_code"] = 200;
  else {
    const e = failure as ProviderError;
    if (typeof e.status === "number") attributes["http.response.status_code"] = e.status;
    attributes["error.type"] = e.kind ?? "error";
  }
  return attributes;
}

/** The model of an attempt: named in the client's result, or in the path of a Hugging Face model URL. */
function modelOf(result: unknown, url: string): string | undefined {
  const named = (result as { model?: unknown } | undefined)?.model;
  if (typeof named === "string") return named;
  return /\/models\/([\w.-]+\/[\w.-]+)$/.exec(parsedUrl(url).pathname)?.[1];
}

/**
 * One attempt, ended by the first of: its answer, its own timeout, the caller's signal, the breaker declaring the
 * provider hung. The signal is hand-built rather than AbortSignal.timeout + AbortSignal.any: those keep a 15 s timer
 * and the composite's bookkeeping alive after every attempt (most answer in milliseconds); here the timer and the
 * listener go as soon as the attempt ends.
 */
async function attemptOnce<T>(opts: SendOptions<T>, timeoutMs: number, breakerCall?: InFlightCall): Promise<T> {
  // Cut while it waited between attempts: its caller has its answer already, and the provider gets no more requests.
  if (breakerCall?.cutReason) throw breakerCall.cutReason;
  const controller = new AbortController();
  const abort = (reason: unknown) => controller.abort(reason);
  const caller = opts.signal;
  const onCallerAbort = () => abort(caller!.reason);
  if (caller?.aborted) abort(caller.reason);
  else caller?.addEventListener("abort", onCallerAbort, { once: true });
  if (breakerCall) breakerCall.abortAttempt = abort;
  const timer = setTimeout(() => abort(new DOMException("attempt timed out", "TimeoutError")), timeoutMs);
  try {
    const res = await opts.fetch(opts.url, { ...opts.init, signal: controller.signal });
    breakerCall?.answered();
    return await opts.handle(res, controller.signal);
  } catch (err) {
    if (caller?.aborted) throw cancelled(opts.provider);
    if (breakerCall?.cutReason) throw breakerCall.cutReason;
    if (err instanceof ProviderError) throw err;
    if (controller.signal.aborted) throw new ProviderError(opts.provider, "timeout", "provider did not answer in time");
    if (err instanceof SyntaxError) throw new ProviderError(opts.provider, "malformed", "provider sent an unreadable response");
    throw new ProviderError(opts.provider, "network", "could not reach provider");
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener("abort", onCallerAbort);
    if (breakerCall) breakerCall.abortAttempt = undefined;
  }
}

/**
 * Whether another attempt may succeed. 4xx are the request's fault and never retried, except a 429 that says when to
 * come back (Retry-After): a bare 429 holds the provider until its rate window resets (BaseClient), so retrying it at
 * once would only be refused again.
 */
export function isRetryable(err: ProviderError): boolean {
  if (err.kind === "timeout" || err.kind === "network") return true;
  if (err.status === undefined) return false;
  if (err.status === 429) return err.retryAfterMs !== undefined;
  return err.status >= 500 && err.status !== 501;
}

function backoff(policy: HttpPolicy, attempt: number): number {
  const exp = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** attempt);
  return Math.round(exp / 2 + (policy.random() * exp) / 2);
}

function cancelled(provider: ProviderId): ProviderError {
  return new ProviderError(provider, "timeout", "request cancelled");
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Reads a body up to `maxBytes`, honouring `signal` even for bodies that do not (an in-process Response stream).
 * A larger body is an upstream fault ("malformed"), not something to buffer. Takes a fetch Response's web stream and
 * upstreamFetch's Node stream alike; stopping early cancels (or destroys) it.
 */
export async function readBytes(res: UpstreamResponse, provider: ProviderId, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array(0);
  const tooLarge = () => new ProviderError(provider, "malformed", "provider response too large", res.status);
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    if (res.body instanceof Readable) res.body.destroy();
    else await res.body.cancel().catch(() => {});
    throw tooLarge();
  }
  return concatBytes(
    res.body instanceof Readable ? await nodeChunks(res.body, maxBytes, tooLarge, signal) : await webChunks(res.body, maxBytes, tooLarge, signal),
  );
}

const abortReason = (signal: AbortSignal) => signal.reason ?? new DOMException("aborted", "AbortError");

/** A Node stream read with its events (its async iterator costs several times more per call); destroyed on failure. */
function nodeChunks(body: Readable, maxBytes: number, tooLarge: () => Error, signal: AbortSignal): Promise<Uint8Array[]> {
  return new Promise((resolve, reject) => {
    const parts: Uint8Array[] = [];
    let total = 0;
    let settled = false;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      body.off("data", onData);
      if (err === undefined) resolve(parts);
      else {
        body.destroy();
        reject(err);
      }
    };
    const onAbort = () => settle(abortReason(signal));
    const onData = (chunk: Uint8Array) => {
      total += chunk.byteLength;
      if (total > maxBytes) settle(tooLarge());
      else parts.push(chunk);
    };
    body.on("data", onData);
    body.once("end", () => settle());
    body.once("error", (err) => settle(err));
    // Destroyed without an error (the connection closed mid-body): not a complete answer. "close" also follows every
    // complete body, so the Error (its stack trace is costly) is made only when nothing settled first.
    body.once("close", () => settled || settle(new Error("upstream body ended early")));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
}

async function webChunks(body: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: () => Error, signal: AbortSignal): Promise<Uint8Array[]> {
  const reader = body.getReader();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortReason(signal));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {});
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) return parts;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge();
      parts.push(value);
    }
  } catch (err) {
    reader.cancel().catch(() => {});
    throw err;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** Stateless without `stream`, so one decoder serves every call. */
const utf8 = new TextDecoder();

export async function readText(res: UpstreamResponse, provider: ProviderId, maxBytes: number, signal: AbortSignal): Promise<string> {
  return utf8.decode(await readBytes(res, provider, maxBytes, signal));
}

/** Parses JSON or returns undefined; error bodies are often not JSON (HTML gateway pages, plain text). */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function mediaType(res: UpstreamResponse): string {
  return (res.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
}

export function isJsonResponse(res: UpstreamResponse): boolean {
  const type = mediaType(res);
  return type === "application/json" || type.endsWith("+json");
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Standard phrasing for a failure status, so each client only spells out what is special about its provider. */
export function errorForStatus(provider: ProviderId, status: number, retryAfterMs?: number, upstreamCode?: string): ProviderError {
  if (status === 401) return new ProviderError(provider, "auth", "provider rejected our credentials", status, undefined, upstreamCode);
  if (status === 403) return new ProviderError(provider, "auth", "provider refused access", status, undefined, upstreamCode);
  if (status === 404 || status === 405 || status === 410)
    return new ProviderError(provider, "unavailable", "provider endpoint not found (API changed?)", status, undefined, upstreamCode);
  if (status === 413) return new ProviderError(provider, "rejected", "input too large for provider", status, undefined, upstreamCode);
  if (status === 429) return new ProviderError(provider, "rate_limited", "provider rate limit reached", status, retryAfterMs, upstreamCode);
  if (status >= 400 && status < 500) return new ProviderError(provider, "rejected", "provider rejected the request", status, undefined, upstreamCode);
  return new ProviderError(provider, "unavailable", `provider unavailable (HTTP ${status})`, status, retryAfterMs, upstreamCode);
}
