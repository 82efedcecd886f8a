import { afterAll, describe, expect, inject, it } from "vitest";
import { call, mintKey } from "../support/api";
import { OPERATOR_HEADERS, startApp, stopAllApps } from "../support/app";
import { sql } from "../support/db";
import { waitFor } from "../support/net";
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
      // What a pooler, a firewall or a suspended function does to an idle connection: the server ends it. The request's
      // own work after its response (the usage write) may still hold the connection for a moment: wait until it is idle.
      const killed = await waitFor(async () => {
        const rows = await sql<{ pid: number }>(
          app.databaseUrl,
          "SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'idle'",
        );
        if (rows.length === 0) throw new Error("no idle connection of the app's pool yet");
        return rows;
      }, 5_000);
      expect(killed.length).toBeGreaterThan(0);
      const again = await call(app.url, "GET", "/api/v1/auth/keys/me", { key });
      expect(again.status).toBe(200);
      expect((await call(app.url, "GET", "/health")).status).toBe(200);
      expect(app.process.exitCode).toBeNull();
    });
  });

  // On Vercel PGlite is refused, so this runs on PostgreSQL only.
  describe("on Vercel (VERCEL set): bodies within the platform's 4.5 MB each way", () => {
    it("an STT upload over 4 MB and a TTS text over 560 characters get Lugha's envelope, and the OpenAPI document says so", async () => {
      const app = await startApp({ env: { VERCEL: "1" } });
      const key = await mintKey(app.url, "vercel limits");
      const audio = new Uint8Array(4 * 1024 * 1024 + 100);
      audio.set(new TextEncoder().encode("RIFF"));
      const form = new FormData();
      form.set("language", "lug");
      form.set("audio", new Blob([audio], { type: "audio/wav" }), "long.wav");
      const upload = await fetch(`${app.url}/api/v1/speech/stt`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
      expect(upload.status).toBe(413);
      expect((await upload.json()).detail).toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: "The audio upload exceeds the limit of 4 MB." });

      const long = await call(app.url, "POST", "/api/v1/speech/tts", { key, json: { text: "a".repeat(561), language: "lug" } });
      expect(long.status).toBe(422);
      expect(long.body.detail.code).toBe("TEXT_TOO_LONG");
      expect(long.body.detail.message).toMatch(/^text is 561 characters; the limit is 560 characters on this deployment/);

      const doc = await call(app.url, "GET", "/api/v1/openapi.json");
      expect(doc.body.paths["/api/v1/speech/stt"].post.description).toContain("Body limit: 4 MB.");
    });
  });
}
