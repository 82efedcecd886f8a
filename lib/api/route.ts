import { after } from "next/server";
import type { z } from "zod";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { bearerCredential, invalidApiKey, missingApiKey } from "@/lib/keys/refusals";
import type { AuthenticatedKey } from "@/lib/keys/store";
import { parseJsonBody, validate } from "@/lib/kit/body";
import { clientIp } from "@/lib/kit/client-ip";
import { type Dialect, ProtocolReply, type Refusal } from "@/lib/kit/dialect";
import { ApiError, errorBody } from "@/lib/kit/errors";
import { PEER_ADDRESS_HEADER, SANDBOX_HEADER, UPSTREAM_CALLS_HEADER } from "@/lib/kit/headers";
import { errorFields, type Logger, processLog } from "@/lib/kit/log";
import { requestIdFor } from "@/lib/kit/request-id";
import { inSpan, instruments, type RequestFacts, requestFacts, totalUpstreamCalls, withRequestFacts } from "@/lib/kit/telemetry";
import { type RateLimitBucket, type RateLimitDecision, rateLimitExceeded, rateLimitHeaders, throttleFailedAuth } from "@/lib/ratelimit";
import { type Services, services } from "@/lib/server";
import { isOperator } from "@/lib/server/health";
import { CACHE_HEADER } from "@/lib/translate/schemas";
import { requestLogEntry, requestOutcome } from "@/lib/usage/outcome";
import { type Auth, allowedMethods, bodyLimit, type Operation, ROUTES, type RoutePath } from "./manifest";
import { INTERNAL_ERROR_MESSAGE, methodNotAllowedError, noSuchEndpoint, SERVICE_UNAVAILABLE_MESSAGE } from "./refusals";

/**
 * The one wrapper every API route goes through. In order:
 *   request id → authentication (and the usage count) → rate limit → body validation → handler → sandbox header and
 *   usage recording,
 * and every response it produces — success or error — carries X-Request-Id, and for authenticated routes the
 * X-RateLimit-* headers. Errors leave as {"detail": {code, message, request_id}}; anything unexpected becomes a
 * 500 INTERNAL_ERROR without internals (the cause is logged with the request id).
 *
 * Route files use serveRoute(path, handlers): the operation's declaration in lib/api/manifest.ts says what the
 * wrapper does for it, and every method the path does not declare answers 405 with `Allow`.
 */
export interface RouteContext<TBody> {
  req: Request;
  requestId: string;
  /** Present on authenticated routes. */
  key: AuthenticatedKey;
  body: TBody;
  /** performance.now() at arrival, for latency_ms. */
  startedAt: number;
  /** The route's body cap, for handlers that read the body themselves (multipart). */
  maxBodyBytes: number;
  /** Headers the response will carry; a handler may add its own (X-Lugha-Cache). */
  headers: Headers;
  /** The path parameters (`{id}` of the manifest path), decoded, as Next.js matched them; unvalidated. */
  params: Record<string, string>;
}

/** A response the handler built itself (raw audio), with what the wrapper needs to know about it. */
export class RawReply {
  constructor(
    readonly response: Response,
    readonly sandbox: boolean,
    readonly served: {
      /** The provider that served it, for the usage breakdown and the request log. */
      provider?: string;
      /** The model that served it ("<provider>/<model>"), for the request log. */
      model?: string;
      /** What the usage count reads instead (a translation's counts), when the reply carries a file. */
      usage?: object;
    } = {},
  ) {}

  get provider(): string | undefined {
    return this.served.provider;
  }

  get model(): string | undefined {
    return this.served.model;
  }

  get usage(): object | undefined {
    return this.served.usage;
  }
}

type HandlerResult = Response | RawReply | ProtocolReply | object;

export type RouteHandler<TBody, A extends Auth> = (
  ctx: A extends "api_key" ? RouteContext<TBody> : Omit<RouteContext<TBody>, "key">,
) => Promise<HandlerResult>;

