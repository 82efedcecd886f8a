import { ApiError } from "@/lib/kit/errors";

/*
 * The Bearer credential (the API's own routes and OpenAI's protocol send the key so), and the refusals of a credential,
 * built here only: the wrapper (lib/api/route.ts) and the glossary store answer with them, and the OpenAPI examples
 * quote them (lib/api/openapi/errors.ts).
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

/**
 * Authorization: Bearer <key>, or null without the header. Any other form — another scheme (Basic …), an empty token
 * — is INVALID_API_KEY: a credential was sent, and it is not acceptable.
 */
export function bearerCredential(req: Request): string | null {
  const header = req.headers.get("authorization");
  if (header === null) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) throw notBearer();
  return match[1];
}
