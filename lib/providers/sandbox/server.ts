import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createEmulator } from "./create";
import type { Emulator, EmulatorKind, EmulatorOptions, FetchHandler } from "./emulator";

export interface EmulatorServerOptions extends EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
}

export interface EmulatorServer extends Emulator {
  /** e.g. "http://127.0.0.1:41234"; use as SUNBIRD_API_URL / KHAYA_API_URL / HF_API_URL. */
  readonly url: string;
  close(): Promise<void>;
}

/** Request headers a proxy would not forward, and which undici will not accept on a Request. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length", "expect"]);

/**
 * Serves an emulator over real loopback HTTP (node:http), so clients are tested through real sockets: timeouts, resets,
 * bodies cut mid-way. Drive it in-process through the returned handle, or from another process via /__control.
 */
export async function startEmulatorServer(kind: EmulatorKind, opts: EmulatorServerOptions = {}): Promise<EmulatorServer> {
  const emulator = createEmulator(kind, opts);
  const server = http.createServer((req, res) => void serve(emulator.handler, req, res));
  server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1");
  await once(server, "listening");
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return Object.assign(emulator, {
    url: `http://${host}:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

async function serve(handler: FetchHandler, req: http.IncomingMessage, res: http.ServerResponse) {
  // The client going away (socket closed before we finished) aborts the handler, e.g. a "hang".
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
    if (body && body.byteLength > 0) headers.set("content-length", String(body.byteLength));
    const request = new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
      method: req.method,
      headers,
      body,
      signal: abort.signal,
    });
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    const reader = response.body.getReader();
    abort.signal.addEventListener("abort", () => void reader.cancel().catch(() => {}), { once: true });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await once(res, "drain");
    }
    res.end();
  } catch {
    // A reset fault, a body stream that fails mid-way, or a client that left: drop the connection without an answer.
    req.socket.destroy();
  }
}
