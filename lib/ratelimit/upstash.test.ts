import { Redis } from "@upstash/redis";
import IORedis from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { alignToWindow, describeOutageContract, describeStoreContract, restartableUpstash, sleep } from "@/e2e/support/ratelimit-contract";
import { type RedisServer, startRedis } from "../../e2e/support/redis";
import { startUpstashShim, stripUpstashFlags, type UpstashShim } from "../../e2e/support/upstash-shim";
import { counterWindowFreeAt, UpstashRateLimitStore } from "./upstash";

const TIMEOUT_MS = 300;
let server: RedisServer;
let shim: UpstashShim;

const store = (url = shim.url, token = shim.token) => new UpstashRateLimitStore({ url, token, timeoutMs: TIMEOUT_MS });

beforeAll(async () => {
  server = await startRedis();
  shim = await startUpstashShim(server.url);
});
afterAll(async () => {
  await shim?.stop();
  await server?.stop();
});

// The production client (@upstash/ratelimit + @upstash/redis, base64 responses) against a real Redis via the shim.
describeStoreContract("upstash", { create: () => store(), shared: true, align: (w) => alignToWindow(w) });

describe("counterWindowFreeAt (the arithmetic of @upstash/ratelimit's sliding window)", () => {
  const W = 60_000;
  test("a full current window frees its first slot 1 ms into the next window", () => {
    expect(counterWindowFreeAt(0, W, 10, 0, 10)).toBe(W + 1);
    expect(counterWindowFreeAt(0, W, 10, 7, 10)).toBe(W + 1);
  });
  test("previous-window weight frees a slot within the current window", () => {
    // limit 10, current 4, previous 10: need floor((1 - f) * 10) < 6, i.e. f > 0.4
    expect(counterWindowFreeAt(0, W, 4, 10, 10)).toBe(24_001);
    // not blocked at all: free from the window start
    expect(counterWindowFreeAt(0, W, 4, 5, 10)).toBe(0);
  });
  test("fully free (count below 1) when the weighted hits have all decayed", () => {
    expect(counterWindowFreeAt(0, W, 1, 0, 1)).toBe(W + 1);
    expect(counterWindowFreeAt(0, W, 4, 0, 1)).toBe(W + 45_001);
    expect(counterWindowFreeAt(0, W, 0, 4, 1)).toBe(45_001);
  });
});

describe("upstash store specifics", () => {
  test("a refusal stands within the timeout even when reading its counters hangs", async () => {
    // A proxy in front of the shim that never answers the refusal's second round trip (MGET of the window counters).
    const http = await import("node:http");
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        if (/"mget"/i.test(body.toString())) return; // hang
        const upstream = http.request(shim.url + (req.url ?? "/"), { method: req.method, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        upstream.end(body);
      });
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    try {
      const s = store(`http://127.0.0.1:${(proxy.address() as import("node:net").AddressInfo).port}`);
      const who = `slow-mget-${Date.now()}`;
      const rule = { limit: 2, windowMs: 60_000 };
      for (let i = 0; i < 2; i++) expect((await s.check("translate", who, rule)).allowed).toBe(true);
      const t0 = Date.now();
      const refused = await s.check("translate", who, rule);
      // Ended inside the guard's budget, so the guard keeps the refusal instead of falling back to "allowed".
      expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(61); // conservative (a full window), never a timestamp
    } finally {
      proxy.closeAllConnections();
      proxy.close();
    }
  });

  test("a refusal caused by the previous window's weight gets the short real wait, not the fixed window's end", async () => {
    const s = store();
    const who = `weight-${Date.now()}`;
    const rule = { limit: 3, windowMs: 2_000 };
    await alignToWindow(rule.windowMs, 100);
    for (let i = 0; i < 3; i++) expect((await s.check("translate", who, rule)).allowed).toBe(true);
    // Next window, ~5% in: the previous 3 weigh floor(0.95 * 3) = 2, so one more fits, then a refusal that lasts
    // until f > 1/3 (~0.6 s). The library's `reset` would say ~1.9 s.
    await alignToWindow(rule.windowMs, 100);
    expect((await s.check("translate", who, rule)).allowed).toBe(true);
    const refused = await s.check("translate", who, rule);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    await sleep(1_000);
    expect((await s.check("translate", who, rule)).allowed).toBe(true);
  });

  test("the shim speaks the client's protocol: base64 results, pipelines, transactions, scripts", async () => {
    const client = new Redis({ url: shim.url, token: shim.token, enableTelemetry: false });
    const key = `shim-${Date.now()}`;
    await client.set(key, "ŋgʊ̀ OK ✓");
    expect(await client.get(key)).toBe("ŋgʊ̀ OK ✓");
    expect(await client.mget(key, `${key}:missing`)).toEqual(["ŋgʊ̀ OK ✓", null]);
    expect(await client.multi().incr(`${key}:n`).incr(`${key}:n`).exec()).toEqual([1, 2]);
    const script = "#!lua flags=allow-key-locking\nreturn {KEYS[1], ARGV[1]}";
    const sha = await client.scriptLoad(script);
    expect(await client.evalsha(sha, ["k"], ["v"])).toEqual(["k", "v"]);
    expect(await client.eval(script, ["k2"], ["v2"])).toEqual(["k2", "v2"]);
    await expect(new Redis({ url: shim.url, token: "wrong", retry: { retries: 0 } }).get(key)).rejects.toThrow();
  });

  test("stripUpstashFlags: real Redis rejects allow-key-locking; the stripped script runs", async () => {
    expect(stripUpstashFlags("#!lua flags=allow-key-locking\nreturn 1")).toBe("\nreturn 1");
    expect(stripUpstashFlags("#!lua flags=no-writes,allow-key-locking\nreturn 1")).toBe("#!lua flags=no-writes\nreturn 1");
    expect(stripUpstashFlags("return 1")).toBe("return 1");
    const direct = new IORedis(server.url);
    try {
      await expect(direct.eval("#!lua flags=allow-key-locking\nreturn 1", 0)).rejects.toThrow(/flag/i);
      expect(await direct.eval(stripUpstashFlags("#!lua flags=allow-key-locking\nreturn 1"), 0)).toBe(1);
    } finally {
      direct.disconnect();
    }
  });
});

describeOutageContract(
  "upstash",
  {
    createAt: (port) => store(`http://127.0.0.1:${port}`, "token"),
    restartable: () => restartableUpstash((url, token) => store(url, token)),
  },
  TIMEOUT_MS,
);
