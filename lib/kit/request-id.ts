import { randomBytes } from "node:crypto";

const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * The one place request ids are made. A well-formed X-Request-Id from the caller is kept (for tracing across systems);
 * anything else gets a fresh `req_<24 hex>`.
 */
export function requestIdFor(incoming: string | null | undefined): string {
  if (incoming && INCOMING_REQUEST_ID.test(incoming)) return incoming;
  return `req_${freshHex()}`;
}

const ID_BYTES = 12;
// Random bytes for 256 ids are drawn at once: one call to the system's generator (and to the wrapper Next.js puts
// around node:crypto) per 256 requests instead of one per request.
const POOL_BYTES = ID_BYTES * 256;
let pool = Buffer.alloc(0);
let offset = 0;

function freshHex(): string {
  if (offset + ID_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  offset += ID_BYTES;
  return pool.toString("hex", offset - ID_BYTES, offset);
}
