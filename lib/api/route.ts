import { after } from "next/server";
import type { z } from "zod";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { invalidApiKey, missingApiKey, notBearer } from "@/lib/keys/refusals";
import type { AuthenticatedKey } from "@/lib/keys/store";
import { parseJsonBody } from "@/lib/kit/body";
import { clientIp } from "@/lib/kit/client-ip";
import { ApiError, type ErrorCode, errorBody } from "@/lib/kit/errors";
import { PEER_ADDRESS_HEADER, SANDBOX_HEADER } from "@/lib/kit/headers";
import { requestIdFor } from "@/lib/kit/request-id";
import { type RateLimitBucket, type RateLimitDecision, rateLimitExceeded, rateLimitHeaders, throttleFailedAuth } from "@/lib/ratelimit";
import { type Services, services } from "@/lib/server";
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
 * Route files use serveRoute(path, handlers): the operation's declaration in lib/http/manifest.ts says what the
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

type HandlerResult = Response | RawReply | object;

export type RouteHandler<TBody, A extends Auth> = (
  ctx: A extends "api_key" ? RouteContext<TBody> : Omit<RouteContext<TBody>, "key">,
) => Promise<HandlerResult>;

type RouteOptions<TBody, A extends Auth> = Pick<
  Operation<TBody, A>,
  "auth" | "rateLimit" | "maxBodyBytes" | "exactUsage" | "sandbox" | "recordsTranslationUsage"
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
  return async function handle(req: Request, context?: NextRouteContext): Promise<Response> {
    const startedAt = performance.now();
    const requestId = requestIdFor(req.headers.get("x-request-id"));
    const headers = new Headers({ "X-Request-Id": requestId, "Cache-Control": "no-store" });
    let key: AuthenticatedKey | undefined;
    const s = services();
    try {
      if (options.auth === "api_key") {
        key = await authenticate(s, req, options.exactUsage === true);
        if (options.rateLimit) await enforceRateLimit(s, options.rateLimit, key.id, headers);
      } else if (options.rateLimit) {
        const ip = clientIp(req, req.headers.get(PEER_ADDRESS_HEADER) ?? undefined, s.trustProxy);
        await enforceRateLimit(s, options.rateLimit, ip, headers, false);
      }
      const maxBodyBytes = bodyLimit(options, s.config) ?? DEFAULT_MAX_BODY_BYTES;
      const body = options.body ? await parseJsonBody(req, options.body, maxBodyBytes) : undefined;
      const params = await pathParams(context);
      const ctx = { req, requestId, key: key!, body: body as TBody, startedAt, maxBodyBytes, params, headers };
      const result = await options.handler(ctx as never);
      if (options.sandbox && isSandboxed(result)) headers.set(SANDBOX_HEADER, "true");
      const response = toResponse(result, options.ok?.status ?? 200, headers);
      if (key) recordOutcome(s, key.id, options, { requestId, startedAt, status: response.status }, result);
      return response;
    } catch (err) {
      const response = errorResponse(err, requestId, headers);
      if (key) recordOutcome(s, key.id, options, { requestId, startedAt, status: response.status });
      return response;
    } finally {
      // The request's outcome is counted in memory on every path, exact or not; it is written after the response.
      if (key) writeUsageAfterResponse(s);
    }
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
  const notAllowed = methodNotAllowed(allow);
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
    if (method === "get") out.HEAD = undefined;
  }
  return out;
}

/** The 405 envelope, with the methods the path does answer. */
export function methodNotAllowed(allow: string) {
  return (req: Request) => errorResponse(methodNotAllowedError(allow), requestIdFor(req.headers.get("x-request-id")));
}

/** Any path under /api or /health without a route of its own: 404 in the error envelope, whatever the method. */
export function notFoundRoute(): Record<Exclude<NextMethod, "OPTIONS">, (req: Request) => Response> {
  const notFound = (req: Request) => errorResponse(noSuchEndpoint(), requestIdFor(req.headers.get("x-request-id")));
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
  request: { requestId: string; startedAt: number; status: number },
  result?: unknown,
) {
  if (!options.endpoint) return;
  const { status, requestId } = request;
  const raw = result instanceof RawReply;
  const outcome = requestOutcome(
    options.endpoint,
    status,
    raw ? (result.usage ?? { provider: result.provider }) : result,
    options.recordsTranslationUsage,
  );
  const line = requestLogEntry(
    { requestId, endpoint: options.endpoint, status, latencyMs: performance.now() - request.startedAt, at: Date.now() },
    raw ? undefined : result,
    raw ? { provider: result.provider, model: result.model } : undefined,
  );
  s.keys.recordRequestOutcome(keyId, outcome, line);
}

/** Builds the error envelope for anything thrown inside a route. */
export function errorResponse(err: unknown, requestId: string, headers = new Headers({ "X-Request-Id": requestId })): Response {
  let code: ErrorCode = "INTERNAL_ERROR";
  let message = INTERNAL_ERROR_MESSAGE;
  let status = 500;
  let errors: ApiError["options"]["errors"];
  if (err instanceof ApiError) {
    ({ code, message, status } = err);
    errors = err.options.errors;
    for (const [name, value] of Object.entries(err.options.headers ?? {})) headers.set(name, value);
  } else if (isServiceUnavailable(err)) {
    code = "SERVICE_UNAVAILABLE";
    status = 503;
    message = SERVICE_UNAVAILABLE_MESSAGE;
    headers.set("Retry-After", "5");
    console.error(`[${requestId}] service unavailable: ${describe(err)}`);
  } else {
    console.error(`[${requestId}] unhandled error: ${describe(err)}`);
  }
  if (code === "MISSING_API_KEY" || code === "INVALID_API_KEY") headers.set("WWW-Authenticate", 'Bearer realm="lugha"');
  headers.set("Cache-Control", "no-store");
  return Response.json(errorBody(code, message, requestId, errors), { status, headers });
}

/**
 * Authorization: Bearer <key>. No header → MISSING_API_KEY. Anything else that is not a valid, unexpired,
 * unrevoked key — another scheme (Basic …), an empty token, wrong case, a malformed or unknown key — is
 * INVALID_API_KEY: a credential was sent, and it is not acceptable.
 */
async function authenticate(s: Services, req: Request, exact: boolean): Promise<AuthenticatedKey> {
  const header = req.headers.get("authorization");
  if (header === null) throw missingApiKey();
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) throw notBearer();
  const ip = clientIp(req, req.headers.get(PEER_ADDRESS_HEADER) ?? undefined, s.trustProxy);
  const plainKey = match[1];
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

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
