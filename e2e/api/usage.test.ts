import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectEnvelope, type JsonResponse, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";
import { sql } from "../support/db";
import { describeOn } from "../support/projects";

/*
 * GET /api/v1/usage over HTTP against the built app (sandbox providers), on both databases: known requests — a
 * translation, its cache hit, a 422, a TTS, a 429, a languages listing — then every group_by with exact counts.
 * A usage request is itself counted once it has answered, so each later read sees the earlier reads too.
 */

let app: RunningApp;
const today = () => new Date().toISOString().slice(0, 10);
const usage = (key: string, query = "") => call(app.url, "GET", `/api/v1/usage${query}`, { key });

beforeAll(async () => {
  // One TTS request a minute: the second is the 429.
  app = await startApp({ env: { RATE_LIMIT_TTS: "1/60s" } });
});
afterAll(stopAllApps);

describe("GET /api/v1/usage", () => {
  let key: string;
  let ttsProvider: string;

  beforeAll(async () => {
    key = await mintKey(app.url, "usage");
    const translate = (json: unknown) => call(app.url, "POST", "/api/v1/translate", { key, json });
    const hello = { text: "Good morning", source_lang: "en", target_lang: "lug" };
    const miss = await translate(hello);
    expect(miss.status).toBe(200);
    expect(miss.headers.get("x-lugha-cache")).toBe("miss");
    const hit = await translate(hello);
    expect(hit.headers.get("x-lugha-cache")).toBe("hit");
    expect((await translate({ ...hello, target_lang: "en" })).status).toBe(422); // SAME_LANGUAGE
    const tts = await call(app.url, "POST", "/api/v1/speech/tts", { key, json: { text: "Wasuze otya", language: "lug" } });
    expect(tts.status).toBe(200);
    ttsProvider = tts.body.provider;
    expect((await call(app.url, "POST", "/api/v1/speech/tts", { key, json: { text: "Wasuze otya", language: "lug" } })).status).toBe(429);
    expect((await call(app.url, "GET", "/api/v1/languages", { key })).status).toBe(200);
  });

  it("group_by day (the default): the last 30 UTC days, every day a row, today's with every request", async () => {
    const res = await usage(key);
    expect(res.status).toBe(200);
    const from = new Date(Date.parse(`${today()}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
    expect(res.body).toMatchObject({ from, to: today(), group_by: "day" });
    expect(res.body.totals).toEqual({
      requests: 6,
      characters: 12,
      cache_hits: 1,
      errors: 2,
      upstream_calls: 2,
      upstream_calls_by_provider: { provider_a: 2 },
    });
    expect(res.body.rows).toHaveLength(30);
    expect(res.body.rows[0].day).toBe(from);
    expect(res.body.rows.at(-1)).toEqual({
      day: today(),
      requests: 6,
      characters: 12,
      cache_hits: 1,
      errors: 2,
      upstream_calls: 2,
      upstream_calls_by_provider: { provider_a: 2 },
    });
    expect(res.body.rows.slice(0, -1).every((r: { requests: number }) => r.requests === 0)).toBe(true);
  });

  it("group_by endpoint, status, language_pair and provider: exact counts (earlier usage reads included)", async () => {
    const endpoint = await usage(key, "?group_by=endpoint"); // the read above is in now: 1 usage request before
    expect(endpoint.body.rows).toEqual([
      {
        endpoint: "POST /api/v1/translate",
        requests: 3,
        characters: 12,
        cache_hits: 1,
        errors: 1,
        upstream_calls: 1,
        upstream_calls_by_provider: { provider_a: 1 },
      },
      {
        endpoint: "POST /api/v1/speech/tts",
        requests: 2,
        characters: 0,
        cache_hits: 0,
        errors: 1,
        upstream_calls: 1,
        upstream_calls_by_provider: { provider_a: 1 },
      },
      { endpoint: "GET /api/v1/languages", requests: 1, characters: 0, cache_hits: 0, errors: 0, upstream_calls: 0, upstream_calls_by_provider: {} },
      { endpoint: "GET /api/v1/usage", requests: 1, characters: 0, cache_hits: 0, errors: 0, upstream_calls: 0, upstream_calls_by_provider: {} },
    ]);
    expect(endpoint.body.totals).toEqual({
      requests: 7,
      characters: 12,
      cache_hits: 1,
      errors: 2,
      upstream_calls: 2,
      upstream_calls_by_provider: { provider_a: 2 },
    });

    const status = await usage(key, `?group_by=status&from=${today()}&to=${today()}`); // 2 usage reads before
    expect(status.body.rows).toEqual([
      { status: 200, requests: 6, characters: 12, cache_hits: 1, errors: 0, upstream_calls: 2, upstream_calls_by_provider: { provider_a: 2 } },
      { status: 422, requests: 1, characters: 0, cache_hits: 0, errors: 1, upstream_calls: 0, upstream_calls_by_provider: {} },
      { status: 429, requests: 1, characters: 0, cache_hits: 0, errors: 1, upstream_calls: 0, upstream_calls_by_provider: {} },
    ]);

    const pairs = await usage(key, "?group_by=language_pair"); // 3 usage reads before
    expect(pairs.body.rows).toEqual([
      { language_pair: null, requests: 7, characters: 0, cache_hits: 0, errors: 2, upstream_calls: 1, upstream_calls_by_provider: { provider_a: 1 } },
      {
        language_pair: "en-lug",
        requests: 2,
        characters: 12,
        cache_hits: 1,
        errors: 0,
        upstream_calls: 1,
        upstream_calls_by_provider: { provider_a: 1 },
      },
    ]);

    const providers = await usage(key, "?group_by=provider"); // 4 usage reads before
    expect(ttsProvider).toBe("provider_a"); // Luganda speech: Sunbird
    expect(providers.body.rows).toEqual([
      { provider: null, requests: 7, characters: 0, cache_hits: 0, errors: 2, upstream_calls: 0, upstream_calls_by_provider: {} },
      {
        provider: "provider_a",
        requests: 3,
        characters: 12,
        cache_hits: 1,
        errors: 0,
        upstream_calls: 2,
        upstream_calls_by_provider: { provider_a: 2 },
      },
    ]);
  });

  it("another key sees only its own usage; a range without traffic is zeros", async () => {
    const other = await mintKey(app.url, "usage other");
    const res = await usage(other, "?group_by=endpoint");
    expect(res.body).toMatchObject({ rows: [], totals: { requests: 0, characters: 0, cache_hits: 0, errors: 0 } });
    const past = await usage(key, "?from=2025-01-01&to=2025-01-31");
    expect(past.body.rows).toHaveLength(31);
    expect(past.body.totals.requests).toBe(0);
  });

  it.each([
    ["an impossible date", "?from=2026-02-30", "from", "date_invalid"],
    ["a date in another format", "?to=24%2F11%2F2026", "to", "invalid_format"],
    ["from after to", "?from=2026-11-24&to=2026-11-01", "from", "date_order"],
    ["367 days", "?from=2025-11-23&to=2026-11-24", "from", "range_too_long"],
    ["an unknown group_by", "?group_by=%3Cscript%3Eweek", "group_by", "enum"],
  ])("%s → 422 VALIDATION_ERROR naming the parameter, never echoing it", async (_, query, field, type) => {
    const res: JsonResponse = await usage(key, query);
    const detail = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(detail.errors).toEqual([expect.objectContaining({ loc: ["query", field], type })]);
    for (const echoed of ["2026-02-30", "24/11/2026", "script", "2025-11-23"]) expect(res.text).not.toContain(echoed);
  });

  it("needs a key: 401 without one", async () => {
    expectEnvelope(await call(app.url, "GET", "/api/v1/usage"), 401, "MISSING_API_KEY");
  });
});

// PostgreSQL only: the checks read the database while the app runs (a PGlite directory is one process's alone).
describeOn("postgres", "how usage is written", () => {
  it("no write per request: the breakdown reaches the database only with the batched flush", async () => {
    // A long flush interval: the requests below are tallied in memory; only the urgent flush of a usage read writes.
    const slow = await startApp({ env: { USAGE_FLUSH_INTERVAL_MS: "10000" } });
    try {
      const key = await mintKey(slow.url, "no extra write");
      for (let i = 0; i < 5; i++)
        expect((await call(slow.url, "POST", "/api/v1/detect", { key, json: { text: "Habari yako rafiki" } })).status).toBe(200);
      const rows = () =>
        sql(
          slow.databaseUrl,
          "SELECT b.endpoint, b.status, b.requests::int AS requests FROM usage_breakdown b JOIN api_keys k ON k.id = b.key_id WHERE k.name = 'no extra write'",
        );
      expect(await rows()).toEqual([]);
      const res = await call(slow.url, "GET", "/api/v1/usage?group_by=endpoint", { key });
      expect(res.body.rows).toEqual([
        { endpoint: "POST /api/v1/detect", requests: 5, characters: 0, cache_hits: 0, errors: 0, upstream_calls: 0, upstream_calls_by_provider: {} },
      ]);
      expect(await rows()).toEqual([{ endpoint: "POST /api/v1/detect", status: 200, requests: 5 }]); // one row, one write
    } finally {
      await slow.stop();
    }
  });

  it("revoking a key keeps its usage rows (the key can no longer read them: 401)", async () => {
    const key = await mintKey(app.url, "revoked usage");
    await call(app.url, "POST", "/api/v1/detect", { key, json: { text: "Habari yako rafiki" } });
    expect((await usage(key, "?group_by=endpoint")).body.totals.requests).toBe(1);
    expect((await call(app.url, "DELETE", "/api/v1/auth/keys/me", { key })).status).toBe(200);
    expectEnvelope(await usage(key), 401, "INVALID_API_KEY");
    await call(app.url, "GET", "/api/v1/usage", { key: await mintKey(app.url, "flusher") }); // writes this instance's counts
    const rows = await sql(
      app.databaseUrl,
      "SELECT b.endpoint, b.status, b.requests::int AS requests FROM usage_breakdown b JOIN api_keys k ON k.id = b.key_id WHERE k.name = 'revoked usage' ORDER BY 1",
    );
    expect(rows).toEqual([
      { endpoint: "DELETE /api/v1/auth/keys/me", status: 200, requests: 1 },
      { endpoint: "GET /api/v1/usage", status: 200, requests: 1 },
      { endpoint: "POST /api/v1/detect", status: 200, requests: 1 },
    ]);
  });
});
