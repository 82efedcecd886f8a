import http from "node:http";
import { errorBody } from "./errors";
import { allowedMethods, routeFor } from "./manifest";
import { requestIdFor } from "./request-id";

/**
 * Two things Next.js cannot do for a route handler, done where the Node server receives the request (installed at
 * start-up by instrumentation.ts):
 *
 * 1. The TCP peer address. Next.js does not hand it to route handlers, and it only fills X-Forwarded-For from the
 *    socket when the client did not send one — so without a proxy in front, that header is whatever the client wants
 *    it to be. Every incoming request is stamped with the real socket address under a header of our own, overwriting
 *    any value the client sent; lib/http/client-ip.ts reads it when TRUST_PROXY is off.
 * 2. Methods outside the seven Next.js dispatches (TRACE, CONNECT, PROPFIND, anything unknown). Next.js builds a
 *    WHATWG Request for them, which refuses TRACE outright (a plain-text 500 and a logged stack) and answers others
 *    with an empty 400. They are answered here instead: 405 METHOD_NOT_ALLOWED in the error envelope, with `Allow`
 *    (a route's own methods, from lib/http/manifest.ts; elsewhere the methods the server dispatches at all).
 */
export const PEER_ADDRESS_HEADER = "x-lugha-peer-address";

const DISPATCHED_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"];

let installed = false;

export function installPeerAddressHeader(): void {
  if (installed) return;
  installed = true;
  const originalEmit = http.Server.prototype.emit;
  http.Server.prototype.emit = function patchedEmit(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      if (!DISPATCHED_METHODS.includes(req.method ?? "")) {
        answerMethodNotAllowed(req, args[1] as http.ServerResponse);
        return true;
      }
      req.headers[PEER_ADDRESS_HEADER] = req.socket?.remoteAddress ?? "unknown";
    }
    return (originalEmit as (this: http.Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}

export function answerMethodNotAllowed(req: http.IncomingMessage, res: http.ServerResponse): void {
  const header = req.headers["x-request-id"];
  const requestId = requestIdFor(Array.isArray(header) ? header[0] : header);
  const route = routeFor(new URL(req.url ?? "/", "http://localhost").pathname);
  const allow = (route ? allowedMethods(route) : DISPATCHED_METHODS).join(", ");
  const body = JSON.stringify(errorBody("METHOD_NOT_ALLOWED", `This endpoint does not accept that method. Allowed: ${allow}.`, requestId));
  // The request body (if any) is not read: close the connection after answering rather than parse what follows.
  res.writeHead(405, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    Allow: allow,
    "X-Request-Id": requestId,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    Connection: "close",
  });
  res.end(body);
}
