import { afterAll, beforeAll } from "vitest";
import { describeCacheContract, describeCacheOutageContract } from "@/e2e/support/cache-contract";
import { restartableUpstash, sleep } from "@/e2e/support/ratelimit-contract";
import { type RedisServer, startRedis } from "../../e2e/support/redis";
import { startUpstashShim, type UpstashShim } from "../../e2e/support/upstash-shim";
import { UpstashCacheStore } from "./upstash";

const TIMEOUT_MS = 300;
let server: RedisServer;
let shim: UpstashShim;

const store = (url = shim.url, token = shim.token) => new UpstashCacheStore({ url, token, timeoutMs: TIMEOUT_MS });

beforeAll(async () => {
  server = await startRedis();
  shim = await startUpstashShim(server.url);
});
afterAll(async () => {
  await shim?.stop();
  await server?.stop();
});

// The production client (@upstash/redis, base64 responses) against a real Redis via the shim.
describeCacheContract("upstash", { create: () => store(), shared: true, advance: sleep });

describeCacheOutageContract(
  "upstash",
  {
    createAt: (port) => store(`http://127.0.0.1:${port}`, "token"),
    restartable: () => restartableUpstash((url, token) => store(url, token)),
  },
  TIMEOUT_MS,
);
