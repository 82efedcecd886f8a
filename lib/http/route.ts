import { randomBytes } from "node:crypto";
import { after } from "next/server";
import type { z } from "zod";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { type AuthenticatedKey, authenticateAndCount, authenticateKey, flushUsageAfterResponse } from "@/lib/keys/store";
import { getRateLimiter, type RateLimitBucket, type RateLimitDecision, ruleFor } from "@/lib/ratelimit";
import { throttleFailedAuth } from "./auth-throttle";
import { parseJsonBody } from "./body";
import { clientIp } from "./client-ip";
import { ApiError, type ErrorCode, errorBody } from "./errors";
import { PEER_ADDRESS_HEADER } from "./socket-address";

/**
 * The one wrapper every API route goes through. In order:
 *   request id → authentication (and the usage count) → rate limit → body validation → handler,
 * and every response it produces — success or error — carries X-Request-Id, and for authenticated routes the
 * X-RateLimit-* headers. Errors leave as {"detail": {code, message, request_id}}; anything unexpected becomes a
 * 500 INTERNAL_ERROR without internals (the cause is logged with the request id).
 */
export interface RouteContext<TBody> {
  req: Request;
  requestId: string;
  /** Present on authenticated routes. */
  key: AuthenticatedKey;
  body: TBody;
  /** performance.now() at arrival, for latency_ms. */
  startedAt: number;
}

type Auth = "api_key" | "none";

interface RouteOptions<TBody, A extends Auth> {
  auth: A;
  /** Budget this route spends: per key for authenticated routes, per client IP for `issuance`. */
  rateLimit?: RateLimitBucket;
  /** JSON body schema; the body is read with a byte limit and validated before the handler runs. */
  body?: z.ZodType<TBody>;
  maxBodyBytes?: number;
  /**
   * The handler reports requests_total / last_used_at (GET and DELETE /keys/me): authenticate against the database
   * and count in the same statement, so the figure includes this request exactly. Other routes use the cached key and
   * the batched counter (lib/keys/store.ts), and key.requestsTotal / key.lastUsedAt are null there.
   */
  exactUsage?: boolean;
  handler: (ctx: A extends "api_key" ? RouteContext<TBody> : Omit<RouteContext<TBody>, "key">) => Promise<Response | object>;
}

const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export function apiRoute<TBody = undefined, A extends Auth = "api_key">(options: RouteOptions<TBody, A>) {
  return async function handle(req: Request): Promise<Response> {
    const startedAt = performance.now();
    const requestId = requestIdFor(req);
    const headers = new Headers({ "X-Request-Id": requestId, "Cache-Control": "no-store" });
    try {
      let key: AuthenticatedKey | undefined;
      if (options.auth === "api_key") {
        key = await authenticate(req, options.exactUsage === true);
        if (!options.exactUsage) writeUsageAfterResponse();
        if (options.rateLimit) await enforceRateLimit(options.rateLimit, key.id, headers);
      } else if (options.rateLimit) {
        await enforceRateLimit(options.rateLimit, clientIp(req, req.headers.get(PEER_ADDRESS_HEADER) ?? undefined), headers, false);
      }
      const body = options.body ? await parseJsonBody(req, options.body, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) : undefined;
      const ctx = { req, requestId, key: key!, body: body as TBody, startedAt };
      const result = await options.handler(ctx as never);
      const response = result instanceof Response ? result : Response.json(result);
      headers.forEach((value, name) => {
        if (!response.headers.has(name)) response.headers.set(name, value);
      });
      return response;
    } catch (err) {
      return errorResponse(err, requestId, headers);
    }
  };
}

/** Builds the error envelope for anything thrown inside a route. */
export function errorResponse(err: unknown, requestId: string, headers = new Headers({ "X-Request-Id": requestId })): Response {
  let code: ErrorCode = "INTERNAL_ERROR";
  let message = "An unexpected error occurred. Quote the request id when reporting it.";
  let status = 500;
  let errors: ApiError["options"]["errors"];
  if (err instanceof ApiError) {
    ({ code, message, status } = err);
    errors = err.options.errors;
    for (const [name, value] of Object.entries(err.options.headers ?? {})) headers.set(name, value);
  } else if (isServiceUnavailable(err)) {
    code = "SERVICE_UNAVAILABLE";
    status = 503;
    message = "The service is temporarily unavailable. Retry shortly.";
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
async function authenticate(req: Request, exact: boolean): Promise<AuthenticatedKey> {
  const header = req.headers.get("authorization");
  if (header === null) {
    throw new ApiError("MISSING_API_KEY", "No API key was sent. Add the header: Authorization: Bearer svc_<your key>.");
  }
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) {
    throw new ApiError("INVALID_API_KEY", "The Authorization header must be: Bearer svc_<your key>.");
  }
  const ip = clientIp(req, req.headers.get(PEER_ADDRESS_HEADER) ?? undefined);
  const key = await throttleFailedAuth(ip, match[1], () => (exact ? authenticateAndCount(match[1]) : authenticateKey(match[1])));
  if (!key) throw new ApiError("INVALID_API_KEY", "The API key is invalid, expired or revoked.");
  return key;
}

/**
 * The request was counted in memory; write the counts once the response has gone out. Next's after() runs the task
 * after the response, keeps a serverless function alive until it settles, and makes `next start` wait for it on
 * SIGTERM. Outside a request scope (unit tests calling a handler directly) the task simply runs in the background.
 */
function writeUsageAfterResponse() {
  try {
    after(flushUsageAfterResponse);
  } catch {
    void flushUsageAfterResponse();
  }
}

async function enforceRateLimit(bucket: RateLimitBucket, identifier: string, headers: Headers, exposeHeaders = true) {
  const decision = await getRateLimiter().check(bucket, identifier, ruleFor(bucket));
  if (exposeHeaders) setRateLimitHeaders(headers, decision);
  if (!decision.allowed) {
    headers.set("Retry-After", String(decision.retryAfterSeconds));
    const what = bucket === "issuance" ? "Too many keys issued from this address" : `Rate limit of ${decision.limit} ${bucket} requests exceeded`;
    throw new ApiError("RATE_LIMIT_EXCEEDED", `${what}. Retry after ${decision.retryAfterSeconds} s.`);
  }
}

export function setRateLimitHeaders(headers: Headers, d: RateLimitDecision) {
  headers.set("X-RateLimit-Limit", String(d.limit));
  headers.set("X-RateLimit-Remaining", String(Math.max(0, d.remaining)));
  // Unix time (seconds) at which the window has fully refilled, as GitHub and most APIs report it.
  headers.set("X-RateLimit-Reset", String(Math.ceil(d.resetAt / 1000)));
}

/** The database or (in fail-closed mode) the rate-limit store is out of reach: the caller should retry shortly. */
function isServiceUnavailable(err: unknown): boolean {
  return (err instanceof Error && err.name === "RateLimiterUnavailableError") || isDatabaseUnavailable(err);
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** Honours a well-formed X-Request-Id from the caller (for tracing across systems); otherwise makes one. */
function requestIdFor(req: Request): string {
  const incoming = req.headers.get("x-request-id");
  if (incoming && INCOMING_REQUEST_ID.test(incoming)) return incoming;
  return `req_${randomBytes(12).toString("hex")}`;
}

/** Shared helper for handlers that answer with an error outside the wrapper (404 and 405 catch-alls). */
export function plainError(code: ErrorCode, message: string, extraHeaders: Record<string, string> = {}) {
  return (req: Request) => errorResponse(new ApiError(code, message, { headers: extraHeaders }), requestIdFor(req));
}
