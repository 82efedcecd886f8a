import { codePointLength } from "@/lib/kit/text";
import { defaultControls, type EmulatorControls, type EmulatorStats, emptyStats, emulatorControlsSchema, type RecordedRequest } from "./controls";
import type { HfDeployment } from "./hf";
import { htmlPage, json } from "./respond";
import type { SunbirdBatchFaults } from "./sunbird-speech";

/** Which upstream an emulator speaks for: the `emulator.kind` of a provider's descriptor ("sunbird", "khaya", "hf"). */
export type EmulatorKind = string;

/** A web-standard fetch handler: usable in-process as a client's `fetch`, or behind node:http. */
export type FetchHandler = (req: Request) => Promise<Response>;

export interface EmulatorOptions {
  /**
   * The one credential the emulator accepts (token or subscription key). Unset: auth headers are not checked, so live
   * clients without a credential can be pointed at a loopback emulator; set it to exercise the real auth failures.
   */
  credential?: string;
  controls?: Partial<EmulatorControls>;
  now?: () => number;
  /** Sunbird: lifetime of signed audio URLs (default 30 minutes, as tutorial.md says). */
  signedUrlTtlMs?: number;
  /** Sunbird: how long its default STT path works on a recording before answering 502 (default 120 s, as Sunbird's does). */
  sunbirdSttWaitMs?: number;
  /** Sunbird: the longest recording its default STT path finishes within that wait, seconds (default 300). */
  sunbirdSttLongestSeconds?: number;
  /** Sunbird: batch synthesis items that fail (none by default); a test keeps the object and changes it live. */
  sunbirdBatchFaults?: SunbirdBatchFaults;
  /** Khaya: whether /v2/translate refuses two-letter codes, as the official skills doc says (default true). */
  khayaV2RejectsLegacyCodes?: boolean;
  /** Khaya: ASR codes answered with a deprecation warning although they are ISO 639-3 (as two-letter codes always are). */
  khayaDeprecatedCodes?: readonly string[];
  /** HF: model ids answered with 404 "Not Found", i.e. not deployed on hf-inference (the Hub lists no provider). */
  hfNotDeployed?: readonly string[];
  /** HF: model ids answered with 400 "Model … is not supported by provider hf-inference" (the Hub lists no provider). */
  hfNotSupported?: readonly string[];
  /** HF: "all" (default) deploys every model; "reference" declares undeployed what public reports say (see ./hf.ts). */
  hfProfile?: "all" | "reference";
  /** HF: a deployment a test keeps and changes while the emulator runs (takes precedence over the three above). */
  hfDeployment?: HfDeployment;
  /**
   * What a translation answers (after the sandbox marker): "echo" (default) the text as sent; "hostile" the text as
   * machine translation at its worst leaves it (./translation.ts): every word changed, unknown tags dropped,
   * placeholder names translated, escapes mangled, only localisation tokens intact. The tests use "hostile".
   */
  translation?: "echo" | "hostile";
}

/** What one upstream contributes; the shared machinery adds latency, fault injection, stats and the control routes. */
export interface ProviderBehaviour {
  /** Normal behaviour: auth, validation, success. */
  route(req: Request, url: URL): Promise<Response>;
  /** The provider's real error answer for `status`; `variant` picks among its body shapes. */
  errorResponse(status: number, variant: string | undefined, url: URL): Response;
  /** Its cold-start answer. */
  loadingResponse(controls: EmulatorControls, url: URL): Response;
  /** Its 429. */
  rateLimitedResponse(controls: EmulatorControls, url: URL): Response;
  /** A valid success body for the route in `url`, from which the malformed variants are cut. */
  successSample(url: URL): { contentType: string; body: string };
  /** Headers on every answer (HF's x-request-id). */
  commonHeaders?(): Record<string, string>;
  /** Whether a request costs a quota unit at this upstream (default: every request does). */
  charged?(req: Request, url: URL): boolean;
  /** The text of a translation request (its parsed JSON body), or undefined for any other request: counted in stats. */
  translationText?(url: URL, body: unknown): string | undefined;
}

export interface Emulator {
  /** The emulated upstream ("sunbird", "khaya", "hf", or a test provider's own); sent as x-sandbox. */
  readonly kind: string;
  readonly handler: FetchHandler;
  /** Live: assign fields at any time (e.g. `emulator.controls.failMode = "hang"`); the next request sees them. */
  readonly controls: EmulatorControls;
  /** Live counters; `resetStats()` (or `reset()`) zeroes them. */
  readonly stats: EmulatorStats;
  /** Replaces all controls with the defaults plus `next` (so an earlier failNext or variant does not linger). */
  setControls(next: Partial<EmulatorControls>): void;
  /** Zeroes the counters and keeps the controls (e.g. between the phases of a benchmark). */
  resetStats(): void;
  /** Default controls and zeroed stats. */
  reset(): void;
}

