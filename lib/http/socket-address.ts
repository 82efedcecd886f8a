import http from "node:http";

/**
 * Next.js does not hand route handlers the TCP peer address, and it only fills X-Forwarded-For from the socket when
 * the client did not send one — so without a proxy in front, that header is whatever the client wants it to be.
 * At start-up (instrumentation.ts) we stamp every incoming request with the real socket address under a header of
 * our own, overwriting any value the client sent; lib/http/client-ip.ts reads it when TRUST_PROXY is off.
 */
export const PEER_ADDRESS_HEADER = "x-lugha-peer-address";

let installed = false;

export function installPeerAddressHeader(): void {
  if (installed) return;
  installed = true;
  const originalEmit = http.Server.prototype.emit;
  http.Server.prototype.emit = function patchedEmit(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      req.headers[PEER_ADDRESS_HEADER] = req.socket?.remoteAddress ?? "unknown";
    }
    return (originalEmit as (this: http.Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}
