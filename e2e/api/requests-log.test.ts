import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectEnvelope, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";
import { sql } from "../support/db";
import { describeOn } from "../support/projects";

/*
 * The request log over HTTP against the built app (sandbox providers), on both databases: ten known calls, then
 * GET /api/v1/usage/requests lists each with its X-Request-Id, newest first, with its status, provider, model and
 * cache; the filters, the paging, the portal's CSV needing a session, and (PostgreSQL, reading the tables) that the
 * lines arrive only with the batched flush, expire after 7 days and go when the key is revoked.
 */

let app: RunningApp;
const list = (key: string, query = "") => call(app.url, "GET", `/api/v1/usage/requests${query}`, { key });

beforeAll(async () => {
  app = await startApp();
});
afterAll(stopAllApps);

describe("GET /api/v1/usage/requests", () => {
  let key: string;
  /** The ten calls' request ids and statuses, in the order they were made. */
  const made: { id: string; endpoint: string; status: number }[] = [];

  beforeAll(async () => {
    key = await mintKey(app.url, "request log");
    const hello = { text: "Good morning", source_lang: "en", target_lang: "lug" };
    const calls: [string, string, unknown?][] = [
      ["POST", "/api/v1/translate", hello],
      ["POST", "/api/v1/translate", hello], // the cache hit
      ["POST", "/api/v1/translate", { ...hello, target_lang: "en" }], // 422 SAME_LANGUAGE
      ["POST", "/api/v1/translate/batch", { items: [{ id: "a", ...hello }] }],
      ["POST", "/api/v1/detect", { text: "Habari yako rafiki" }],
      ["POST", "/api/v1/speech/tts", { text: "Wasuze otya", language: "lug" }],
      ["GET", "/api/v1/languages"],
      ["GET", "/api/v1/auth/keys/me"],
      ["GET", "/api/v1/usage"],
      ["POST", "/api/v1/detect", {}], // 422 VALIDATION_ERROR
    ];
    for (const [method, path, json] of calls) {
      const res = await call(app.url, method, path, { key, json });
      made.push({ id: res.headers.get("x-request-id")!, endpoint: `${method} ${path}`, status: res.status });
    }
    expect(made.map((m) => m.status)).toEqual([200, 200, 422, 200, 200, 200, 200, 200, 200, 422]);
  });

  it("lists the ten calls newest first, each with its request id, endpoint, status and latency", async () => {
    const res = await list(key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 10, page: 1, per_page: 50 });
    const rows = res.body.requests as Record<string, unknown>[];
    expect(rows.map((r) => [r.request_id, r.endpoint, r.status])).toEqual([...made].reverse().map((m) => [m.id, m.endpoint, m.status]));
    for (const r of rows) {
      expect(Number.isNaN(Date.parse(r.time as string))).toBe(false);
      expect(r.latency_ms).toBeGreaterThanOrEqual(0);
    }
    const times = rows.map((r) => Date.parse(r.time as string));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("says what served each request and whether the translation cache answered; errors name nothing", async () => {
    const rows = (await list(key)).body.requests as Record<string, unknown>[];
    const byId = new Map(rows.map((r) => [r.request_id, r]));
    const [miss, hit, refused, batch, detect, tts] = made.map((m) => byId.get(m.id)!);
    expect(miss).toMatchObject({ cache: "miss", provider: "provider_a", upstream_calls: 1 });
    expect(miss.model_used).toMatch(/^provider_a\//);
    expect(hit).toMatchObject({ cache: "hit", provider: "provider_a", model_used: miss.model_used, upstream_calls: 0 });
    expect(refused).toMatchObject({ provider: null, model_used: null, cache: null, upstream_calls: 0 });
    expect(batch).toMatchObject({ cache: "hit", provider: "provider_a" });
    expect(detect).toMatchObject({ cache: null });
    expect(tts.provider).toEqual(expect.any(String));
    expect(tts.model_used).toMatch(new RegExp(`^${tts.provider}/`));
  });

  it("filters by status class, one status, endpoint and request id, and pages", async () => {
    const refused = await list(key, "?status=4xx");
    expect(refused.body.total).toBe(2);
    expect(refused.body.requests.every((r: { status: number }) => r.status === 422)).toBe(true);
    expect((await list(key, "?status=422")).body.total).toBe(2);
    expect((await list(key, "?status=5xx")).body.total).toBe(0);
    const translate = await list(key, `?endpoint=${encodeURIComponent("POST /api/v1/translate")}&status=2xx`);
    expect(translate.body.requests.map((r: { request_id: string }) => r.request_id)).toEqual([made[1].id, made[0].id]);
    const one = await list(key, `?request_id=${made[4].id}`);
    expect(one.body.requests).toHaveLength(1);
    expect(one.body.requests[0]).toMatchObject({ request_id: made[4].id, endpoint: "POST /api/v1/detect" });
    // Each list request is in the log once answered: 10 calls + the 7 reads above = 17 lines, 5 a page.
    const page2 = await list(key, "?per_page=5&page=2");
    expect(page2.body).toMatchObject({ total: 17, page: 2, per_page: 5 });
    expect(page2.body.requests).toHaveLength(5);
  });

  it("another key sees only its own requests", async () => {
    const other = await mintKey(app.url, "request log, other");
    const res = await list(other);
    expect(res.body).toMatchObject({ total: 0, requests: [] });
    expect((await list(other, `?request_id=${made[0].id}`)).body.total).toBe(0);
  });

  it("refuses a bad parameter with 422 naming it, and answers 401 without a key", async () => {
    for (const [query, field] of [
      ["?status=2x", "status"],
      ["?page=0", "page"],
      ["?per_page=1000", "per_page"],
      ["?per_page=abc", "per_page"],
    ]) {
      const res = await list(key, query);
      expectEnvelope(res, 422, "VALIDATION_ERROR");
      expect(res.body.detail.errors[0].loc).toEqual(["query", field]);
    }
    expectEnvelope(await call(app.url, "GET", "/api/v1/usage/requests"), 401, "MISSING_API_KEY");
  });

  it("the portal's CSV exports need a portal session", async () => {
    for (const path of ["/dashboard/requests.csv", "/dashboard/usage.csv"]) {
      const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(401);
      expect(await res.text()).toContain("Sign in");
    }
  });
});

// PostgreSQL only: the checks read the database while the app runs (a PGlite directory is one process's alone).
describeOn("postgres", "how the request log is written", () => {
  const lines = (url: string, name: string) =>
    sql(url, "SELECT r.endpoint, r.status FROM request_log r JOIN api_keys k ON k.id = r.key_id WHERE k.name = $1 ORDER BY r.at", [name]);

  it("no write per request: the lines reach the database only with the batched flush, and hold no text", async () => {
    const slow = await startApp({ env: { USAGE_FLUSH_INTERVAL_MS: "10000" } });
    try {
      const key = await mintKey(slow.url, "log no extra write");
      for (let i = 0; i < 3; i++)
        expect(
          (await call(slow.url, "POST", "/api/v1/translate", { key, json: { text: "Secret words", source_lang: "en", target_lang: "lug" } })).status,
        ).toBe(200);
      expect(await lines(slow.databaseUrl, "log no extra write")).toEqual([]);
      expect((await call(slow.url, "GET", "/api/v1/usage/requests", { key })).body.total).toBe(3);
      expect(await lines(slow.databaseUrl, "log no extra write")).toHaveLength(3);
      const dump = await sql(slow.databaseUrl, "SELECT row_to_json(r)::text AS line FROM request_log r");
      expect(dump.map((d) => d.line).join("\n")).not.toContain("Secret words");
    } finally {
      await slow.stop();
    }
  });

  it("keeps 7 days: an older line is neither listed nor kept once the key's next lines are written", async () => {
    const key = await mintKey(app.url, "log retention");
    await call(app.url, "POST", "/api/v1/detect", { key, json: { text: "Habari yako rafiki" } });
    await call(app.url, "GET", "/api/v1/usage/requests", { key }); // writes the detect line
    await sql(
      app.databaseUrl,
      "INSERT INTO request_log (key_id, at, request_id, endpoint, status, latency_ms) SELECT id, now() - interval '8 days', 'req_old', 'POST /api/v1/detect', 200, 5 FROM api_keys WHERE name = 'log retention'",
    );
    const res = await call(app.url, "GET", "/api/v1/usage/requests", { key });
    expect(res.body.requests.map((r: { request_id: string }) => r.request_id)).not.toContain("req_old");
    await call(app.url, "GET", "/api/v1/usage/requests", { key }); // the flush of the previous read deletes it
    expect(await sql(app.databaseUrl, "SELECT 1 FROM request_log WHERE request_id = 'req_old'")).toEqual([]);
  });

  it("revoking a key deletes its request log (its usage counts stay)", async () => {
    const key = await mintKey(app.url, "log revoked");
    await call(app.url, "POST", "/api/v1/detect", { key, json: { text: "Habari yako rafiki" } });
    expect((await call(app.url, "GET", "/api/v1/usage/requests", { key })).body.total).toBe(1);
    expect((await call(app.url, "DELETE", "/api/v1/auth/keys/me", { key })).status).toBe(200);
    await call(app.url, "GET", "/api/v1/usage", { key: await mintKey(app.url, "log flusher") }); // writes this instance's counts
    expect(await lines(app.databaseUrl, "log revoked")).toEqual([]);
    const usage = await sql(
      app.databaseUrl,
      "SELECT sum(b.requests)::int AS n FROM usage_breakdown b JOIN api_keys k ON k.id = b.key_id WHERE k.name = 'log revoked'",
    );
    expect(usage[0].n).toBe(3);
  });
});
