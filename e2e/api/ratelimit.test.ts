import IORedis from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, expectEnvelope, type JsonResponse, mintKey } from "../support/api";
import { OPERATOR_HEADERS, type RunningApp, type StartAppOptions, startApp, stopAllApps } from "../support/app";
import { freePort, waitFor } from "../support/net";
import { type RedisServer, startRedis } from "../support/redis";
import { startUpstashShim, type UpstashShim } from "../support/upstash-shim";

/*
 * Rate limits over HTTP against the production build (docs/guide.md#rate-limits):
 *   - the same behaviour on the three stores: in-process (default), a real redis-server (REDIS_URL) and the Upstash
 *     client through the REST shim onto that real Redis (UPSTASH_REDIS_REST_URL/TOKEN);
 *   - X-RateLimit-* on 200, 4xx and 429; 429 RATE_LIMIT_EXCEEDED + Retry-After; waiting Retry-After succeeds;
 *   - budgets per key id and per bucket; key issuance per client IP (TRUST_PROXY off and on);
 *   - a store that is down: fail open (served, per-instance limits, /health degraded) and fail closed (503).
 * Two instances sharing one store: ratelimit-shared.test.ts.
 *
 * Windows are short (3 s) where a test waits for a refill, long (20-30 s) where a test must finish inside one window.
 * Waits are computed from the response headers, never guessed.
 */

type Backend = "memory" | "redis" | "upstash";
const BACKENDS: Backend[] = ["memory", "redis", "upstash"];

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Store {
  env: Record<string, string>;
  redis?: RedisServer;
  shim?: UpstashShim;
  stop(): Promise<void>;
}

async function startStore(backend: Backend): Promise<Store> {
  if (backend === "memory") return { env: {}, stop: async () => {} };
  const redis = await startRedis();
  if (backend === "redis") return { env: { REDIS_URL: redis.url }, redis, stop: () => redis.stop() };
  const shim = await startUpstashShim(redis.url);
  return {
    env: { UPSTASH_REDIS_REST_URL: shim.url, UPSTASH_REDIS_REST_TOKEN: shim.token },
    redis,
    shim,
    stop: async () => {
      await shim.stop();
      await redis.stop();
    },
  };
}

/**
 * Upstash's sliding window is a counter over two fixed windows on the epoch grid: a burst that straddles a boundary
 * is counted by weight, and the exact counts below assume it does not. So on Upstash, start a burst only with at
 * least `needMs` left in the current fixed window. The memory and Redis stores are exact sliding logs: no wait.
 */
async function roomInWindow(backend: Backend, windowMs: number, needMs: number) {
  if (backend !== "upstash") return;
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await sleep(left + 50);
}

/** X-RateLimit-* as documented: integers; Reset a Unix time in seconds, in the future, within two windows. */
function expectRateHeaders(res: JsonResponse, limit: number, remaining: number, windowMs: number) {
  const raw = ["limit", "remaining", "reset"].map((h) => res.headers.get(`x-ratelimit-${h}`));
  for (const v of raw) expect(v, `X-RateLimit-* on a ${res.status}: ${raw.join(", ")}`).toMatch(/^\d+$/);
  const [l, r, reset] = raw.map(Number);
  expect({ limit: l, remaining: r }, `on a ${res.status}`).toEqual({ limit, remaining });
  // Seconds, not milliseconds, and not a duration: strictly after now, at most two windows ahead (Upstash's
  // two-window counter can need up to that long to drain completely).
  expect(reset * 1000).toBeGreaterThan(Date.now());
  expect(reset).toBeLessThanOrEqual(Math.ceil((Date.now() + 2 * windowMs) / 1000) + 1);
  return reset;
}

/** Retry-After on a 429: whole seconds (never an HTTP date or a timestamp), at least 1, at most one window. */
function retryAfterOf(res: JsonResponse, windowMs: number): number {
  const v = res.headers.get("retry-after");
  expect(v, "Retry-After").toMatch(/^\d+$/);
  const seconds = Number(v);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(windowMs / 1000);
  return seconds;
}

