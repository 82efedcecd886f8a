import { ApiError } from "@/lib/kit/errors";

/*
 * The refusals of a credential, built here only: the wrapper (lib/api/route.ts) and the glossary store answer with
 * them, and the OpenAPI examples quote them (lib/api/openapi/errors.ts).
 */

/** 401 MISSING_API_KEY: no Authorization header. */
export function missingApiKey(): ApiError {
  return new ApiError("MISSING_API_KEY", "No API key was sent. Add the header: Authorization: Bearer svc_<your key>.");
}

/** 401 INVALID_API_KEY: a key that is malformed, unknown, expired or revoked (one answer for all: no oracle). */
export function invalidApiKey(): ApiError {
  return new ApiError("INVALID_API_KEY", "The API key is invalid, expired or revoked.");
}

/** 401 INVALID_API_KEY: an Authorization header that is not `Bearer <token>`. */
export function notBearer(): ApiError {
  return new ApiError("INVALID_API_KEY", "The Authorization header must be: Bearer svc_<your key>.");
}
