import http from "node:http";
import type { Duplex } from "node:stream";
import { errorBody } from "@/lib/kit/errors";
import { PEER_ADDRESS_HEADER } from "@/lib/kit/headers";
import { requestIdFor } from "@/lib/kit/request-id";
import { allowedMethods, type Operation, ROUTES, type RoutePath, routeFor } from "./manifest";
import { methodNotAllowedError } from "./refusals";

/**
 * Two things Next.js cannot do for a route handler, done where the Node server receives the request (installed at
 * start-up by instrumentation.ts):
 *
 * 1. The TCP peer address. Next.js does not hand it to route handlers, and it only fills X-Forwarded-For from the
 *    socket when the client did not send one — so without a proxy in front, that header is whatever the client wants
 *    it to be. Every incoming request is stamped with the real socket address under a header of our own, overwriting
 *    any value the client sent; lib/kit/client-ip.ts reads it when TRUST_PROXY is off.
 * 2. Methods outside the seven Next.js dispatches (TRACE, CONNECT, PROPFIND; and methods Node's parser does not know,
 *    which reach us as a client error). Next.js builds a
 *    WHATWG Request for them, which refuses TRACE outright (a plain-text 500 and a logged stack) and answers others
 *    with an empty 400. They are answered here instead: 405 METHOD_NOT_ALLOWED in the error envelope, with `Allow`
 *    (a route's own methods, from lib/api/manifest.ts; elsewhere the methods the server dispatches at all).
 */

export const DISPATCHED_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"];

let installed = false;

export function installPeerAddressHeader(): void {
  if (installed) return;
  installed = true;
  const originalEmit = http.Server.prototype.emit;
  http.Server.prototype.emit = function patchedEmit(this: http.Server, event: string | symbol, ...args: unknown[]) {
    const err = args[0] as { code?: string; rawPacket?: Buffer };
    if (event === "clientError" && err.code === "HPE_INVALID_METHOD") {
      answerUnknownMethod(err.rawPacket, args[1] as Duplex);
      return true;
    }
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

function answerMethodNotAllowed(req: http.IncomingMessage, res: http.ServerResponse): void {
  const header = req.headers["x-request-id"];
  const route = routeFor(new URL(req.url ?? "/", "http://localhost").pathname);
  const { headers, body } = methodNotAllowed(requestIdFor(Array.isArray(header) ? header[0] : header), route);
  res.writeHead(405, headers);
  res.end(body);
}

/**
 * A method Node's HTTP parser does not know (BREW) ends parsing: there is no request object, only the bytes received,
 * from which the path and X-Request-Id are read; the answer is written on the socket itself.
 */
function answerUnknownMethod(received: Buffer | undefined, socket: Duplex): void {
  if (!socket.writable) return;
  const head = received?.toString("latin1", 0, 8192) ?? "";
  const target = /^\S+ (\S+) HTTP\//.exec(head)?.[1];
  const route = target ? routeFor(new URL(target, "http://localhost").pathname) : undefined;
  const incomingId = /\r\nx-request-id:[ \t]*([^\r\n]*?)[ \t]*\r\n/i.exec(head)?.[1];
  const { headers, body } = methodNotAllowed(requestIdFor(incomingId), route);
  const fields = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${fields}\r\n${body}`);
}

/** The 405 of `route` (in its protocol's shape on another protocol's route), or of any path outside the manifest. */
function methodNotAllowed(requestId: string, route: RoutePath | undefined) {
  const allow = (route ? allowedMethods(route) : DISPATCHED_METHODS).join(", ");
  const { message } = methodNotAllowedError(allow);
  const dialect = route ? Object.values(ROUTES[route]).find((o: Operation) => o.dialect)?.dialect : undefined;
  const refusal = { code: "METHOD_NOT_ALLOWED" as const, status: 405, message, requestId };
  const body = JSON.stringify(dialect ? dialect.errorBody(refusal) : errorBody(refusal.code, message, requestId));
  const headers = {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)),
    Allow: allow,
    "X-Request-Id": requestId,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    // The request body (if any) is not read: close the connection after answering rather than parse what follows.
    Connection: "close",
  };
  return { headers, body };
}
