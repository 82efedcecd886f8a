import { ApiError, type ErrorCode } from "@/lib/kit/errors";
import { PROVIDER_IDS } from "@/lib/providers/types";

/**
 * A request error about one field: the message names the field and says what is accepted. It never quotes what the
 * caller sent (a hostile value would be reflected into logs, pages and clients).
 */
export function fieldError(code: ErrorCode, message: string, loc: (string | number)[], type: string): ApiError {
  return new ApiError(code, message, { errors: [{ loc, msg: message, type }] });
}

/** The message of an invalid `provider` field: the accepted values, never the one sent. */
export function providerChoiceError(): string {
  const quoted = ["auto", ...PROVIDER_IDS].map((id) => `'${id}'`);
  return `Input should be ${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}