function expect429(res: JsonResponse, limit: number, windowMs: number) {
  expectEnvelope(res, 429, "RATE_LIMIT_EXCEEDED");
  expectRateHeaders(res, limit, 0, windowMs);
  return retryAfterOf(res, windowMs);
}

afterAll(stopAllApps);

/** Starts an app for the enclosing describe (in beforeAll: start-up time is not test time) and stops it after. */
function appFor(options: () => StartAppOptions | Promise<StartAppOptions> = () => ({})) {
  let app: RunningApp | undefined;
  beforeAll(async () => {
    app = await startApp(await options());
  });
  afterAll(async () => {
    await app?.stop();
  });
  return () => app!;
}

const DEFAULT_WINDOW = 4_000; // RATE_LIMIT_DEFAULT=3/4s
const LONG_WINDOW = 20_000; // RATE_LIMIT_TRANSLATE=2/20s, RATE_LIMIT_BATCH=3/20s

const me = (app: RunningApp, key: string) => call(app.url, "GET", "/api/v1/auth/keys/me", { key });
const translate = (app: RunningApp, key: string, json: unknown = { text: "Good morning", target_lang: "lug", source_lang: "en" }) =>
  call(app.url, "POST", "/api/v1/translate", { key, json });
const batch = (app: RunningApp, key: string) =>
  call(app.url, "POST", "/api/v1/translate/batch", {
    key,
    json: { items: [{ id: "1", text: "Good morning", target_lang: "lug", source_lang: "en" }] },
  });