/** Thrown by a handler to make the transport drop the connection without an answer. */
export class ConnectionReset extends Error {
  constructor() {
    super("connection reset by emulator");
  }
}

const CONTROL_PATH = "/__control";
const MAX_RECENT = 100;
/** Text of a recorded body kept: a batch of speech items (up to 128 pieces of text) included. */
const MAX_RECORDED_TEXT = 64 * 1024;

export function createEmulatorCore(kind: string, behaviour: ProviderBehaviour, initial: Partial<EmulatorControls> = {}): Emulator {
  const controls: EmulatorControls = { ...defaultControls(), ...initial };
  const stats = emptyStats();
  let ratioCounter = 0;

  const setControls = (next: Partial<EmulatorControls>) => {
    for (const key of Object.keys(controls) as (keyof EmulatorControls)[]) delete controls[key];
    Object.assign(controls, defaultControls(), next);
    ratioCounter = 0;
  };
  const resetStats = () => void Object.assign(stats, emptyStats(), { inFlight: stats.inFlight });
  const reset = () => {
    setControls({});
    resetStats();
  };

  const shouldFail = (path: string): boolean => {
    if (controls.failMode === "none") return false;
    if (controls.pathPrefix && !path.startsWith(controls.pathPrefix)) return false;
    if (controls.failAfter !== undefined && controls.failAfter > 0) {
      controls.failAfter -= 1;
      return false;
    }
    if (controls.failNext !== undefined) {
      if (controls.failNext <= 0) return false;
      controls.failNext -= 1;
      return true;
    }
    if (controls.failRatio !== undefined) {
      ratioCounter += 1;
      return Math.floor(ratioCounter * controls.failRatio) > Math.floor((ratioCounter - 1) * controls.failRatio);
    }
    return true;
  };

  const fault = async (req: Request, url: URL): Promise<Response> => {
    switch (controls.failMode) {
      case "status":
        return behaviour.errorResponse(controls.status ?? 500, controls.variant, url);
      case "loading":
        return behaviour.loadingResponse(controls, url);
      case "rate_limited":
        return behaviour.rateLimitedResponse(controls, url);
      case "html":
        return htmlPage(controls.status ?? 200);
      case "reset":
        throw new ConnectionReset();
      case "hang":
        if (controls.variant === "body") return new Response(new ReadableStream(), { status: 200, headers: { "content-type": "application/json" } });
        return waitForAbort(req.signal);
      case "malformed":
        return malformed(behaviour.successSample(url), controls.variant);
      case "tokens":
        return damageTokens(await behaviour.route(req, url), controls.variant);
      case "none":
        return behaviour.route(req, url);
    }
  };

  const handler: FetchHandler = async (req) => {
    const url = new URL(req.url);
    if (url.pathname === CONTROL_PATH || url.pathname.startsWith(`${CONTROL_PATH}/`)) return control(req, url);
    await record(stats, req, url, behaviour);
    if (behaviour.charged?.(req, url) ?? true) stats.quotaUnits += 1; // charged before the work, as the upstreams do
    stats.inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    try {
      if (controls.latencyMs > 0) await delay(controls.latencyMs, req.signal);
      const res = shouldFail(url.pathname) ? await fault(req, url) : await behaviour.route(req, url);
      for (const [k, v] of Object.entries({ "x-sandbox": kind, ...behaviour.commonHeaders?.() })) res.headers.set(k, v);
      return res;
    } finally {
      stats.inFlight -= 1;
    }
  };

  /**
   * GET: controls and stats. POST: replace controls. PATCH: merge. POST /__control/reset: defaults and zero stats.
   * POST /__control/stats/reset: zero stats, keep controls.
   */
  const control = async (req: Request, url: URL): Promise<Response> => {
    if (url.pathname === `${CONTROL_PATH}/reset` && req.method === "POST") {
      reset();
      return json(200, { controls, stats });
    }
    if (url.pathname === `${CONTROL_PATH}/stats/reset` && req.method === "POST") {
      resetStats();
      return json(200, { controls, stats });
    }
    if (url.pathname !== CONTROL_PATH) return json(404, { error: "unknown control route" });
    if (req.method === "GET") return json(200, { controls, stats });
    if (req.method !== "POST" && req.method !== "PATCH") return json(405, { error: "use GET, POST or PATCH" });
    let body: unknown;
    try {
      body = await req.json();
    } catch {
      return json(400, { error: "body must be JSON" });
    }
    const parsed = emulatorControlsSchema.partial().safeParse(body);
    if (!parsed.success) return json(400, { error: "invalid controls", issues: parsed.error.issues });
    if (req.method === "POST") setControls(parsed.data);
    else Object.assign(controls, parsed.data);
    return json(200, { controls, stats });
  };

  return { kind, handler, controls, stats, setControls, resetStats, reset };
}

