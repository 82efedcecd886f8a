import { afterAll, describe, expect, it } from "vitest";
import { call, expectEnvelope } from "../support/api";
import { startApp, stopAllApps } from "../support/app";

afterAll(stopAllApps);

describe("GET /health", () => {
  it("reports ok with version, uptime and the database, rate-limiter and provider checks", async () => {
    const app = await startApp();
    const res = await call(app.url, "GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Number.isInteger(res.body.uptime_seconds)).toBe(true);
    expect(res.body.checks.database).toMatchObject({ status: "ok" });
    expect(res.body.checks.rate_limiter).toMatchObject({ status: "ok", backend: "memory" });
    expect(res.body.checks.providers.sandbox).toBe(true);
    for (const id of ["provider_a", "provider_b", "provider_c"]) {
      expect(res.body.checks.providers[id]).toMatchObject({ mode: "sandbox", circuit: "closed" });
    }
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("cache-control")).toContain("no-store");
    // Wrong method and unknown sub-paths keep the envelope.
    expectEnvelope(await call(app.url, "POST", "/health"), 405, "METHOD_NOT_ALLOWED");
    expectEnvelope(await call(app.url, "GET", "/health/deep"), 404, "NOT_FOUND");
  });

  it("answers 503 'down' when the database is unreachable, and the API answers 503 SERVICE_UNAVAILABLE", async () => {
    // A closed loopback port: PostgreSQL is "down" from the first request on.
    const app = await startApp({ databaseUrl: "postgres://lugha@127.0.0.1:1/lugha", waitUntilHealthy: false });
    const health = await call(app.url, "GET", "/health");
    expect(health.status).toBe(503);
    expect(health.body.status).toBe("down");
    expect(health.body.checks.database.status).toBe("down");
    expect(health.text).not.toContain("127.0.0.1:1"); // no connection details leak
    const me = await call(app.url, "GET", "/api/v1/auth/keys/me", { key: `svc_${"a".repeat(40)}` });
    const detail = expectEnvelope(me, 503, "SERVICE_UNAVAILABLE");
    expect(detail.message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    expect(me.headers.get("retry-after")).toBe("5");
    const mint = await call(app.url, "POST", "/api/v1/auth/keys", { json: { name: "x" } });
    expectEnvelope(mint, 503, "SERVICE_UNAVAILABLE");
  });
});