describe.each(BACKENDS)("per-key limits over HTTP, %s store", (backend) => {
  let store: Store;
  let app: RunningApp;

  beforeAll(async () => {
    store = await startStore(backend);
    app = await startApp({
      env: {
        ...store.env,
        RATE_LIMIT_DEFAULT: "3/4s",
        RATE_LIMIT_TRANSLATE: "2/20s",
        RATE_LIMIT_BATCH: "3/20s",
        // These tests are about a healthy store. On a loaded machine a call can exceed the default 300 ms; fail-open
        // would then silently answer from the per-instance fallback and blur the counts. Fail closed with a generous
        // timeout instead, so a slow store shows up as a 503 (and in the check below), never as a wrong count.
        ...(backend === "memory" ? {} : { RATE_LIMIT_TIMEOUT_MS: "3000", RATE_LIMIT_FAIL_MODE: "closed" }),
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await store?.stop();
  });
  afterEach(() => {
    // Every decision came from the configured store: no timeout, no fallback.
    expect(app.logs()).not.toMatch(/"event":"store_(failed|recovered)","component":"ratelimit"/);
  });

  it("runs on the store the environment selects, and /health reports it", async () => {
    const health = await call(app.url, "GET", "/health", { headers: OPERATOR_HEADERS });
    expect(health.status).toBe(200);
    expect(health.body.checks.rate_limiter).toMatchObject({ status: "ok", backend, ok: true, fail_mode: backend === "memory" ? "open" : "closed" });
    if (store.redis) {
      // The budget really lives in that Redis (not in a silent in-process fallback).
      const key = await mintKey(app.url, "where is my budget");
      expect((await me(app, key)).status).toBe(200);
      const client = new IORedis(store.redis.url);
      try {
        const keys = await client.keys("lugha:rl:*");
        expect(
          keys.some((k) => k.includes(":default:")),
          keys.join(", "),
        ).toBe(true);
      } finally {
        client.disconnect();
      }
    }
  });

  it("counts X-RateLimit-Remaining down per request, answers the request after the budget with 429 + Retry-After, and admits again after waiting it; every request is counted", async () => {
    const key = await mintKey(app.url, "burst");
    await roomInWindow(backend, DEFAULT_WINDOW, 2_000);
    for (let i = 0; i < 3; i++) {
      const ok = await me(app, key);
      expect(ok.status).toBe(200);
      expectRateHeaders(ok, 3, 2 - i, DEFAULT_WINDOW);
      expect(ok.body.requests_total).toBe(i + 1);
    }
    const refused = await me(app, key);
    expect429(refused, 3, DEFAULT_WINDOW);
    expect(refused.body.detail.message).not.toMatch(/svc_/);
    // Refusals do not extend the wait: the next one promises no longer.
    const again = await me(app, key);
    const retryAfter = expect429(again, 3, DEFAULT_WINDOW);
    expect(retryAfter).toBeLessThanOrEqual(Number(refused.headers.get("retry-after")));

    await sleep(retryAfter * 1000);
    const after = await me(app, key);
    expect(after.status).toBe(200);
    expect(Number(after.headers.get("x-ratelimit-limit"))).toBe(3);
    // DESIGN: requests_total counts every authenticated request, the two 429s included (and this one).
    expect(after.body.requests_total).toBe(6);
  });

  it("sets the headers on an authenticated 4xx, which spends the budget; the 429 comes before body validation", async () => {
    const key = await mintKey(app.url, "four-xx");
    await roomInWindow(backend, LONG_WINDOW, 5_000);
    const invalid = await translate(app, key, { target_lang: "lug" });
    expectEnvelope(invalid, 422, "VALIDATION_ERROR");
    expectRateHeaders(invalid, 2, 1, LONG_WINDOW);

    const badQuery = await call(app.url, "GET", "/api/v1/languages?capability=telepathy", { key });
    expectEnvelope(badQuery, 422, "VALIDATION_ERROR");
    expectRateHeaders(badQuery, 3, 2, DEFAULT_WINDOW);

    const ok = await translate(app, key);
    expect(ok.status).toBe(200);
    expectRateHeaders(ok, 2, 0, LONG_WINDOW);

    // Over budget, an invalid body is refused for the budget (429), not validated (422).
    expect429(await translate(app, key, { target_lang: "lug" }), 2, LONG_WINDOW);
  });

  it("never shares a budget between two keys, even with the same name", async () => {
    const a = await mintKey(app.url, "twin");
    const b = await mintKey(app.url, "twin");
    await roomInWindow(backend, LONG_WINDOW, 5_000);
    expectRateHeaders(await translate(app, a), 2, 1, LONG_WINDOW);
    expectRateHeaders(await translate(app, a), 2, 0, LONG_WINDOW);
    expect429(await translate(app, a), 2, LONG_WINDOW);

    const first = await translate(app, b);
    expect(first.status).toBe(200);
    expectRateHeaders(first, 2, 1, LONG_WINDOW);
    expectRateHeaders(await translate(app, b), 2, 0, LONG_WINDOW);
    expect429(await translate(app, b), 2, LONG_WINDOW);
    // ...and a is still refused: b's budget did not refill a's.
    expect429(await translate(app, a), 2, LONG_WINDOW);
  });

  it("keeps translate, batch and the other endpoints on separate budgets, both ways", async () => {
    const c = await mintKey(app.url, "batch first");
    const d = await mintKey(app.url, "translate first");
    await roomInWindow(backend, LONG_WINDOW, 6_000);

    // Spend the batch budget: translate and the default budget are untouched.
    for (let i = 0; i < 3; i++) {
      const res = await batch(app, c);
      expect(res.status).toBe(200);
      expectRateHeaders(res, 3, 2 - i, LONG_WINDOW);
    }
    expect429(await batch(app, c), 3, LONG_WINDOW);
    const t = await translate(app, c);
    expect(t.status).toBe(200);
    expectRateHeaders(t, 2, 1, LONG_WINDOW);
    expectRateHeaders(await me(app, c), 3, 2, DEFAULT_WINDOW);

    // The reverse: spend translate, batch is untouched.
    expectRateHeaders(await translate(app, d), 2, 1, LONG_WINDOW);
    expectRateHeaders(await translate(app, d), 2, 0, LONG_WINDOW);
    expect429(await translate(app, d), 2, LONG_WINDOW);
    const b = await batch(app, d);
    expect(b.status).toBe(200);
    expectRateHeaders(b, 3, 2, LONG_WINDOW);
    // And spending translate to the end did not touch c's batch refusal or d's default budget.
    expect429(await batch(app, c), 3, LONG_WINDOW);
    const usage = await me(app, d);
    expectRateHeaders(usage, 3, 2, DEFAULT_WINDOW);
    // DESIGN: requests_total counts every authenticated request, the refused one included: 3 translate, 1 batch, this.
    expect(usage.body.requests_total).toBe(5);
  });
});

describe("key issuance throttle (per client IP)", () => {
  const mint = (app: RunningApp, headers: Record<string, string> = {}, name = "issued") =>
    call(app.url, "POST", "/api/v1/auth/keys", { json: { name }, headers });

  describe("without TRUST_PROXY", () => {
    const app = appFor(() => ({ env: { RATE_LIMIT_ISSUANCE: "3/8s" } }));

    it("the request after the budget is 429 with Retry-After, forged proxy headers do not buy a new budget, and waiting Retry-After does", async () => {
      // Each mint claims to come from somewhere else; without TRUST_PROXY all of it is ignored.
      const forged = (i: number) => ({
        "x-forwarded-for": `198.51.100.${i}`,
        "x-real-ip": `198.51.100.${i}`,
        "x-lugha-peer-address": `10.0.0.${i}`, // the server's own stamp: overwritten with the socket address
      });
      for (let i = 1; i <= 3; i++) expect((await mint(app(), forged(i))).status).toBe(200);
      const refused = await mint(app(), forged(4));
      expectEnvelope(refused, 429, "RATE_LIMIT_EXCEEDED");
      retryAfterOf(refused, 8_000);
      expect(refused.body.detail.message).not.toContain("198.51.100"); // the address is not echoed
      expectEnvelope(await mint(app(), forged(5)), 429, "RATE_LIMIT_EXCEEDED");
      const last = await mint(app());
      expectEnvelope(last, 429, "RATE_LIMIT_EXCEEDED");

      await sleep(retryAfterOf(last, 8_000) * 1000);
      expect((await mint(app())).status).toBe(200);
    });
  });

  describe("with TRUST_PROXY=true", () => {
    const app = appFor(() => ({ env: { RATE_LIMIT_ISSUANCE: "3/30s", TRUST_PROXY: "true" } }));

    it("each client address (the right-most X-Forwarded-For entry, appended by the proxy) has its own budget", async () => {
      const from = (xff: string) => ({ "x-forwarded-for": xff });
      for (let i = 0; i < 3; i++) expect((await mint(app(), from("203.0.113.10"))).status).toBe(200);
      expectEnvelope(await mint(app(), from("203.0.113.10")), 429, "RATE_LIMIT_EXCEEDED");
      // Another client behind the proxy: its own budget.
      expect((await mint(app(), from("203.0.113.11"))).status).toBe(200);
      // The client prepends a forged entry; the proxy appends the real address, which is the one that counts.
      expectEnvelope(await mint(app(), from("198.51.100.99, 203.0.113.10")), 429, "RATE_LIMIT_EXCEEDED");
      expect((await mint(app(), from("203.0.113.10, 203.0.113.12"))).status).toBe(200);
    });
  });

  describe("default settings", () => {
    const app = appFor();

    it("a test suite can mint 60 keys in a burst, but a sustained stream from one address is refused", async () => {
      const burst = await Promise.all(Array.from({ length: 60 }, (_, i) => mint(app(), {}, `suite key ${i}`)));
      expect(burst.map((r) => r.status)).toEqual(Array(60).fill(200));
      expect((await me(app(), burst[59].body.api_key)).status).toBe(200);
      // Not unlimited: keep minting (sequentially) and a refusal comes well before 500 keys.
      let refused: JsonResponse | undefined;
      for (let i = 60; i < 500 && !refused; i++) {
        const res = await mint(app(), {}, `stream ${i}`);
        if (res.status === 429) refused = res;
        else expect(res.status).toBe(200);
      }
      expect(refused, "no 429 after 500 keys from one address").toBeDefined();
      expectEnvelope(refused!, 429, "RATE_LIMIT_EXCEEDED");
      expect(refused!.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    });
  });
});

describe.each(["redis", "upstash"] as const)("%s store down", (backend) => {
  const storeEnv = (url: string, token = "test-token"): Record<string, string> =>
    backend === "redis" ? { REDIS_URL: url } : { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: token };

  /**
   * A request must come back long before the 5 s the Upstash library would wait by default (or the unbounded wait of
   * an ioredis offline queue); RATE_LIMIT_TIMEOUT_MS defaults to 300 ms. The bound leaves room for a loaded CI machine.
   */
  async function timed<T>(fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    const res = await fn();
    expect(performance.now() - t0, "the limiter's timeout must be short").toBeLessThan(4_000);
    return res;
  }

  describe("fail open (the default)", () => {
    let port: number;
    const app = appFor(async () => {
      port = await freePort(); // nothing listens there
      const url = backend === "redis" ? `redis://127.0.0.1:${port}` : `http://127.0.0.1:${port}`;
      return { env: { ...storeEnv(url), RATE_LIMIT_DEFAULT: "3/20s" } };
    });

    it("requests are served quickly, each instance still enforces the limit, /health says degraded without revealing the store's address", async () => {
      const key = await timed(() => mintKey(app().url, "store down"));
      for (let i = 0; i < 3; i++) {
        const res = await timed(() => me(app(), key));
        expect(res.status).toBe(200);
        expectRateHeaders(res, 3, 2 - i, 20_000);
      }
      expect429(await timed(() => me(app(), key)), 3, 20_000);

      const health = await call(app().url, "GET", "/health", { headers: OPERATOR_HEADERS });
      expect(health.status).toBe(200);
      expect(health.body.status).toBe("degraded");
      const limiter = health.body.checks.rate_limiter;
      expect(limiter).toMatchObject({ status: "degraded", backend, ok: false, fail_mode: "open" });
      expect(typeof limiter.detail).toBe("string");
      // /health needs no key: it must not tell the world where the store lives.
      expect(JSON.stringify(limiter)).not.toContain(String(port));
    });
  });

  describe("fail closed", () => {
    let redis: RedisServer;
    let shim: UpstashShim | undefined;
    let revived: RedisServer | undefined;
    const app = appFor(async () => {
      redis = await startRedis();
      shim = backend === "upstash" ? await startUpstashShim(redis.url) : undefined;
      return { env: { ...(shim ? storeEnv(shim.url, shim.token) : storeEnv(redis.url)), RATE_LIMIT_FAIL_MODE: "closed" } };
    });
    afterAll(async () => {
      await shim?.stop();
      await revived?.stop();
      await redis?.stop();
    });

    it("503 SERVICE_UNAVAILABLE (quickly, with Retry-After) while the store is down, served again once it is back", async () => {
      const key = await mintKey(app().url, "fail closed");
      expect((await me(app(), key)).status).toBe(200);
      expect((await call(app().url, "GET", "/health", { headers: OPERATOR_HEADERS })).body.checks.rate_limiter).toMatchObject({
        ok: true,
        fail_mode: "closed",
      });

      await redis.stop();
      const refused = await timed(() => me(app(), key));
      expectEnvelope(refused, 503, "SERVICE_UNAVAILABLE");
      expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      // Key issuance is limited too, so it is refused as well.
      expectEnvelope(await timed(() => call(app().url, "POST", "/api/v1/auth/keys", { json: { name: "x" } })), 503, "SERVICE_UNAVAILABLE");

      const health = await call(app().url, "GET", "/health", { headers: OPERATOR_HEADERS });
      expect(health.status).toBe(200);
      expect(health.body.status).toBe("degraded");
      expect(health.body.checks.rate_limiter).toMatchObject({ status: "degraded", backend, ok: false, fail_mode: "closed" });

      // The store is retried on every request: once Redis is back on its port, requests are served again.
      revived = await startRedis({ port: redis.port });
      await waitFor(
        async () => {
          const res = await me(app(), key);
          if (res.status !== 200) throw new Error(`still ${res.status}`);
        },
        20_000,
        200,
      );
      expect((await call(app().url, "GET", "/health", { headers: OPERATOR_HEADERS })).body.checks.rate_limiter).toMatchObject({
        status: "ok",
        ok: true,
      });
    });
  });
});
