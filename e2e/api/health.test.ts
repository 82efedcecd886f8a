import { afterAll, describe, expect, inject, it } from "vitest";
import { startEmulatorServer } from "@/lib/providers/sandbox";
import { call, expectEnvelope, mintKey } from "../support/api";
import { OPERATOR_HEADERS, OPERATOR_TOKEN, startApp, stopAllApps } from "../support/app";

afterAll(stopAllApps);

describe("GET /health", () => {
  it("public view: status, version, each check's status, sandbox and each provider's mode and circuit — nothing operational", async () => {
    const app = await startApp({ env: { KHAYA_API_URL: "http://127.0.0.1:9/internal-khaya", PROVIDER_MODE: "auto" } });
    const res = await call(app.url, "GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "ok",
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      checks: {
        database: { status: "ok" },
        rate_limiter: { status: "ok" },
        providers: {
          status: "ok",
          sandbox: true,
          provider_a: { mode: "sandbox", circuit: "closed", out_of_credit: false },
          provider_b: { mode: "live", circuit: "closed", out_of_credit: false },
          provider_c: { mode: "sandbox", circuit: "closed", out_of_credit: false },
        },
        cache: { status: "ok" },
      },
    });
    expect(res.text).not.toMatch(/127\.0\.0\.1|internal-khaya|pglite|postgres|memory|fail_mode|uptime/);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("cache-control")).toContain("no-store");
    // A wrong token, another scheme or the token as a query gets the public view, nothing more.
    const attempts: Record<string, string>[] = [{ authorization: "Bearer not-the-operator-token" }, { authorization: `Basic ${OPERATOR_TOKEN}` }, {}];
    for (const headers of attempts) {
      expect(Object.keys((await call(app.url, "GET", `/health?token=${OPERATOR_TOKEN}`, { headers })).body)).toEqual(["status", "version", "checks"]);
    }
    // Wrong method and unknown sub-paths keep the envelope.
    expectEnvelope(await call(app.url, "POST", "/health"), 405, "METHOD_NOT_ALLOWED");
    expectEnvelope(await call(app.url, "GET", "/health/deep"), 404, "NOT_FOUND");
  });

  it("operator view (Authorization: Bearer HEALTH_OPERATOR_TOKEN): uptime, engine, limiter settings, base URLs, availability", async () => {
    const app = await startApp({ env: { KHAYA_API_URL: "http://127.0.0.1:9/internal-khaya", PROVIDER_MODE: "auto" } });
    const res = await call(app.url, "GET", "/health", { headers: OPERATOR_HEADERS });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
    expect(Number.isInteger(res.body.uptime_seconds)).toBe(true);
    expect(res.body.checks.database).toMatchObject({ status: "ok", engine: inject("database"), latency_ms: expect.any(Number) });
    expect(res.body.checks.rate_limiter).toMatchObject({ status: "ok", backend: "memory", ok: true, fail_mode: "open" });
    expect(res.body.checks.providers.provider_b).toEqual({
      mode: "live",
      circuit: "closed",
      base_url: "http://127.0.0.1:9/internal-khaya",
      configured: true,
      out_of_credit: false,
    });
    // Operator-only (the public view above has no such check): what availability took out of routing, and why.
    expect(res.body.checks.availability).toEqual({ status: "ok", store: "memory", unavailable_count: 0, unavailable: [] });
  });

  it("a token shorter than 16 characters is ignored: everyone gets the public view", async () => {
    const app = await startApp({ env: { HEALTH_OPERATOR_TOKEN: "short-token" } });
    const res = await call(app.url, "GET", "/health", { headers: { authorization: "Bearer short-token" } });
    expect(res.body.checks.database).toEqual({ status: "ok" });
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

describe("a provider out of credit (Hugging Face's 402)", () => {
  it("is reported as out of credit — not down — on /health, /status and /metrics, and is not called again meanwhile", async () => {
    const hf = await startEmulatorServer("hf", { credential: "hf_credit", controls: { failMode: "status", status: 402 } });
    try {
      const app = await startApp({ env: { PROVIDER_MODE: "auto", HF_API_URL: hf.url, HF_TOKEN: "hf_credit", HF_HUB_URL: hf.url } });
      const key = await mintKey(app.url, "credit");
      const translate = () =>
        call(app.url, "POST", "/api/v1/translate", {
          key,
          json: { text: "Good morning", source_lang: "en", target_lang: "sw", provider: "provider_c" },
        });
      const first = expectEnvelope(await translate(), 503, "PROVIDER_ERROR");
      expect(first.message).toContain("out of credit");
      const calls = hf.stats.requests;
      expectEnvelope(await translate(), 503, "PROVIDER_ERROR");
      expect(hf.stats.requests).toBe(calls);

      const health = await call(app.url, "GET", "/health");
      expect(health.body.status).toBe("degraded");
      expect(health.body.checks.providers.provider_c).toMatchObject({ circuit: "closed", out_of_credit: true });
      expect(health.body.checks.providers.provider_c.message).toMatch(/^Out of credit: the provider answers/);
      expect(health.body.checks.providers.provider_a.out_of_credit).toBe(false);
      const status = await fetch(`${app.url}/status`);
      expect(await status.text()).toContain("Out of credit: the provider answers, but refuses this account");
      const metrics = await call(app.url, "GET", "/metrics", { headers: OPERATOR_HEADERS });
      expect(metrics.text).toMatch(/lugha_provider_out_of_credit\{[^}]*lugha_provider="provider_c"[^}]*\} 1\b/);
      expect(metrics.text).toMatch(/lugha_provider_out_of_credit\{[^}]*lugha_provider="provider_a"[^}]*\} 0\b/);
    } finally {
      await hf.close();
    }
  }, 180_000);
});
