import { json, text } from "./respond";

/** Sunbird's error envelopes, shared by its translation and speech routes. */

/** The APIException envelope (app/core/exceptions.py); `details` only when non-empty. */
export function apiError(status: number, code: string, message: string, details?: unknown[], headers: Record<string, string> = {}): Response {
  return json(status, { error_code: code, message, timestamp: new Date().toISOString(), ...(details?.length && { details }) }, headers);
}

/** The custom 422 handler's shape. */
export function validationError(loc: (string | number)[], msg: string, input: unknown): Response {
  return json(422, { errors: [{ loc, msg, input: input ?? null }] });
}

/** LargeUploadMiddleware's plain-text 413 for any POST over 100 MB. */
export function uploadTooLarge(): Response {
  return text(413, "File too large. Maximum size is 100.0MB. For larger files, only the first 10 minutes will be transcribed.");
}

/**
 * Sunbird's real answer for a status. `variant` "detail" gives the 2025-era {"detail"} bodies; "timeout" the 503
 * timeout message instead of the cold-start one.
 */
export function sunbirdError(status: number, variant: string | undefined): Response {
  if (variant === "detail") {
    const detail = status === 503 ? "Service unavailable due to timeout." : status === 500 ? "Internal server error" : "Bad request";
    return json(status, { detail });
  }
  switch (status) {
    case 400:
      return apiError(400, "BAD_REQUEST", "Source and target languages must be different");
    case 401:
      return json(401, { detail: "Could not validate credentials" }, { "www-authenticate": "Bearer" });
    case 403:
      return apiError(403, "AUTHORIZATION_ERROR", "Not enough permissions");
    case 404:
      return apiError(404, "NOT_FOUND", "Resource not found");
    case 405:
      return json(405, { detail: "Method Not Allowed" });
    case 413:
      return uploadTooLarge();
    case 422:
      return validationError(["body", "target_language"], "Field required", {});
    case 429:
      return json(429, { error: "Rate limit exceeded: 50 per 1 minute" });
    case 500:
      return json(500, { detail: "Internal server error" });
    case 502:
      return apiError(502, "EXTERNAL_SERVICE_ERROR", "An unexpected error occurred during translation. Please try again.", [
        { service: "Sunflower Translation Service", original_error: "sandbox-injected failure" },
      ]);
    case 503:
      return variant === "timeout"
        ? apiError(503, "SERVICE_UNAVAILABLE", "The request timed out. Please try again with a shorter text.")
        : apiError(503, "SERVICE_UNAVAILABLE", "The AI model is currently loading. This usually takes 2-3 minutes. Please try again shortly.");
    default:
      return apiError(status, status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST", `Sandbox-injected HTTP ${status}`);
  }
}
