import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { injectTraceContext, requestFacts } from "./telemetry";

/**
 * What a provider client reads of an upstream answer. A fetch Response has all of it (the in-process sandbox and tests
 * pass one); upstreamFetch answers with a Node stream as the body.
 */
export interface UpstreamResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | Readable | null;
}

/**
 * The transport of live provider calls: node:http(s) with keep-alive connections, not fetch. A translation is one small
 * JSON POST, and fetch's WHATWG machinery (Request, Headers, Response, web streams, its signal bookkeeping) cost
 * three to four times the CPU of the same request through node:http (measured: ≈400–500 µs against ≈140 µs per call,
 * 50 in flight; docs/benchmark.md). Next.js's own wrapper around fetch (data cache, dedupe, tracing) is skipped too:
 * none of it applies to an upstream POST.
 *
 * What fetch would have done and this does as well: a body of string or bytes with its Content-Length; the signal
 * cuts the request and the body; a gzip, deflate or br body (sent although not asked for) is decoded. What it hands
 * to the runtime's fetch instead, unchanged: other bodies (the multipart form of a speech upload, which fetch encodes)
 * and redirects (a 3xx with a Location is sent again through fetch, which follows it).
 */
export async function upstreamFetch(url: string, init: RequestInit): Promise<UpstreamResponse> {
  const body = init.body;
  if (body != null && typeof body !== "string" && !(body instanceof Uint8Array)) return runtimeFetch(url, init);
  const res = await nodeRequest(url, init, body ?? undefined);
  if (REDIRECTS.has(res.statusCode ?? 0) && res.headers.location) {
    res.destroy();
    return runtimeFetch(url, init);
  }
  return new NodeAnswer(res);
}

/** The runtime's fetch, past Next.js's wrapper (kept as `_nextOriginalFetch`); resolved per call, as Next.js patches late. */
function runtimeFetch(url: string, init: RequestInit): Promise<Response> {
  const current = globalThis.fetch as typeof fetch & { _nextOriginalFetch?: typeof fetch };
  return (current._nextOriginalFetch ?? current)(url, init);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// One pool per scheme for the process: connections to a provider are reused across requests, as fetch's are, and an
// idle one is closed before the server's announced Keep-Alive timeout (Node's agent reads the hint), so a reused
// connection is not one the server is closing.
const agents = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };

/**
 * A provider's URL, parsed once: every attempt names one of a handful of URLs (one per provider and model), and parsing
 * one costs more than the rest of building the request's options. Read-only: the same object serves every call.
 */
const parsedUrls = new Map<string, Readonly<URL>>();
const PARSED_URLS_MAX = 256;

export function parsedUrl(url: string): Readonly<URL> {
  let parsed = parsedUrls.get(url);
  if (!parsed) {
    if (parsedUrls.size >= PARSED_URLS_MAX) parsedUrls.clear();
    parsed = new URL(url);
    parsedUrls.set(url, parsed);
  }
  return parsed;
}

/**
 * One request. `resend`: whether a reset of a reused connection before any answer sends it once more on a new one. A
 * kept-alive connection can be closed by the server at the moment it is reused (the agent closes idle ones before the
 * server's announced timeout, but only if this process's timers run on time, and a busy event loop runs them late);
 * the server then never read the request, so sending it again is safe, and Node.js's documentation advises it. A
 * reset of a new connection, or after the answer began, is a real failure and reaches the caller.
 */
function nodeRequest(url: string, init: RequestInit, body: string | Uint8Array | undefined, resend = true): Promise<IncomingMessage> {
  const target = parsedUrl(url);
  const scheme = target.protocol === "https:" ? https : target.protocol === "http:" ? http : undefined;
  if (!scheme) return Promise.reject(new TypeError(`unsupported upstream URL scheme ${target.protocol}`));
  // No Accept-Encoding: a small JSON answer costs more to compress and decode than to send as it is.
  const headers: Record<string, string> =
    init.headers instanceof Headers ? Object.fromEntries(init.headers) : { ...(init.headers as Record<string, string>) };
  if (body !== undefined) headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
  // The attempt's span (lib/providers/http.ts) is active here: the provider sees the same trace (W3C traceparent).
  injectTraceContext(headers);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const req = scheme.request(target, { method: init.method ?? "GET", headers, agent: agents[target.protocol as "http:" | "https:"] });
    // The signal cuts the request until its answer's headers arrive; from then on whoever reads the body holds it
    // (readBytes in lib/providers/http.ts). Listened to by hand: node:http's own `signal` option watches the request
    // with end-of-stream listeners for its whole life, which cost more than the rest of sending a small request.
    const onAbort = () => req.destroy(signal!.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    let answered = false;
    req.once("response", (res: IncomingMessage) => {
      answered = true;
      signal?.removeEventListener("abort", onAbort);
      const facts = requestFacts();
      const length = Number(res.headers["content-length"]);
      if (facts && Number.isFinite(length)) facts.upstreamBytes += length;
      resolve(res);
    });
    req.once("error", (err: NodeJS.ErrnoException) => {
      signal?.removeEventListener("abort", onAbort);
      if (resend && !answered && req.reusedSocket && !signal?.aborted && (err.code === "ECONNRESET" || err.code === "EPIPE"))
        resolve(nodeRequest(url, init, body, false));
      else reject(err);
    });
    req.end(body);
  });
}

class NodeAnswer implements UpstreamResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: Readable;

  constructor(res: IncomingMessage) {
    this.status = res.statusCode ?? 0;
    this.ok = this.status >= 200 && this.status < 300;
    this.headers = new HeaderView(res.headers);
    this.body = decoded(res);
  }
}

class HeaderView {
  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }
}

/** The body as sent, or decoded as fetch would; an error (or abort) on the socket reaches whoever reads it. */
function decoded(res: IncomingMessage): Readable {
  const encoding = res.headers["content-encoding"]?.trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  res.once("error", (err) => decoder.destroy(err));
  decoder.once("close", () => res.destroy());
  return res.pipe(decoder);
}
