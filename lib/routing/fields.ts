import { ApiError, type ErrorCode } from "@/lib/http/errors";

/**
 * A request error about one field: the message names the field and says what is accepted. It never quotes what the
 * caller sent (a hostile value would be reflected into logs, pages and clients).
 */
export function fieldError(code: ErrorCode, message: string, loc: (string | number)[], type: string): ApiError {
  return new ApiError(code, message, { errors: [{ loc, msg: message, type }] });
}
