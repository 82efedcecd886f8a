/** Header names more than one floor of the app uses. */

/** Marks a response served (partly) by a sandbox emulator: its text is not a real translation. */
export const SANDBOX_HEADER = "X-Lugha-Sandbox";

/**
 * The TCP peer address, stamped on every incoming request by the server (lib/api/socket-address.ts), overwriting any
 * value the client sent; lib/kit/client-ip.ts reads it when TRUST_PROXY is off.
 */
export const PEER_ADDRESS_HEADER = "x-lugha-peer-address";

/** The upstream calls (quota units) a request cost, on every answer of an operation that calls providers. */
export const UPSTREAM_CALLS_HEADER = "X-Lugha-Upstream-Calls";
