import IORedis from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { describeCacheContract, describeCacheOutageContract } from "@/e2e/support/cache-contract";
import { restartableRedis, sleep } from "@/e2e/support/ratelimit-contract";
import { type RedisServer, startRedis } from "../../e2e/support/redis";
import { RedisCacheStore } from "./redis";

const TIMEOUT_MS = 300;
let server: RedisServer;
const stores: RedisCacheStore[] = [];

/** Every store made here is closed after the file, so no client keeps reconnecting to a stopped server. */
function store(url = server.url) {
  const s = new RedisCacheStore({ url, timeoutMs: TIMEOUT_MS });
  stores.push(s);
  return s;
}

beforeAll(async () => {
  server = await startRedis();
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await server?.stop();
});

describeCacheContract("redis", { create: () => store(), shared: true, advance: sleep });

describeCacheOutageContract(
  "redis",
  {
    createAt: (port) => store(`redis://127.0.0.1:${port}`),
    restartable: () => restartableRedis((url) => store(url)),
  },
  TIMEOUT_MS,
);

describe("redis cache store specifics", () => {
  test("an entry is one string key with a PX expiry: Redis drops it by itself", async () => {
    await store().set("lugha:tc:test:px", { translated_text: "Hi" }, 5_000);
    const probe = new IORedis(server.url);
    try {
      expect(await probe.type("lugha:tc:test:px")).toBe("string");
      const ttl = await probe.pttl("lugha:tc:test:px");
      expect(ttl).toBeGreaterThan(4_000);
      expect(ttl).toBeLessThanOrEqual(5_000);
      expect(JSON.parse((await probe.get("lugha:tc:test:px"))!)).toEqual({ translated_text: "Hi" });
    } finally {
      probe.disconnect();
    }
  });

  test("a value that is not JSON reads as a miss through the guard, not as an error", async () => {
    const { GuardedCacheStore } = await import("./guard");
    const probe = new IORedis(server.url);
    try {
      await probe.set("lugha:tc:test:garbage", "{not json");
      const cache = new GuardedCacheStore(store(), { timeoutMs: TIMEOUT_MS });
      expect(await cache.get("lugha:tc:test:garbage")).toBeUndefined();
      expect((await cache.status()).degraded).toBe(false);
    } finally {
      probe.disconnect();
    }
  });
});
