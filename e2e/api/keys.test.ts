import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, expectEnvelope, mintKey } from "../support/api";
import { freshDatabaseUrl, type RunningApp, startApp, stopAllApps } from "../support/app";
import { dumpDatabase, sql } from "../support/db";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
let app: RunningApp;

beforeAll(async () => {
  app = await startApp();
});
afterAll(stopAllApps);

describe("POST /api/v1/auth/keys", () => {
  it("issues a key of the documented format with ISO 8601 UTC timestamps one year apart", async () => {
    const res = await call(app.url, "POST", "/api/v1/auth/keys", { json: { name: "  Kampala app  " } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["api_key", "created_at", "expires_at", "name"]);
    expect(res.body.api_key).toMatch(/^svc_[0-9a-f]{40}$/);
    expect(res.body.name).toBe("Kampala app");
    expect(res.body.created_at).toMatch(ISO_UTC);
    expect(res.body.expires_at).toMatch(ISO_UTC);
    const created = Date.parse(res.body.created_at);
    expect(Math.abs(created - Date.now())).toBeLessThan(60_000);
    expect(Date.parse(res.body.expires_at) - created).toBe(365 * 86_400_000);
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it("honours expires_in_days", async () => {
    const res = await call(app.url, "POST", "/api/v1/auth/keys", { json: { name: "short", expires_in_days: 7 } });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(7 * 86_400_000);
  });

  it.each([
    ["missing name", {}, "name", "missing"],
    ["empty name", { name: "" }, "name", "string_too_short"],
    ["whitespace-only name", { name: "   \t " }, "name", "string_too_short"],
    ["zero-width-only name", { name: "\u200B\u200D\u2060" }, "name", "string_too_short"],
    ["101-character name", { name: "a".repeat(101) }, "name", "string_too_long"],
    ["10 kB name", { name: "n".repeat(10_000) }, "name", "string_too_long"],
    ["control character", { name: "bad\u0007name" }, "name", "invalid_characters"],
    ["newline", { name: "two\nlines" }, "name", "invalid_characters"],
    ["bidi override", { name: "evil\u202Eppa" }, "name", "invalid_characters"],
    ["number name", { name: 42 }, "name", "string_type"],
    ["null name", { name: null }, "name", "string_type"],
    ["expires_in_days 0", { name: "x", expires_in_days: 0 }, "expires_in_days", "greater_than_equal"],
    ["expires_in_days 366", { name: "x", expires_in_days: 366 }, "expires_in_days", "less_than_equal"],
    ["fractional expires_in_days", { name: "x", expires_in_days: 1.5 }, "expires_in_days", "int_type"],
    ["string expires_in_days", { name: "x", expires_in_days: "30" }, "expires_in_days", "number_type"],
  ])("rejects %s with 422 VALIDATION_ERROR locating the field", async (_, json, field, type) => {
    const res = await call(app.url, "POST", "/api/v1/auth/keys", { json });
    const detail = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(detail.errors).toContainEqual(expect.objectContaining({ loc: ["body", field], type }));
    for (const e of detail.errors!) expect(typeof e.msg).toBe("string");
    // The caller's input is never echoed back.
    expect(res.text).not.toContain("nnnnnnnnnn");
  });

  it("accepts a 100-character name of non-Latin script, counted in characters", async () => {
    const name = "Ɛ".repeat(50) + "👋🏾".slice(0, 2).repeat(25); // 50 + 25 emoji code points = 75 characters
    const res = await call(app.url, "POST", "/api/v1/auth/keys", { json: { name } });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(name.normalize("NFC"));
  });

  it("answers malformed bodies with a clear 4xx in the envelope", async () => {
    expectEnvelope(
      await call(app.url, "POST", "/api/v1/auth/keys", { body: '{"name": "x"', headers: { "content-type": "application/json" } }),
      400,
      "INVALID_JSON",
    );
    expectEnvelope(
      await call(app.url, "POST", "/api/v1/auth/keys", { body: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    expectEnvelope(await call(app.url, "POST", "/api/v1/auth/keys", { body: '{"name":"x"}' }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectEnvelope(await call(app.url, "POST", "/api/v1/auth/keys", { json: ["x"] }), 422, "VALIDATION_ERROR");
    expectEnvelope(
      await call(app.url, "POST", "/api/v1/auth/keys", { body: "", headers: { "content-type": "application/json" } }),
      422,
      "VALIDATION_ERROR",
    );
    expectEnvelope(
      await call(app.url, "POST", "/api/v1/auth/keys", {
        body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
        headers: { "content-type": "application/json" },
      }),
      400,
      "INVALID_JSON",
    );
    const big = JSON.stringify({ name: "x", padding: "p".repeat(1024 * 1024) });
    expectEnvelope(
      await call(app.url, "POST", "/api/v1/auth/keys", { body: big, headers: { "content-type": "application/json" } }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
  });
});

describe("authentication", () => {
  it("MISSING_API_KEY without an Authorization header", async () => {
    const res = await call(app.url, "GET", "/api/v1/auth/keys/me");
    expectEnvelope(res, 401, "MISSING_API_KEY");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("INVALID_API_KEY for unknown, malformed, wrong-case keys and other schemes", async () => {
    const key = await mintKey(app.url);
    const bad = [
      `Bearer svc_${"0".repeat(40)}`, // well-formed, unknown
      `Bearer ${key.toUpperCase()}`,
      `Bearer SVC_${key.slice(4)}`,
      `Bearer ${key.slice(0, -1)}`,
      `Bearer ${key}x`,
      "Bearer ",
      "Bearer",
      `Basic ${Buffer.from(`user:${key}`).toString("base64")}`,
      key, // no scheme
    ];
    for (const authorization of bad) {
      const res = await call(app.url, "GET", "/api/v1/auth/keys/me", { headers: { authorization } });
      expectEnvelope(res, 401, "INVALID_API_KEY");
    }
  });

  it("accepts the scheme name in any case", async () => {
    const key = await mintKey(app.url);
    const res = await call(app.url, "GET", "/api/v1/auth/keys/me", { headers: { authorization: `bearer ${key}` } });
    expect(res.status).toBe(200);
  });
});

describe("GET /api/v1/auth/keys/me", () => {
  it("returns the key's metadata, never the key, and counts this request", async () => {
    const issued = (await call(app.url, "POST", "/api/v1/auth/keys", { json: { name: "inspect me", expires_in_days: 30 } })).body;
    const first = await call(app.url, "GET", "/api/v1/auth/keys/me", { key: issued.api_key });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      name: "inspect me",
      created_at: issued.created_at,
      expires_at: issued.expires_at,
      requests_total: 1,
      display_prefix: issued.api_key.slice(0, 12),
      last_used_at: null,
    });
    expect(first.body.rate_limits.translate).toEqual({ limit: 60, window_seconds: 60 });
    expect(first.text).not.toContain(issued.api_key);
    const second = await call(app.url, "GET", "/api/v1/auth/keys/me", { key: issued.api_key });
    expect(second.body.requests_total).toBe(2);
    expect(Date.parse(second.body.last_used_at)).toBeGreaterThanOrEqual(Date.parse(issued.created_at));
  });

  it("counts every authenticated request exactly under 100 concurrent requests", async () => {
    const key = await mintKey(app.url);
    const results = await Promise.all(Array.from({ length: 100 }, () => call(app.url, "GET", "/api/v1/auth/keys/me", { key })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    // Each request saw its own count: 1..100, each exactly once.
    expect(results.map((r) => r.body.requests_total).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const after = await call(app.url, "GET", "/api/v1/auth/keys/me", { key });
    expect(after.body.requests_total).toBe(101);
  });
});

describe("DELETE /api/v1/auth/keys/me", () => {
  it("revokes the calling key; afterwards it gets 401 INVALID_API_KEY and other keys are unaffected", async () => {
    const key = await mintKey(app.url, "to revoke");
    const other = await mintKey(app.url, "to revoke"); // same name, different key
    const res = await call(app.url, "DELETE", "/api/v1/auth/keys/me", { key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ revoked: true, name: "to revoke" });
    expectEnvelope(await call(app.url, "GET", "/api/v1/auth/keys/me", { key }), 401, "INVALID_API_KEY");
    expectEnvelope(await call(app.url, "DELETE", "/api/v1/auth/keys/me", { key }), 401, "INVALID_API_KEY");
    expect((await call(app.url, "GET", "/api/v1/auth/keys/me", { key: other })).status).toBe(200);
  });
});

describe("persistence, expiry and secrecy (database-level checks)", () => {
  it("refuses a key whose expires_at has passed, and never stores the plain key", async () => {
    const onPglite = inject("database") === "pglite";
    const dir = onPglite ? mkdtempSync(path.join(tmpdir(), "lugha-pglite-")) : undefined;
    const databaseUrl = onPglite ? `pglite:${dir}` : await freshDatabaseUrl();
    try {
      let instance = await startApp({ databaseUrl });
      const keys = await Promise.all(Array.from({ length: 5 }, (_, i) => mintKey(instance.url, `secret ${i}`)));
      for (const key of keys) expect((await call(instance.url, "GET", "/api/v1/auth/keys/me", { key })).status).toBe(200);

      if (onPglite) await instance.stop(); // PGlite: one process per directory
      const dump = await dumpDatabase(databaseUrl);
      expect(dump).toContain("secret 0"); // the dump really holds the rows...
      for (const key of keys) {
        expect(dump).not.toContain(key); // ...but no plain key,
        expect(dump).not.toContain(key.slice(4)); // not even its random part.
      }
      expect(instance.logs()).not.toContain(keys[0].slice(4));

      await sql(databaseUrl, `UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE name = 'secret 0'`);
      if (onPglite) instance = await startApp({ databaseUrl });
      expectEnvelope(await call(instance.url, "GET", "/api/v1/auth/keys/me", { key: keys[0] }), 401, "INVALID_API_KEY");
      // The others survive a restart and still work.
      const me = await call(instance.url, "GET", "/api/v1/auth/keys/me", { key: keys[1] });
      expect(me.status).toBe(200);
      expect(me.body.requests_total).toBe(2);
      await instance.stop();
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });
});
