import { ApiError } from "@/lib/kit/errors";

/*
 * The wrapper's own answers that are not about a credential, a body or a rate limit (those are built in lib/keys,
 * lib/kit/body.ts and lib/ratelimit): answered by lib/api/route.ts and quoted by the OpenAPI examples.
 */

/** 404 NOT_FOUND: no such endpoint, whatever the method. */
export function noSuchEndpoint(): ApiError {
  return new ApiError("NOT_FOUND", "No such endpoint. See /docs for the API reference.");
}

/** 405 METHOD_NOT_ALLOWED, with the methods the path does answer (`allow`, as the Allow header lists them). */
export function methodNotAllowedError(allow: string): ApiError {
  return new ApiError("METHOD_NOT_ALLOWED", `This endpoint does not accept that method. Allowed: ${allow}.`, { headers: { Allow: allow } });
}

/** The message of a 500 INTERNAL_ERROR: nothing of the cause, which is logged with the request id. */
export const INTERNAL_ERROR_MESSAGE = "An unexpected error occurred. Quote the request id when reporting it.";

/** The message of a 503 SERVICE_UNAVAILABLE (database, or in fail-closed mode the rate limiter, out of reach). */
export const SERVICE_UNAVAILABLE_MESSAGE = "The service is temporarily unavailable. Retry shortly.";
