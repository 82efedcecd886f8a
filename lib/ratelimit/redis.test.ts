import IORedis from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { describeOutageContract, describeStoreContract, restartableRedis } from "@/e2e/support/ratelimit-contract";
import { type RedisServer, startRedis } from "../../e2e/support/redis";
import { RedisRateLimitStore } from "./redis";

const TIMEOUT_MS = 300;
let server: RedisServer;
const stores: RedisRateLimitStore[] = [];

/** Every store made here is closed after the file, so no client keeps reconnecting to a stopped server. */
function store(url = server.url) {
  const s = new RedisRateLimitStore({ url, timeoutMs: TIMEOUT_MS });
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

describeStoreContract("redis", { create: () => store(), shared: true });

describeOutageContract(
  "redis",
  {
    createAt: (port) => store(`redis://127.0.0.1:${port}`),
    restartable: () => restartableRedis((url) => store(url)),
  },
  TIMEOUT_MS,
);

describe("redis store specifics", () => {
  test("the log key expires with its window, so idle identifiers leave nothing behind", async () => {
    await store().check("translate", "ttl-probe", { limit: 5, windowMs: 2_000 });
    const probe = new IORedis(server.url);
    try {
      const ttl = await probe.pttl("lugha:rl:log:translate:ttl-probe");
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(2_000);
    } finally {
      probe.disconnect();
    }
  });
});
