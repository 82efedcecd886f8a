import { afterAll, describe, expect, inject, it } from "vitest";
import { call, mintKey } from "../support/api";
import { OPERATOR_HEADERS, startApp, stopAllApps } from "../support/app";
import { sql } from "../support/db";
import { startRedis } from "../support/redis";
import { startUpstashShim } from "../support/upstash-shim";

/** What a deployment on Vercel relies on: its integrations' variable names, and a pool that survives dead connections. */
afterAll(stopAllApps);

describe("Vercel's Upstash integration (KV_REST_API_URL / KV_REST_API_TOKEN only)", () => {
  it("selects the shared Upstash store for the rate limits and the translation cache", async () => {
    const redis = await startRedis();
    const shim = await startUpstashShim(redis.url);
    try {
      const app = await startApp({ env: { KV_REST_API_URL: shim.url, KV_REST_API_TOKEN: shim.token } });
      const health = await call(app.url, "GET", "/health", { headers: OPERATOR_HEADERS });
      expect(health.status).toBe(200);
      expect(health.body.checks.rate_limiter).toMatchObject({ status: "ok", backend: "upstash", ok: true });
      expect(health.body.checks.cache).toMatchObject({ status: "ok", backend: "upstash", ok: true });
      await app.stop();
    } finally {
      await shim.stop();
      await redis.stop();
    }
  });
});

// PostgreSQL only: PGlite has no connections to lose.
if (inject("database") === "postgres") {
  describe("a pooled PostgreSQL connection that dies while idle", () => {
    it("is dropped from the pool, and the next request succeeds on a new one", async () => {
      const app = await startApp();
      const key = await mintKey(app.url, "idle connection");
      expect((await call(app.url, "GET", "/api/v1/auth/keys/me", { key })).status).toBe(200);
      // What a pooler, a firewall or a suspended function does to an idle connection: the server ends it.
      const killed = await sql<{ pid: number }>(
        app.databaseUrl,
        "SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle'",
      );
      expect(killed.length).toBeGreaterThan(0);
      const again = await call(app.url, "GET", "/api/v1/auth/keys/me", { key });
      expect(again.status).toBe(200);
      expect((await call(app.url, "GET", "/health")).status).toBe(200);
      expect(app.process.exitCode).toBeNull();
    });
  });
}