type RouteOptions<TBody, A extends Auth> = Pick<
  Operation<TBody, A>,
  "auth" | "rateLimit" | "maxBodyBytes" | "exactUsage" | "sandbox" | "recordsTranslationUsage" | "dialect" | "rateLimitFor"
> &
  Partial<Pick<Operation<TBody, A>, "ok">> & {
    /** "POST /api/v1/translate", for the usage breakdown (serveRoute sets it). */
    endpoint?: string;
    /** JSON body schema; the body is read with a byte limit and validated before the handler runs. */
    body?: z.ZodType<TBody>;
    handler: RouteHandler<TBody, A>;
  };

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** What Next.js passes a route handler after the request: the dynamic segments (`[id]`), as a Promise since Next 15. */
export interface NextRouteContext {
  params: Promise<Record<string, string | string[]>>;
}

type NextHandler = (req: Request, context: NextRouteContext) => Promise<Response> | Response;

/** One operation: the steps above around `handler`. */
export function apiRoute<TBody = undefined, A extends Auth = "api_key">(options: RouteOptions<TBody, A>) {
  const route = options.endpoint ?? "";
  const [method, template] = route.split(" ");
  return async function handle(req: Request, context?: NextRouteContext): Promise<Response> {
    const startedAt = performance.now();
    const requestId = requestIdFor(req.headers.get("x-request-id"));
    const s = services();
    const facts: RequestFacts = { upstreamAttempts: 0, upstreamBytes: 0, upstreamCalls: {} };
    const outcome: { keyId?: string; result?: unknown } = {};
    const response = await withRequestFacts(facts, () =>
      inSpan(route || "api request", { "http.request.method": method, "http.route": template, "lugha.request_id": requestId }, async (span) => {
        const res = await run(req, context, s, startedAt, requestId, outcome);
        span?.setAttribute("http.response.status_code", res.status);
        return res;
      }),
    );
    observe(s, { route, method, template, requestId, startedAt, status: response.status, headers: response.headers, facts, ...outcome });
    return response;
  };

  async function run(
    req: Request,
    context: NextRouteContext | undefined,
    s: Services,
    startedAt: number,
    requestId: string,
    outcome: { keyId?: string; result?: unknown },
  ): Promise<Response> {
    const headers = new Headers({ "X-Request-Id": requestId, "Cache-Control": "no-store" });
    const { dialect } = options;
    let key: AuthenticatedKey | undefined;
    try {
      const maxBodyBytes = bodyLimit(options, s.config) ?? DEFAULT_MAX_BODY_BYTES;
      const exact = options.exactUsage === true;
      // A key sent in a header is checked before the body is read, as on the API's own routes; another protocol's
      // fields are read before the rate limit (its bucket may depend on them), and before authentication when its key
      // is one of them.
      const credentialOf = (fields: Record<string, unknown>) => (dialect?.credential ? dialect.credential(req, fields) : bearerCredential(req));
      if (options.auth === "api_key" && !dialect?.keyInFields) key = await authenticate(s, req, credentialOf({}), exact);
      const fields = dialect ? await dialect.readFields(req, maxBodyBytes) : undefined;
      const rateLimit = fields && options.rateLimitFor ? options.rateLimitFor(fields) : options.rateLimit;
      if (options.auth === "operator") {
        requireOperator(s, req);
      } else if (options.auth === "api_key") {
        key ??= await authenticate(s, req, credentialOf(fields ?? {}), exact);
        if (rateLimit) await enforceRateLimit(s, rateLimit, key.id, headers);
      } else if (rateLimit) {
        const ip = clientIp(req, req.headers.get(PEER_ADDRESS_HEADER) ?? undefined, s.trustProxy);
        await enforceRateLimit(s, rateLimit, ip, headers, false);
      }
      const body = !options.body ? fields : fields ? validate(options.body, fields, "body") : await parseJsonBody(req, options.body, maxBodyBytes);
      const params = await pathParams(context);
      const ctx = { req, requestId, key: key!, body: body as TBody, startedAt, maxBodyBytes, params, headers };
      outcome.keyId = key?.id;
      const answer = await options.handler(ctx as never);
      const result = answer instanceof ProtocolReply ? answer.result : answer;
      outcome.result = result instanceof RawReply ? { provider: result.provider } : result;
      if (options.sandbox && isSandboxed(result)) headers.set(SANDBOX_HEADER, "true");
      if (options.sandbox) setUpstreamCalls(headers);
      const response = toResponse(answer instanceof ProtocolReply ? answer.reply : result, options.ok?.status ?? 200, headers);
      const counted = answer instanceof ProtocolReply ? answer.countedAs : undefined;
      const recorded = counted ? { endpoint: counted.endpoint, recordsTranslationUsage: counted.translation } : options;
      const status = counted?.status ?? response.status;
      if (key) recordOutcome(s, key.id, recorded, { requestId, startedAt, status, cache: headers.get(CACHE_HEADER) }, result);
      return response;
    } catch (err) {
      outcome.keyId = key?.id;
      if (options.sandbox) setUpstreamCalls(headers);
      const response = errorResponse(err, requestId, headers, s.log, dialect);
      if (key) recordOutcome(s, key.id, options, { requestId, startedAt, status: response.status });
      return response;
    } finally {
      // The request's outcome is counted in memory on every path, exact or not; it is written after the response.
      if (key) writeUsageAfterResponse(s);
    }
  }
}