async function record(stats: EmulatorStats, req: Request, url: URL, behaviour: ProviderBehaviour) {
  const bytes = new Uint8Array(await req.clone().arrayBuffer());
  const contentType = req.headers.get("content-type") ?? "";
  const isText = /json|text|x-www-form-urlencoded/.test(contentType);
  const entry: RecordedRequest = {
    method: req.method,
    path: url.pathname + url.search,
    headers: Object.fromEntries(req.headers),
    bodyBytes: bytes.byteLength,
    ...(isText && { bodyText: new TextDecoder().decode(bytes.subarray(0, MAX_RECORDED_TEXT)) }),
  };
  stats.requests += 1;
  stats.byPath[url.pathname] = (stats.byPath[url.pathname] ?? 0) + 1;
  stats.recent.push(entry);
  if (stats.recent.length > MAX_RECENT) stats.recent.shift();
  if (behaviour.translationText && /json/.test(contentType)) {
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return; // the route answers the malformed body; there is nothing to count
    }
    const text = behaviour.translationText(url, body);
    if (text === undefined) return;
    const chars = codePointLength(text);
    stats.translations.calls += 1;
    stats.translations.totalChars += chars;
    stats.translations.maxChars = Math.max(stats.translations.maxChars, chars);
  }
}

function malformed(sample: { contentType: string; body: string }, variant: string | undefined): Response {
  const full = new TextEncoder().encode(sample.body);
  const half = full.subarray(0, Math.max(1, Math.floor(full.byteLength / 2)));
  const headers = { "content-type": sample.contentType };
  switch (variant) {
    case "garbage":
      return new Response(new Uint8Array([0x00, 0xff, 0x7b, 0x7b, 0x3c, 0x21, 0x2d, 0x2d]), { status: 200, headers });
    case "shape":
      return json(200, { unexpected: "shape", sandbox: true });
    case "cut":
      // Declares the full length, sends half, then fails the stream: the transport drops the connection mid-body.
      return new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(half);
            c.error(new ConnectionReset());
          },
        }),
        { status: 200, headers: { ...headers, "content-length": String(full.byteLength) } },
      );
    default:
      return new Response(half, { status: 200, headers });
  }
}

/**
 * The "tokens" fault: the provider's own answer with its localisation tokens damaged (see controls.ts). Works on the
 * raw body, whatever the provider's JSON shape: tokens are plain capital letters, never escaped in JSON.
 */
async function damageTokens(res: Response, variant: string | undefined): Promise<Response> {
  if (res.status !== 200) return res;
  const body = await res.text();
  const tokens = [...body.matchAll(/QZ[A-W]+?X/g)];
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  const answer = (text: string) => new Response(text, { status: res.status, headers });
  if (tokens.length === 0) return answer(body);
  const first = tokens[0];
  const at = first.index;
  const end = at + first[0].length;
  switch (variant ?? "drop") {
    case "duplicate":
      return answer(`${body.slice(0, end)} ${first[0]}${body.slice(end)}`);
    case "move": {
      const last = tokens[tokens.length - 1];
      if (last === first) return answer(body);
      return answer(body.slice(0, at) + last[0] + body.slice(end, last.index) + first[0] + body.slice(last.index + last[0].length));
    }
    case "mangle":
      return answer(`${body.slice(0, at)}QZ-${first[0].slice(2)}${body.slice(end)}`);
    default:
      return answer(body.slice(0, at) + body.slice(end));
  }
}

function waitForAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * A `fetch` that hands the request straight to an emulator: the real client code runs, only the network is skipped.
 * Like a real fetch:
 *  - an aborted request rejects with the signal's reason as soon as the signal aborts — whatever the handler is doing
 *    (a handler that never looks at `req.signal` cannot keep the caller waiting past its timeout);
 *  - a handler that fails (ConnectionReset, any exception) is a network error: TypeError("fetch failed", { cause }).
 * The abort listener is removed once the call settles, so a long-lived signal does not collect one per request.
 * (After the headers, a body that stalls is the reader's business: the clients' readBytes races the same signal.)
 */
export function inProcessFetch(handler: FetchHandler) {
  return (input: string, init: RequestInit = {}): Promise<Response> => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    let req: Request;
    try {
      req = new Request(input, init);
    } catch (err) {
      return Promise.reject(err); // a bad URL or init: fetch's own TypeError
    }
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal!.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      let answer: Promise<Response>;
      try {
        answer = handler(req);
      } catch (err) {
        answer = Promise.reject(err);
      }
      answer
        .then(resolve, (err: unknown) => reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: err })))
        .finally(() => signal?.removeEventListener("abort", onAbort));
    });
  };
}
