import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createNetServer, type Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { readBytes, readText } from "@/lib/providers/http";
import { upstreamFetch } from "./upstream-fetch";

/** A real upstream on loopback: each test sets what it answers; every request and connection is recorded. */
let server: Server;
let base: string;
let answer: (req: IncomingMessage, body: string, res: ServerResponse) => void;
const received: { method?: string; url?: string; headers: IncomingMessage["headers"]; body: string; socket: Socket }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body, socket: req.socket });
      answer(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(() => {
  received.length = 0;
  vi.unstubAllGlobals();
});

const never = new AbortController().signal;

describe("upstreamFetch (node:http with keep-alive)", () => {
  it("sends a JSON POST as fetch would and answers status, headers and body", async () => {
    answer = (_req, body, res) => {
      res.writeHead(201, [
        ["Content-Type", "application/json"],
        ["X-Thing", "a"],
        ["X-Thing", "b"],
      ]);
      res.end(JSON.stringify({ echoed: JSON.parse(body) }));
    };
    const payload = JSON.stringify({ text: "Wasuze otya — ✓" });
    const res = await upstreamFetch(`${base}/tasks/translate`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: payload,
    });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.headers.get("x-thing")).toBe("a, b");
    expect(res.headers.get("x-missing")).toBeNull();
    expect(JSON.parse(await readText(res, "provider_a", 1 << 20, never))).toEqual({ echoed: { text: "Wasuze otya — ✓" } });
    expect(received[0]).toMatchObject({ method: "POST", url: "/tasks/translate", body: payload });
    expect(received[0].headers).toMatchObject({ authorization: "Bearer t", "content-length": String(Buffer.byteLength(payload)) });
  });

  it("reuses one connection for calls one after another", async () => {
    answer = (_req, _body, res) => res.end("ok");
    for (let i = 0; i < 3; i++) {
      const res = await upstreamFetch(`${base}/x`, { method: "POST", body: new Uint8Array([1, 2, 3]) });
      expect(await readText(res, "provider_a", 1024, never)).toBe("ok");
    }
    expect(new Set(received.map((r) => r.socket)).size).toBe(1);
    expect(received.map((r) => r.headers["content-length"])).toEqual(["3", "3", "3"]);
  });

  it("a non-2xx answer is not ok, and its body is still readable", async () => {
    answer = (_req, _body, res) => {
      res.writeHead(503, { "Retry-After": "7" });
      res.end("busy");
    };
    const res = await upstreamFetch(`${base}/x`, { method: "POST", body: "{}" });
    expect([res.status, res.ok, res.headers.get("retry-after")]).toEqual([503, false, "7"]);
    expect(await readText(res, "provider_a", 1024, never)).toBe("busy");
  });

  it("decodes a gzip body the upstream compressed without being asked", async () => {
    answer = (_req, _body, res) => {
      res.writeHead(200, { "Content-Encoding": "gzip" });
      res.end(gzipSync("Oli otya"));
    };
    const res = await upstreamFetch(`${base}/x`, { method: "POST", body: "{}" });
    expect(await readText(res, "provider_a", 1024, never)).toBe("Oli otya");
    expect(received[0].headers["accept-encoding"]).toBeUndefined();
  });

  it("the signal cuts a body that stalls, and the connection is not reused", async () => {
    answer = (_req, _body, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"partial":');
    };
    const controller = new AbortController();
    const res = await upstreamFetch(`${base}/stall`, { method: "POST", body: "{}", signal: controller.signal });
    setTimeout(() => controller.abort(new DOMException("attempt timed out", "TimeoutError")), 50);
    const started = performance.now();
    await expect(readBytes(res, "provider_a", 1024, controller.signal)).rejects.toThrow(/timed out/);
    expect(performance.now() - started).toBeLessThan(1_000);
    answer = (_req, _body, ok) => ok.end("fresh");
    const next = await upstreamFetch(`${base}/x`, { method: "POST", body: "{}" });
    expect(await readText(next, "provider_a", 1024, never)).toBe("fresh");
    expect(received[1].socket).not.toBe(received[0].socket);
    expect(received[0].socket.destroyed).toBe(true);
  });

  it("a connection closed mid-body fails the read at once instead of waiting for the timeout", async () => {
    answer = (_req, _body, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"partial":', () => res.socket?.destroy());
    };
    const res = await upstreamFetch(`${base}/cut`, { method: "POST", body: "{}" });
    await expect(readBytes(res, "provider_a", 1024, never)).rejects.toThrow();
  });

  it("a body over the cap without a Content-Length is refused while streaming, and its connection dropped", async () => {
    answer = (_req, _body, res) => {
      res.writeHead(200, { "Content-Type": "application/json" }); // chunked: no length announced
      res.write("x".repeat(600));
      res.write("x".repeat(600));
    };
    const res = await upstreamFetch(`${base}/big`, { method: "POST", body: "{}" });
    await expect(readBytes(res, "provider_a", 1024, never)).rejects.toMatchObject({ kind: "malformed", message: "provider response too large" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received[0].socket.destroyed).toBe(true);
  });

  it("an aborted signal stops the request before an answer", async () => {
    answer = () => {}; // never answers
    const controller = new AbortController();
    const pending = upstreamFetch(`${base}/hang`, { method: "POST", body: "{}", signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("an unreachable upstream rejects (a network failure)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(upstreamFetch(`http://127.0.0.1:${port}/x`, { method: "POST", body: "{}" })).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  /**
   * A server that answers the first request of each connection and resets the connection when a second arrives on it,
   * unread: what a client meets when the server closed a kept-alive connection just as it was reused (the race is
   * widest when this process's timers run late under load). With `resetFirst`, it resets every connection unread.
   */
  async function resettingServer(resetFirst = false) {
    const seen = { connections: 0, answered: 0, reset: 0 };
    const sockets = new Set<Socket>();
    const raw = createNetServer((socket) => {
      seen.connections++;
      sockets.add(socket);
      let buffered = "";
      let requests = 0;
      socket.on("error", () => {});
      socket.on("data", (chunk) => {
        buffered += chunk;
        for (let end = buffered.indexOf("\r\n\r\n"); end >= 0; end = buffered.indexOf("\r\n\r\n")) {
          const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
          if (buffered.length < end + 4 + length) return;
          buffered = buffered.slice(end + 4 + length);
          if (resetFirst || ++requests > 1) {
            seen.reset++;
            socket.resetAndDestroy();
            return;
          }
          seen.answered++;
          socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
        }
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/x`;
    const close = () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => raw.close(resolve));
    };
    return { seen, url, close };
  }

  it("a kept-alive connection the server reset before reading the request: sent once more on a new connection", async () => {
    const upstream = await resettingServer();
    try {
      for (let i = 0; i < 3; i++) {
        const res = await upstreamFetch(upstream.url, { method: "POST", body: "{}" });
        expect(await readText(res, "provider_a", 1024, never)).toBe("ok");
      }
      // Calls 2 and 3 each met a reset on the connection the call before them left open, and went out again.
      expect(upstream.seen).toEqual({ connections: 3, answered: 3, reset: 2 });
    } finally {
      await upstream.close();
    }
  });

  it("a new connection reset before an answer is not sent again (the server may have read it): the call fails", async () => {
    const upstream = await resettingServer(true);
    try {
      await expect(upstreamFetch(upstream.url, { method: "POST", body: "{}" })).rejects.toMatchObject({ code: "ECONNRESET" });
      expect(upstream.seen).toEqual({ connections: 1, answered: 0, reset: 1 });
    } finally {
      await upstream.close();
    }
  });

  it("a redirect is followed by the runtime's fetch, with the same method and body", async () => {
    answer = (req, _body, res) => {
      if (req.url === "/old") {
        res.writeHead(307, { Location: "/new" });
        res.end();
      } else res.end(`moved: ${req.method}`);
    };
    const res = await upstreamFetch(`${base}/old`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}' });
    expect([res.status, await readText(res, "provider_a", 1024, never)]).toEqual([200, "moved: POST"]);
    expect(received.map((r) => [r.url, r.body])).toEqual([
      ["/old", '{"a":1}'],
      ["/old", '{"a":1}'],
      ["/new", '{"a":1}'],
    ]);
  });

  it("a multipart body goes through the runtime's fetch (the one Next.js wrapped, past its wrapper)", async () => {
    const original = vi.fn(async () => new Response("from the runtime"));
    const wrapper = Object.assign(
      vi.fn(async () => new Response("through the wrapper")),
      { _nextOriginalFetch: original },
    );
    vi.stubGlobal("fetch", wrapper);
    const form = new FormData();
    form.append("audio", new Blob([new Uint8Array([1, 2])]), "a.wav");
    const res = await upstreamFetch("http://upstream.test/stt", { method: "POST", body: form });
    expect(await readText(res, "provider_a", 1024, never)).toBe("from the runtime");
    expect(original).toHaveBeenCalledWith("http://upstream.test/stt", { method: "POST", body: form });
    expect(wrapper).not.toHaveBeenCalled();
  });

  it("refuses a URL that is not http or https", async () => {
    await expect(upstreamFetch("ftp://upstream.test/x", { method: "GET" })).rejects.toThrow(/unsupported upstream URL scheme/);
  });
});