/** What observe() reports of one request. */
interface Observed {
  route: string;
  method: string;
  template: string;
  requestId: string;
  startedAt: number;
  status: number;
  headers: Headers;
  facts: RequestFacts;
  keyId?: string;
  result?: unknown;
}

/**
 * The request's access line (info) and its samples of http.server.request.duration and lugha.cache.lookups. The line
 * names the key by its id and the result by its provider, model and flags: never the key, a text, audio or a term.
 */
function observe(s: Services, o: Observed) {
  const durationMs = performance.now() - o.startedAt;
  const cache = o.headers.get(CACHE_HEADER) ?? undefined;
  const served = servedBy(o.result);
  const metrics = instruments();
  metrics?.serverDuration.record(durationMs / 1000, {
    "http.request.method": o.method,
    "http.route": o.template,
    "http.response.status_code": o.status,
  });
  if (cache) metrics?.cacheLookups.add(1, { "lugha.cache.outcome": cache });
  if (!s.log.isLevelEnabled("info")) return;
  s.log.info(
    {
      event: "request",
      request_id: o.requestId,
      method: o.method,
      route: o.template,
      status: o.status,
      duration_ms: Math.round(durationMs * 10) / 10,
      key_id: o.keyId,
      provider: served.provider ?? o.facts.provider,
      model: served.model ?? o.facts.model,
      fallback: served.fallback,
      cache,
      upstream_attempts: o.facts.upstreamAttempts,
      upstream_calls: totalUpstreamCalls(o.facts.upstreamCalls),
      upstream_bytes: o.facts.upstreamBytes,
    },
    "request",
  );
}

/** Provider, model and fallback of a result: a translation's or speech answer's own, or a batch's when its items share them. */
function servedBy(result: unknown): { provider?: string; model?: string; fallback?: boolean } {
  if (typeof result !== "object" || result === null) return {};
  const r = result as { provider?: unknown; model_used?: unknown; model?: unknown; fallback_used?: unknown; results?: unknown };
  if (Array.isArray(r.results)) {
    const items = r.results.map(servedBy).filter((i) => i.provider);
    const same = <K extends "provider" | "model">(k: K) => (items.length > 0 && items.every((i) => i[k] === items[0][k]) ? items[0][k] : undefined);
    return { provider: same("provider"), model: same("model"), fallback: items.some((i) => i.fallback) || undefined };
  }
  return {
    provider: typeof r.provider === "string" ? r.provider : undefined,
    model: typeof r.model_used === "string" ? r.model_used : typeof r.model === "string" ? r.model : undefined,
    fallback: typeof r.fallback_used === "boolean" ? r.fallback_used : undefined,
  };
}

