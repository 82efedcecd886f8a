import { randomBytes } from "node:crypto";

const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * The one place request ids are made. A well-formed X-Request-Id from the caller is kept (for tracing across systems);
 * anything else gets a fresh `req_<24 hex>`.
 */
export function requestIdFor(incoming: string | null | undefined): string {
  if (incoming && INCOMING_REQUEST_ID.test(incoming)) return incoming;
  return `req_${randomBytes(12).toString("hex")}`;
}
