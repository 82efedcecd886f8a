import { z } from "zod";
import { ApiError, type ErrorCode } from "@/lib/kit/errors";
import { UPSTREAM_CALLS_HEADER } from "@/lib/kit/headers";
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

/** What a request cost at the upstreams (their quota is counted in requests, charged whether or not the request succeeds). */
export const UpstreamCalls = z
  .number()
  .int()
  .min(0)
  .describe(
    "Upstream calls (quota units) this request cost: every request sent to a provider's metered API, retries and failed attempts included; 0 when nothing was sent (answered from the cache, or waiting for an identical request's answer). Also in the header X-Lugha-Upstream-Calls",
  );

/** X-Lugha-Upstream-Calls on the answers of translate, batch, catalog and speech (an OpenAPI header object). */
export const UPSTREAM_CALLS_RESPONSE_HEADER = {
  [UPSTREAM_CALLS_HEADER]: {
    description:
      "Upstream calls (quota units) this request cost, as `upstream_calls` says; on error answers too (a request that failed at the providers still spent their quota)",
    schema: { type: "integer" },
  },
};
