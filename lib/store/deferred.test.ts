import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { loadConfig } from "@/lib/config";
import { processLog } from "@/lib/kit/log";
import { createRateLimiter } from "@/lib/ratelimit";
import { storeSettings } from "@/lib/server/settings";
import { type RedisServer, startRedis } from "../../e2e/support/redis";
import { deferredBackend } from "./index";

afterEach(() => vi.restoreAllMocks());

describe("deferredBackend", () => {
  test("builds once, in the background, and every call gets that one backend", async () => {
    const build = vi.fn(async () => ({ id: Math.random() }));
    const backend = deferredBackend("test", "redis", build);
    expect(build).toHaveBeenCalledTimes(1); // started at creation, not at the first call
    const [a, b] = await Promise.all([backend.get(), backend.get()]);
    expect(a).toBe(b);
    expect(await backend.get()).toBe(a);
    expect(build).toHaveBeenCalledTimes(1);
  });

  test("a backend that cannot be built is reported once; every call fails with its error; health says misconfigured", async () => {
    const error = vi.spyOn(processLog(), "error").mockImplementation(() => {});
    const cause = new TypeError("Invalid URL");
    const backend = deferredBackend("cache", "upstash", async () => {
      throw cause;
    });
    await expect(backend.get()).rejects.toBe(cause);
    await expect(backend.get()).rejects.toBe(cause);
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]).toEqual([
      { event: "store_misconfigured", component: "cache", store: "upstash", err_name: "TypeError", err_message: "Invalid URL" },
      "cannot configure the store",
    ]);
    expect(backend.misconfigured(cause)).toEqual({ ok: false, detail: "upstash misconfigured (TypeError)" });
  });
});

describe("a rate limiter on Redis, its client loaded in the background", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("checks made at once after creation wait for the client and count in the shared store", async () => {
    const rule = { limit: 2, windowMs: 60_000 };
    const first = createRateLimiter({ store: storeSettings(loadConfig({ REDIS_URL: server.url }), 300), failMode: "open" });
    const second = createRateLimiter({ store: storeSettings(loadConfig({ REDIS_URL: server.url }), 300), failMode: "open" }); // another instance sharing the store
    expect(first.name).toBe("redis");
    const decisions = [await first.check("translate", "deferred-key", rule), await second.check("translate", "deferred-key", rule)];
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 1],
      [true, 0],
    ]);
    expect((await first.check("translate", "deferred-key", rule)).allowed).toBe(false);
    expect(await first.health()).toMatchObject({ ok: true });
  });
});
