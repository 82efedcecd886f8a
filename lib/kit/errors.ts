/**
 * The one error table of the API: every code, its HTTP status.
 * The body is always {"detail": {"code", "message", "request_id", "errors"?}}.
 */
export const ERROR_STATUS = {
  INVALID_JSON: 400,
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_ERROR: 422,
  UNSUPPORTED_LANGUAGE: 422,
  UNSUPPORTED_LANGUAGE_PAIR: 422,
  PROVIDER_UNSUPPORTED_PAIR: 422,
  TEXT_TOO_LONG: 422,
  BATCH_TOO_LARGE: 422,
  SAME_LANGUAGE: 422,
  UNSUPPORTED_VOICE: 422,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  PROVIDER_ERROR: 503,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One entry of a 422's detail.errors: where (["body","name"]), what, and a machine-readable type. */
export interface FieldError {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }
}

export function errorBody(code: ErrorCode, message: string, requestId: string, errors?: FieldError[]) {
  return { detail: { code, message, request_id: requestId, ...(errors ? { errors } : {}) } };
}
