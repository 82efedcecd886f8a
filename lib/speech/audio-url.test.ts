import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/kit/errors";
import { fetchAudioUrl, InFlightBudget, isListed, isNonPublicAddress } from "./audio-url";

const POLICY = { allowedHosts: [], maxBytes: 1024, timeoutMs: 2_000 };

describe("audio_url address rules", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.20.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.100.100.200",
    "0.0.0.0",
    "::1",
    "::",
    "fe80::1",
    "fd00:ec2::254",
    "::ffff:7f00:1",
    "::ffff:a9fe:a9fe",
    "::ffff:10.0.0.1",
    "::ffff:8.8.8.8",
    "::7f00:1",
    "::10.0.0.1",
    "2002:7f00:1::1",
    "2002:a9fe:a9fe::",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::a00:1",
    "224.0.0.1",
  ])("%s is not public", (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])("%s is public", (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it.each([
    ["file:///etc/passwd", "only https"],
    ["http://example.org/a.wav", "only https"],
    ["https://user:pw@example.org/a.wav", "credentials"],
    ["https://169.254.169.254/latest/meta-data/", "private, loopback"],
    ["https://[::1]/a.wav", "private, loopback"],
    ["https://metadata.google.internal/computeMetadata/v1/", "metadata"],
    ["not a url", "not a valid"],
  ])("refuses %s before any connection, naming audio_url and not the URL", async (url, why) => {
    const err = await fetchAudioUrl(url, POLICY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(422);
    expect(e.options.errors?.[0].loc).toEqual(["body", "audio_url"]);
    expect(e.message).toContain(why);
    const host = url.split("/")[2];
    if (host) expect(e.message).not.toContain(host);
  });
});

describe("AUDIO_URL_ALLOWED_HOSTS", () => {
  it.each([
    ["http://media.local/a.wav", ["media.local"], true],
    ["http://media.local:8080/a.wav", ["media.local"], false],
    ["http://media.local:8080/a.wav", ["media.local:8080"], true],
    ["http://media.local:8081/a.wav", ["media.local:8080"], false],
    ["https://media.local/a.wav", ["media.local:443"], true],
    ["http://[::1]:9000/a.wav", ["[::1]:9000"], true],
    ["http://[::1]:9000/a.wav", ["::1"], false],
    ["http://[::1]/a.wav", ["::1"], true],
  ] as const)("%s with %j listed: %s", (url, hosts, listed) => {
    expect(isListed(new URL(url), hosts)).toBe(listed);
  });
});

/** A loopback media server whose handler writes what a test needs; counts the bytes it managed to send. */
async function mediaServer(handle: (path: string, res: ServerResponse) => void) {
  const server = createServer((req, res) => handle(req.url ?? "/", res));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

/** Writes 64 kB chunks for as long as the client reads them; `sent` counts the bytes that were written. */
function endless(res: ServerResponse, status: number, headers: Record<string, string>, counter: { sent: number }) {
  res.writeHead(status, headers);
  const chunk = Buffer.alloc(64 * 1024);
  const pump = () => {
    while (!res.destroyed && counter.sent < 64 * 1024 * 1024) {
      counter.sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
  };
  res.on("error", () => {});
  pump();
}

describe("audio_url connections", () => {
  it.each([
    ["a redirect", 302, { location: "/elsewhere" }],
    ["an error status", 500, {}],
  ] as const)("are closed after %s: the body is not read on", async (_what, status, headers) => {
    const counter = { sent: 0 };
    const media = await mediaServer((path, res) => {
      if (path === "/elsewhere") return void res.writeHead(404).end();
      endless(res, status, headers, counter);
    });
    try {
      const err = await fetchAudioUrl(`${media.url}/a.wav`, { ...POLICY, allowedHosts: [media.host], maxBytes: 1024 * 1024 }).catch((e) => e);
      expect(err).toBeInstanceOf(ApiError);
      const after = counter.sent;
      await new Promise((r) => setTimeout(r, 500));
      // What the socket buffers can take, at most; a resumed (not destroyed) response would have read megabytes more.
      expect(counter.sent - after).toBeLessThan(4 * 1024 * 1024);
      expect(counter.sent).toBeLessThan(8 * 1024 * 1024);
    } finally {
      await media.close();
    }
  });

  it("are closed when the body passes AUDIO_URL_MAX_BYTES", async () => {
    const counter = { sent: 0 };
    const media = await mediaServer((_path, res) => endless(res, 200, { "content-type": "audio/wav" }, counter));
    try {
      const err = (await fetchAudioUrl(`${media.url}/a.wav`, { ...POLICY, allowedHosts: [media.host], maxBytes: 256 * 1024 }).catch(
        (e) => e,
      )) as ApiError;
      expect(err.status).toBe(413);
      const after = counter.sent;
      await new Promise((r) => setTimeout(r, 500));
      expect(counter.sent - after).toBeLessThan(4 * 1024 * 1024);
    } finally {
      await media.close();
    }
  });
});

describe("InFlightBudget", () => {
  it("reserves per key and per process; 429 for the key's share, 503 for the process's, both with Retry-After", () => {
    const budget = new InFlightBudget(100, 50);
    const a1 = budget.reserve("a", 25);
    const a2 = budget.reserve("a", 25);
    const a3 = (() => {
      try {
        budget.reserve("a", 25);
      } catch (e) {
        return e as ApiError;
      }
    })();
    expect(a3?.status).toBe(429);
    expect(a3?.options.headers?.["Retry-After"]).toMatch(/^\d+$/);
    budget.reserve("b", 25);
    budget.reserve("c", 25);
    expect(budget.reserved).toBe(100);
    const d = (() => {
      try {
        budget.reserve("d", 25);
      } catch (e) {
        return e as ApiError;
      }
    })();
    expect(d?.status).toBe(503);
    expect(d?.options.headers?.["Retry-After"]).toMatch(/^\d+$/);
    a1();
    a1(); // a second release gives nothing back twice
    expect(budget.reserved).toBe(75);
    a2();
    expect(() => budget.reserve("a", 25)).not.toThrow();
  });

  it("always lets one fetch run, whatever the budget", () => {
    const budget = new InFlightBudget(10, 10);
    const release = budget.reserve("a", 25);
    expect(() => budget.reserve("b", 25)).toThrow(ApiError);
    release();
    expect(budget.reserved).toBe(0);
  });

  it("gives the room back on every way out of a fetch", async () => {
    const media = await mediaServer((path, res) => {
      if (path === "/ok.wav") res.writeHead(200).end("RIFF....");
      else res.writeHead(404).end();
    });
    const budget = new InFlightBudget(1024, 1024);
    const policy = { ...POLICY, allowedHosts: [media.host], inFlight: budget };
    try {
      await fetchAudioUrl(`${media.url}/ok.wav`, policy, undefined, "k");
      await fetchAudioUrl(`${media.url}/missing.wav`, policy, undefined, "k").catch(() => {});
      await fetchAudioUrl(`${media.url.replace(/:\d+$/, ":1")}/a.wav`, { ...policy, allowedHosts: ["127.0.0.1:1"] }, undefined, "k").catch(() => {});
      expect(budget.reserved).toBe(0);
    } finally {
      await media.close();
    }
  });
});
