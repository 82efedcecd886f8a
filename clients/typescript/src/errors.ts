import type { components } from "../generated/schema.js";

/** An error code of the API (`detail.code`); the client adds `CONNECTION_ERROR`, `TIMEOUT` and `INVALID_RESPONSE`. */
export type ErrorCode = components["schemas"]["ErrorBody"]["detail"]["code"];
/** One problem of a 422 (`detail.errors[]`): where (`loc`), what (`msg`) and its kind (`type`). */
export type FieldError = components["schemas"]["FieldError"];

export interface LughaErrorInit {
  status: number;
  code: string;
  message: string;
  requestId?: string | null;
  errors?: FieldError[];
  retryAfter?: number | null;
  body?: unknown;
  cause?: unknown;
}

/**
 * An answer of the API that is not a success: always `{"detail": {"code", "message", "request_id"}}` on the wire.
 * `status` is the HTTP status; `code` the machine-readable reason (e.g. `RATE_LIMIT_EXCEEDED`); `requestId` is what
 * to quote when reporting a problem; `errors` locates each invalid field of a 422; `retryAfter` (seconds) is set when
 * the server sent `Retry-After` (429, and 503 while a provider or the service is unavailable).
 */
export class LughaError extends Error {
  override readonly name: string = "LughaError";
  readonly status: number;
  readonly code: ErrorCode | (string & {});
  readonly requestId: string | null;
  readonly errors: FieldError[] | undefined;
  readonly retryAfter: number | null;
  /** The response body as received (parsed JSON when it was JSON, else its text). */
  readonly body: unknown;

  constructor(init: LughaErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
    this.errors = init.errors;
    this.retryAfter = init.retryAfter ?? null;
    this.body = init.body;
  }
}

/**
 * The server could not be reached, or did not answer in time (`code` `CONNECTION_ERROR` or `TIMEOUT`, `status` 0):
 * nothing came back. The underlying error is `cause`.
 */
export class LughaConnectionError extends LughaError {
  override readonly name: string = "LughaConnectionError";
}

/** The error a non-2xx response stands for, from its `{"detail": …}` body when it has one. */
export async function errorFromResponse(response: Response, retryAfter: number | undefined): Promise<LughaError> {
  const text = await response.text().catch(() => "");
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: kept as text */
  }
  const detail = typeof body === "object" && body !== null ? (body as { detail?: unknown }).detail : undefined;
  const d = typeof detail === "object" && detail !== null ? (detail as Record<string, unknown>) : undefined;
  const headerId = response.headers.get("x-request-id");
  return new LughaError({
    status: response.status,
    code: typeof d?.code === "string" ? d.code : `HTTP_${response.status}`,
    message:
      typeof d?.message === "string"
        ? d.message
        : `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}: ${text.slice(0, 200)}`,
    requestId: typeof d?.request_id === "string" ? d.request_id : headerId,
    errors: Array.isArray(d?.errors) ? (d.errors as FieldError[]) : undefined,
    retryAfter: retryAfter ?? null,
    body,
  });
}