type NextMethod = "GET" | "HEAD" | "OPTIONS" | "POST" | "PUT" | "PATCH" | "DELETE";
type Handlers<P extends RoutePath> = {
  [M in keyof (typeof ROUTES)[P] as Uppercase<M & string>]: (typeof ROUTES)[P][M] extends Operation<infer B, infer A> ? RouteHandler<B, A> : never;
};

/**
 * The exports of a route file: each method the manifest declares for `path`, wrapped; every other method Next.js
 * dispatches answers 405 METHOD_NOT_ALLOWED with `Allow` (HEAD is left to Next.js where there is a GET: it runs GET and
 * drops the body); OPTIONS answers 204 with the same `Allow` (CORS headers come from next.config.mjs).
 */
export function serveRoute<P extends RoutePath>(path: P, handlers: NoInfer<Handlers<P>>): Record<NextMethod, NextHandler | undefined> {
  const allow = allowedMethods(path).join(", ");
  let dialect: Dialect | undefined;
  const notAllowed = (req: Request) => methodNotAllowed(allow, dialect)(req);
  const out: Record<NextMethod, NextHandler | undefined> = {
    GET: notAllowed,
    HEAD: notAllowed,
    POST: notAllowed,
    PUT: notAllowed,
    PATCH: notAllowed,
    DELETE: notAllowed,
    OPTIONS: () => new Response(null, { status: 204, headers: { Allow: allow } }),
  };
  for (const [method, operation] of Object.entries(ROUTES[path]) as [string, Operation<unknown, Auth>][]) {
    const handler = (handlers as Record<string, RouteHandler<unknown, Auth>>)[method.toUpperCase()];
    const endpoint = `${method.toUpperCase()} ${path}`;
    out[method.toUpperCase() as NextMethod] = apiRoute({ ...operation, endpoint, body: operation.body?.zod, handler } as RouteOptions<unknown, Auth>);
    dialect ??= operation.dialect;
    if (method === "get") out.HEAD = undefined;
  }
  return out;
}

/** The 405 envelope, with the methods the path does answer. */
export function methodNotAllowed(allow: string, dialect?: Dialect) {
  const refusal = methodNotAllowedError(allow);
  return (req: Request) => errorResponse(refusal, requestIdFor(req.headers.get("x-request-id")), undefined, undefined, dialect);
}

/**
 * Any path under /api, /health or /compat without a route of its own: 404 in the error envelope, whatever the method
 * (under /compat, in the shape of the protocol `dialectOf` names for the path).
 */
export function notFoundRoute(
  dialectOf: (pathname: string) => Dialect | undefined = () => undefined,
): Record<Exclude<NextMethod, "OPTIONS">, (req: Request) => Response> {
  const notFound = (req: Request) =>
    errorResponse(noSuchEndpoint(), requestIdFor(req.headers.get("x-request-id")), undefined, undefined, dialectOf(new URL(req.url).pathname));
  return { GET: notFound, HEAD: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound };
}

/**
 * A plain result is JSON with the operation's success status and the wrapper's headers (the common case: built once,
 * nothing copied); a Response the handler built keeps its own status and its own value of any header both set.
 */
function toResponse(result: HandlerResult, status: number, headers: Headers): Response {
  if (!(result instanceof Response) && !(result instanceof RawReply)) return Response.json(result, { status, headers });
  const response = result instanceof RawReply ? result.response : result;
  headers.forEach((value, name) => {
    if (!response.headers.has(name)) response.headers.set(name, value);
  });
  return response;
}

/** The manifest's path parameters are single segments, so a repeated one (a catch-all `[...x]`) does not occur. */
async function pathParams(context: NextRouteContext | undefined): Promise<Record<string, string>> {
  if (!context) return {};
  const params = (await context.params) ?? {};
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? value.join("/") : value]));
}

/** X-Lugha-Upstream-Calls: what the request has cost at the providers (an operation that calls them; errors too). */
function setUpstreamCalls(headers: Headers) {
  headers.set(UPSTREAM_CALLS_HEADER, String(totalUpstreamCalls(requestFacts()?.upstreamCalls ?? {})));
}

function isSandboxed(result: HandlerResult): boolean {
  if (result instanceof RawReply) return result.sandbox;
  return !(result instanceof Response) && (result as { sandbox?: unknown }).sandbox === true;
}

/**
 * How the request ended, for GET /api/v1/usage, GET /api/v1/usage/requests and the dashboard: tallied in memory,
 * written by the usage flush with the counts (no write of its own).
 */
function recordOutcome(
  s: Services,
  keyId: string,
  options: { endpoint?: string; recordsTranslationUsage?: boolean },
  request: { requestId: string; startedAt: number; status: number; cache?: string | null },
  result?: unknown,
) {
  if (!options.endpoint) return;
  const { status, requestId } = request;
  const raw = result instanceof RawReply;
  const upstreamCalls = requestFacts()?.upstreamCalls ?? {};
  const outcome = requestOutcome(
    options.endpoint,
    status,
    raw ? (result.usage ?? { provider: result.provider }) : result,
    options.recordsTranslationUsage,
    upstreamCalls,
  );
  const line = requestLogEntry(
    {
      requestId,
      endpoint: options.endpoint,
      status,
      latencyMs: performance.now() - request.startedAt,
      at: Date.now(),
      upstreamCalls: totalUpstreamCalls(upstreamCalls),
      cache: request.cache,
    },
    raw ? undefined : result,
    raw ? { provider: result.provider, model: result.model } : undefined,
  );
  s.keys.recordRequestOutcome(keyId, outcome, line);
}

/** Builds the error envelope for anything thrown inside a route (or the dialect's own shape of it). */
export function errorResponse(
  err: unknown,
  requestId: string,
  headers = new Headers({ "X-Request-Id": requestId }),
  log: Logger = processLog(),
  dialect?: Dialect,
): Response {
  const refusal = refusalFor(err, requestId, log);
  const { code, status, message, errors } = refusal;
  for (const [name, value] of Object.entries(refusal.headers)) headers.set(name, value);
  headers.set("Cache-Control", "no-store");
  const rendered = dialect ? dialect.status(code, status) : status;
  // A key refusal the protocol answers with 401 (the API's own, MCP's) says how to authenticate.
  if (rendered === 401) headers.set("WWW-Authenticate", 'Bearer realm="lugha"');
  if (dialect) return Response.json(dialect.errorBody({ code, status, message, requestId, errors }), { status: rendered, headers });
  return Response.json(errorBody(code, message, requestId, errors), { status, headers });
}

/**
 * Anything thrown inside a route in the API's own terms: an ApiError as it is, the database or limiter out of reach as
 * 503 SERVICE_UNAVAILABLE, anything else as 500 INTERNAL_ERROR without internals (the cause is logged with the request
 * id). `headers` are those the refusal brings (Retry-After, X-RateLimit-*).
 */
export function refusalFor(err: unknown, requestId: string, log: Logger = processLog()): Refusal & { headers: Record<string, string> } {
  if (err instanceof ApiError) {
    const { code, message, status } = err;
    return { code, message, status, requestId, errors: err.options.errors, headers: err.options.headers ?? {} };
  }
  if (isServiceUnavailable(err)) {
    log.error({ event: "service_unavailable", request_id: requestId, ...errorFields(err) }, "service unavailable");
    return { code: "SERVICE_UNAVAILABLE", status: 503, message: SERVICE_UNAVAILABLE_MESSAGE, requestId, headers: { "Retry-After": "5" } };
  }
  log.error({ event: "unhandled_error", request_id: requestId, ...errorFields(err) }, "unhandled error");
  return { code: "INTERNAL_ERROR", status: 500, message: INTERNAL_ERROR_MESSAGE, requestId, headers: {} };
}

/** Authorization: Bearer <HEALTH_OPERATOR_TOKEN>, else 401 (MISSING_API_KEY without a header, INVALID_API_KEY otherwise). */
function requireOperator(s: Services, req: Request) {
  if (isOperator(req, s.config.HEALTH_OPERATOR_TOKEN)) return;
  if (req.headers.get("authorization") === null)
    throw new ApiError("MISSING_API_KEY", "This endpoint is for the operator: send Authorization: Bearer <HEALTH_OPERATOR_TOKEN>.");
  throw new ApiError("INVALID_API_KEY", "The operator token is not valid.");
}

/**
 * The key the request's credential names. None → MISSING_API_KEY; anything that is not a valid, unexpired, unrevoked
 * key — wrong case, malformed, unknown — is INVALID_API_KEY.
 */
async function authenticate(s: Services, req: Request, plainKey: string | null, exact: boolean): Promise<AuthenticatedKey> {
  if (plainKey === null) throw missingApiKey();
  const ip = clientIp(req, req.headers.get(PEER_ADDRESS_HEADER) ?? undefined, s.trustProxy);
  const key = await throttleFailedAuth(
    ip,
    plainKey,
    () => (exact ? s.keys.authenticateAndCount(plainKey) : s.keys.authenticateKey(plainKey)),
    s.authThrottle,
    (k) => s.keys.isRecentlyVerifiedKey(k),
  );
  if (!key) throw invalidApiKey();
  return key;
}

/**
 * The request was counted in memory; write the counts once the response has gone out. Next's after() runs the task
 * after the response, keeps a serverless function alive until it settles, and makes `next start` wait for it on
 * SIGTERM. Outside a request scope (unit tests calling a handler directly) the task simply runs in the background.
 * Under load most requests need no task of their own: the one an earlier request scheduled, until its write takes the
 * pending counts, writes theirs too (and keeps the process alive for them just the same).
 */
function writeUsageAfterResponse(s: Services) {
  if (!s.keys.usageFlushNeeded()) return;
  const flush = () => s.keys.flushUsageAfterResponse();
  try {
    after(flush);
  } catch {
    void flush();
  }
}

async function enforceRateLimit(s: Services, bucket: RateLimitBucket, identifier: string, headers: Headers, exposeHeaders = true) {
  const decision = await s.limiter.check(bucket, identifier, s.rule(bucket));
  if (exposeHeaders) setRateLimitHeaders(headers, decision);
  if (!decision.allowed) {
    const refusal = rateLimitExceeded(bucket, decision);
    instruments()?.rateLimitRefusals.add(1, { "lugha.ratelimit.bucket": bucket });
    // Key issuance (per address, unauthenticated) answers with Retry-After only, as its OpenAPI entry documents.
    if (!exposeHeaders) throw new ApiError(refusal.code, refusal.message, { headers: { "Retry-After": String(decision.retryAfterSeconds) } });
    throw refusal;
  }
}

export function setRateLimitHeaders(headers: Headers, d: RateLimitDecision) {
  for (const [name, value] of Object.entries(rateLimitHeaders(d))) headers.set(name, value);
}

/** The database or (in fail-closed mode) the rate-limit store is out of reach: the caller should retry shortly. */
function isServiceUnavailable(err: unknown): boolean {
  return (err instanceof Error && err.name === "RateLimiterUnavailableError") || isDatabaseUnavailable(err);
}
