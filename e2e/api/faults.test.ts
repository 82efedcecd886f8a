import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { type EmulatorServer, startEmulatorServer } from "@/lib/providers/sandbox";
import { call, expectEnvelope, type JsonResponse, mintKey } from "../support/api";
import { OPERATOR_HEADERS, type RunningApp, startApp, stopAllApps } from "../support/app";
import { sql } from "../support/db";
import { liveEnv as emulatorEnv } from "../support/emulators";
import { freePort, waitFor } from "../support/net";
import { createDatabase, type PostgresServer, startPostgres } from "../support/postgres";
import { describeOn } from "../support/projects";
import { type RedisServer, startRedis } from "../support/redis";

/**
 * Fault injection against the real app (production build, `next start`), with live provider clients talking to the
 * upstream emulators over loopback HTTP: an upstream that hangs, answers garbage, HTML or cut JSON, or rate-limits
 * everything; the database restarted (and its connections killed) under load; the rate-limit store hanging or dying
 * under load; SIGTERM with requests in flight. Each test states the behaviour it holds the app to.
 */

const onPostgres = inject("database") === "postgres";
const LUGANDA = { text: "Good morning, how are you?", source_lang: "en", target_lang: "lug" };

afterAll(stopAllApps);

async function emulators(): Promise<[EmulatorServer, EmulatorServer, EmulatorServer]> {
  return Promise.all([startEmulatorServer("sunbird"), startEmulatorServer("khaya"), startEmulatorServer("hf")]);
}

/** Every request reaches the upstream: the translation cache (cache.test.ts) would answer repeated requests itself. */
function liveEnv(emulators: EmulatorServer[], extra: Record<string, string> = {}): Record<string, string> {
  return emulatorEnv(emulators, { TRANSLATION_CACHE: "off", ...extra });
}

async function timed<T>(fn: () => Promise<T>): Promise<{ res: T; ms: number }> {
  const t0 = performance.now();
  const res = await fn();
  return { res, ms: performance.now() - t0 };
}

type Outcome = { status: number; code?: string; retryAfter?: string | null } | { status: "network"; error: string };

/** `workers` loops calling `fn` until `stop()` resolves; every outcome recorded (a dropped connection as "network"). */
async function underLoad(workers: number, fn: () => Promise<JsonResponse>, during: () => Promise<void>): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let running = true;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      try {
        const r = await fn();
        outcomes.push({ status: r.status, code: r.body?.detail?.code, retryAfter: r.headers.get("retry-after") });
      } catch (err) {
        outcomes.push({ status: "network", error: String((err as Error).cause ?? err) });
      }
    }
  });
  try {
    await during();
  } finally {
    running = false;
    await Promise.all(loops);
  }
  return outcomes;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("upstream faults: the deadline holds and the fallback serves", () => {
  let ups: [EmulatorServer, EmulatorServer, EmulatorServer];
  let app: RunningApp;
  let key: string;
  const DEADLINE = 2_000;

  beforeAll(async () => {
    ups = await emulators();
    // A high circuit threshold: these tests are about single requests, not about the breaker (tested below).
    app = await startApp({
      env: liveEnv(ups, { TRANSLATE_DEADLINE_MS: String(DEADLINE), CIRCUIT_FAILURE_THRESHOLD: "1000", RATE_LIMIT_TRANSLATE: "10000/60s" }),
    });
    key = await mintKey(app.url, "faults");
  });
  afterEach(() => {
    for (const u of ups) u.reset();
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all((ups ?? []).map((u) => u.close()));
  });

  const translate = (json: unknown = LUGANDA) => call(app.url, "POST", "/api/v1/translate", { key, json });

  it.each([
    ["never answers", { failMode: "hang" as const }],
    ["sends headers, then never the body", { failMode: "hang" as const, variant: "body" }],
  ])("provider_a %s: provider_c serves within the request deadline", async (_name, controls) => {
    ups[0].setControls(controls);
    const { res, ms } = await timed(() => translate());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_c", fallback_used: true, providers_tried: ["provider_a", "provider_c"] });
    // provider_a got its share of the deadline (60%) and not more; the whole request stayed inside the deadline.
    expect(ms).toBeGreaterThan(DEADLINE * 0.5);
    expect(ms).toBeLessThan(DEADLINE + 1_000);
    expect(ups[0].stats.requests).toBeGreaterThan(0);
  });

  it("every provider hangs: 503 PROVIDER_ERROR at the deadline, not later", async () => {
    for (const u of ups) u.setControls({ failMode: "hang" });
    const { res, ms } = await timed(() => translate());
    const d = expectEnvelope(res, 503, "PROVIDER_ERROR");
    expect(d.message).toMatch(/provider_a.*provider_c/);
    expect(ms).toBeLessThan(DEADLINE + 1_000);
  });

  it.each([
    ["garbage bytes labelled JSON", { failMode: "malformed" as const, variant: "garbage" }],
    ["truncated JSON", { failMode: "malformed" as const, variant: "truncated" }],
    ["JSON of the wrong shape", { failMode: "malformed" as const, variant: "shape" }],
    ["a body cut mid-way (connection dropped)", { failMode: "malformed" as const, variant: "cut" }],
    ["an HTML gateway page with 200", { failMode: "html" as const }],
    ["an HTML gateway page with 502", { failMode: "html" as const, status: 502 }],
    ["a connection reset", { failMode: "reset" as const }],
  ])("provider_a answers %s: never a 200 with its text; auto falls back, forced answers 503 without upstream content", async (_name, controls) => {
    ups[0].setControls(controls);
    const auto = await translate();
    expect(auto.status).toBe(200);
    expect(auto.body).toMatchObject({ provider: "provider_c", fallback_used: true });
    expect(auto.body.translated_text).not.toMatch(/<html|unexpected|Web App/i);

    const forced = await translate({ ...LUGANDA, provider: "provider_a" });
    const d = expectEnvelope(forced, 503, "PROVIDER_ERROR");
    expect(d.message).toContain("provider_a");
    // Nothing of what the upstream sent reaches the caller.
    expect(forced.text).not.toMatch(/<!DOCTYPE|<html|Web App - Unavailable|"unexpected"|\\u0000|�/);
  });
});

describe("every provider hangs: the hang is detected before any timeout, and the next request fails fast", () => {
  let ups: [EmulatorServer, EmulatorServer, EmulatorServer];
  let app: RunningApp;
  let key: string;

  beforeAll(async () => {
    ups = await emulators();
    // Default deadline (20 s), attempt timeout (15 s) and failure threshold (5): only hang detection can end this early.
    app = await startApp({ env: liveEnv(ups, { RATE_LIMIT_TRANSLATE: "10000/60s" }) });
    key = await mintKey(app.url, "hang");
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all((ups ?? []).map((u) => u.close()));
  });

  const translate = (json: unknown = LUGANDA) => call(app.url, "POST", "/api/v1/translate", { key, json });

  it("ten concurrent callers are answered 503 once each provider has been silent past its limit; then no upstream is called", async () => {
    // Five answers per provider give each a recent answer time to judge by (limit: max(3 × p90, 2 s)).
    for (const [provider, target_lang] of [
      ["provider_a", "lug"],
      ["provider_c", "sw"],
    ] as const)
      for (let i = 0; i < 5; i++) expect((await translate({ ...LUGANDA, target_lang, provider })).status).toBe(200);
    for (const u of ups) u.setControls({ failMode: "hang" });
    const before = ups.map((u) => u.stats.requests);
    const { res: all, ms } = await timed(() => Promise.all(Array.from({ length: 10 }, () => translate())));
    for (const res of all) expect(expectEnvelope(res, 503, "PROVIDER_ERROR").message).toMatch(/provider_a.*provider_c/);
    // One attempt per caller and provider: a cut call is not retried.
    expect(ups[0].stats.requests - before[0]).toBe(10);
    expect(ups[2].stats.requests - before[2]).toBe(10);
    expect(ms).toBeLessThan(15_000); // before any attempt timeout (15 s) or the deadline (20 s)
    const health = await call(app.url, "GET", "/health");
    expect(health.body.checks.providers.provider_a.circuit).toBe("open");
    expect(health.body.checks.providers.provider_c.circuit).toBe("open");

    const after = ups.map((u) => u.stats.requests);
    expectEnvelope(await translate(), 503, "PROVIDER_ERROR");
    expect(ups.map((u) => u.stats.requests)).toEqual(after);
  }, 60_000);
});

describe("a 429 storm from one provider: the circuit opens, fails fast, and recovers after the cooldown", () => {
  let ups: [EmulatorServer, EmulatorServer, EmulatorServer];
  let app: RunningApp;
  let key: string;
  const COOLDOWN = 1_500;

  beforeAll(async () => {
    ups = await emulators();
    app = await startApp({
      env: liveEnv(ups, {
        CIRCUIT_FAILURE_THRESHOLD: "3",
        CIRCUIT_COOLDOWN_MS: String(COOLDOWN),
        PROVIDER_MAX_RETRIES: "0",
        TRANSLATE_DEADLINE_MS: "5000",
        RATE_LIMIT_TRANSLATE: "10000/60s",
      }),
    });
    key = await mintKey(app.url, "storm");
  });
  afterAll(async () => {
    await app?.stop();
    await Promise.all((ups ?? []).map((u) => u.close()));
  });

  const forcedA = () => call(app.url, "POST", "/api/v1/translate", { key, json: { ...LUGANDA, provider: "provider_a" } });
  const circuitOf = async () => (await call(app.url, "GET", "/health")).body.checks.providers.provider_a.circuit;

  it("opens after the threshold, then answers without calling the upstream, serves auto traffic from provider_c, and closes after one good probe", async () => {
    // Sunbird's quota 429, with Retry-After (its bare per-minute 429 holds it in the budget instead: speech-upstreams.test.ts).
    ups[0].setControls({ failMode: "rate_limited", variant: "quota", retryAfterSeconds: 30 });
    for (let i = 0; i < 3; i++) expectEnvelope(await forcedA(), 503, "PROVIDER_ERROR");
    expect(ups[0].stats.requests).toBe(3);
    expect(await circuitOf()).toBe("open");
    const health = await call(app.url, "GET", "/health");
    expect(health.status).toBe(200);
    expect(health.body.status).toBe("degraded");

    // Open: fast failures that never reach the upstream, each with a Retry-After.
    const storm = await Promise.all(Array.from({ length: 20 }, () => timed(forcedA)));
    for (const { res, ms } of storm) {
      expectEnvelope(res, 503, "PROVIDER_ERROR");
      expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      expect(ms).toBeLessThan(1_000);
    }
    expect(ups[0].stats.requests).toBe(3);
    // auto skips the open circuit and is served by the next provider, quickly.
    const auto = await call(app.url, "POST", "/api/v1/translate", { key, json: LUGANDA });
    expect(auto.body).toMatchObject({ provider: "provider_c", fallback_used: true });
    expect(ups[0].stats.requests).toBe(3);

    // The upstream recovers; after the cooldown one probe goes through and closes the circuit.
    ups[0].reset();
    await sleep(COOLDOWN + 100);
    expect(await circuitOf()).toBe("half_open");
    const probe = await forcedA();
    expect(probe.status).toBe(200);
    expect(probe.body.provider).toBe("provider_a");
    expect(await circuitOf()).toBe("closed");
    expect((await call(app.url, "POST", "/api/v1/translate", { key, json: LUGANDA })).body).toMatchObject({
      provider: "provider_a",
      fallback_used: false,
    });
  });

  it("a probe that fails re-opens the circuit for another cooldown", async () => {
    // A 5xx (a bare 429 would hold the provider in its budget instead, and never reach the circuit).
    ups[0].setControls({ failMode: "status", status: 502 });
    for (let i = 0; i < 3; i++) await forcedA();
    expect(await circuitOf()).toBe("open");
    await sleep(COOLDOWN + 100);
    const before = ups[0].stats.requests;
    expectEnvelope(await forcedA(), 503, "PROVIDER_ERROR"); // the probe, refused by the upstream
    expect(ups[0].stats.requests).toBe(before + 1);
    expect(await circuitOf()).toBe("open");
    expectEnvelope(await forcedA(), 503, "PROVIDER_ERROR");
    expect(ups[0].stats.requests).toBe(before + 1);
    ups[0].reset();
  });
});

describeOn("postgres", "the database restarted under load (PostgreSQL)", () => {
  let server: PostgresServer;
  let databaseUrl: string;
  let app: RunningApp;
  let key: string;

  beforeAll(async () => {
    // A server of its own: restarting the shared test server would disturb nothing else, but this is cleaner.
    server = await startPostgres();
    databaseUrl = await createDatabase(server.adminUrl);
    await promisify(execFile)(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/migrate.ts"], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl } as unknown as NodeJS.ProcessEnv,
    });
    // A short key-cache lifetime, so an outage reaches authentication within the test's time.
    app = await startApp({ databaseUrl, env: { KEY_CACHE_TTL_MS: "200", RATE_LIMIT_DEFAULT: "100000/60s" } });
    key = await mintKey(app.url, "db faults");
  });
  afterAll(async () => {
    await app?.stop();
    await server?.stop();
  });

  const languages = () => call(app.url, "GET", "/api/v1/languages", { key });
  const requestsTotal = async () =>
    Number((await sql(databaseUrl, "SELECT requests_total FROM api_keys WHERE name = 'db faults'"))[0].requests_total);

  /** Every response is a 200 or a clean 503 SERVICE_UNAVAILABLE with Retry-After; the server never drops a connection. */
  function expectClean(outcomes: Outcome[]) {
    const bad = outcomes.filter(
      (o) => !(o.status === 200 || (o.status === 503 && "code" in o && o.code === "SERVICE_UNAVAILABLE" && o.retryAfter === "5")),
    );
    expect(bad.slice(0, 5), `${bad.length} unclean outcomes`).toEqual([]);
  }

  it("server restarted (2 s down): clean 503s, no crash, and afterwards requests_total = exactly the requests served", async () => {
    const before = await requestsTotal();
    const outcomes = await underLoad(8, languages, async () => {
      await sleep(700);
      await server.restart(2_000);
      await waitFor(async () => {
        if ((await call(app.url, "GET", "/health")).status !== 200) throw new Error("not healthy yet");
      }, 20_000);
      await sleep(700);
    });
    expect(app.process.exitCode).toBeNull();
    expectClean(outcomes);
    const served = outcomes.filter((o) => o.status === 200).length;
    const refused = outcomes.filter((o) => o.status === 503).length;
    expect(refused, "the outage was never visible").toBeGreaterThan(0);
    expect(served).toBeGreaterThan(0);
    expect(outcomes.at(-1)?.status).toBe(200); // recovered
    // /me writes this instance's pending counts first, then counts itself: every served request exactly once.
    const me = await call(app.url, "GET", "/api/v1/auth/keys/me", { key });
    expect(me.status).toBe(200);
    expect(me.body.requests_total).toBe(before + served + 1);
    expect(await requestsTotal()).toBe(before + served + 1);
  });

  it("every connection killed repeatedly (pg_terminate_backend) mid-transaction: nothing lost, nothing counted twice", async () => {
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    const dbName = new URL(databaseUrl).pathname.slice(1);
    try {
      const before = await requestsTotal();
      const outcomes = await underLoad(8, languages, async () => {
        for (let i = 0; i < 15; i++) {
          await sleep(100);
          await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [dbName]);
        }
        await sleep(500);
      });
      expect(app.process.exitCode).toBeNull();
      expectClean(outcomes);
      const served = outcomes.filter((o) => o.status === 200).length;
      expect(served).toBeGreaterThan(0);
      const me = await call(app.url, "GET", "/api/v1/auth/keys/me", { key });
      expect(me.status).toBe(200);
      expect(me.body.requests_total).toBe(before + served + 1);
      // Per-day rows agree with the total (the same batches wrote both).
      const [{ sum }] = await sql(
        databaseUrl,
        "SELECT sum(requests)::int AS sum FROM usage_daily u JOIN api_keys k ON k.id = u.key_id WHERE k.name = 'db faults'",
      );
      expect(sum).toBe(me.body.requests_total);
    } finally {
      await admin.end();
    }
  });
});

describe("the rate-limit store hangs or dies under load (fail open: served, limits per instance)", () => {
  /** A TCP server that accepts connections and never answers: the worst kind of store outage. */
  async function blackHole(): Promise<{ port: number; close: () => Promise<void> }> {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((s) => {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => sockets.delete(s));
    });
    const port = await freePort();
    await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
    return {
      port,
      close: async () => {
        for (const s of sockets) s.destroy();
        await new Promise((r) => server.close(r));
      },
    };
  }

  it.each(["redis", "upstash"] as const)(
    "%s accepting connections but never answering: 40 concurrent requests all served within the store timeout",
    async (backend) => {
      const hole = await blackHole();
      const url = backend === "redis" ? `redis://127.0.0.1:${hole.port}` : `http://127.0.0.1:${hole.port}`;
      const env = backend === "redis" ? { REDIS_URL: url } : { UPSTASH_REDIS_REST_URL: url, UPSTASH_REDIS_REST_TOKEN: "t" };
      const app = await startApp({ env: { ...env, RATE_LIMIT_TIMEOUT_MS: "200" } });
      try {
        const key = await mintKey(app.url, `hole ${backend}`);
        const { res: all, ms } = await timed(() => Promise.all(Array.from({ length: 40 }, () => call(app.url, "GET", "/api/v1/languages", { key }))));
        expect(all.map((r) => r.status)).toEqual(Array(40).fill(200));
        for (const r of all) expect(r.headers.get("x-ratelimit-limit")).toBe("120");
        expect(ms).toBeLessThan(5_000);
        const health = await call(app.url, "GET", "/health", { headers: OPERATOR_HEADERS });
        expect(health.body.checks.rate_limiter).toMatchObject({ backend, ok: false, fail_mode: "open", status: "degraded" });
      } finally {
        await app.stop();
        await hole.close();
      }
    },
  );

  it("redis killed in the middle of a load: no 5xx, the limit still enforced per instance, and back on redis when it returns", async () => {
    let redis: RedisServer = await startRedis();
    const app = await startApp({ env: { REDIS_URL: redis.url, RATE_LIMIT_DEFAULT: "100000/60s", RATE_LIMIT_TIMEOUT_MS: "200" } });
    try {
      const key = await mintKey(app.url, "redis dies");
      const outcomes = await underLoad(
        6,
        () => call(app.url, "GET", "/api/v1/languages", { key }),
        async () => {
          await sleep(500);
          await redis.stop();
          await sleep(1_500);
          redis = await startRedis({ port: redis.port });
          await sleep(1_000);
        },
      );
      expect(outcomes.filter((o) => o.status !== 200).slice(0, 5)).toEqual([]);
      expect(outcomes.length).toBeGreaterThan(20);
      await waitFor(async () => {
        const h = await call(app.url, "GET", "/health", { headers: OPERATOR_HEADERS });
        if (!h.body.checks.rate_limiter.ok) throw new Error("limiter not back yet");
      }, 10_000);
    } finally {
      await app.stop();
      await redis.stop();
    }
  });
});

describe("SIGTERM under load: in-flight requests finish, their usage is written, nothing half-done", () => {
  it("answers every accepted request, exits, and the counts survive the restart exactly", async () => {
    const ups = await emulators();
    const dir = onPostgres ? undefined : mkdtempSync(path.join(tmpdir(), "lugha-sigterm-"));
    const databaseUrl = dir ? `pglite:${dir}` : undefined;
    let app = await startApp({ databaseUrl, env: liveEnv(ups, { RATE_LIMIT_TRANSLATE: "1000/60s" }) });
    try {
      const key = await mintKey(app.url, "sigterm");
      ups[0].setControls({ latencyMs: 1_500 });
      const N = 20;
      const inflight = Array.from({ length: N }, () => call(app.url, "POST", "/api/v1/translate", { key, json: LUGANDA }).catch((err: Error) => err));
      await waitFor(
        async () => {
          if (ups[0].stats.inFlight < N) throw new Error(`${ups[0].stats.inFlight} in flight`);
        },
        10_000,
        20,
      );
      const exited = new Promise<number | null>((r) => app.process.once("exit", (code) => r(code)));
      app.process.kill("SIGTERM");
      const results = await Promise.all(inflight);
      for (const r of results) {
        expect(r).not.toBeInstanceOf(Error);
        expect((r as JsonResponse).status).toBe(200);
      }
      const code = await exited;
      expect([0, 143]).toContain(code);
      expect(app.logs()).not.toMatch(/usage not written|unhandled/i);

      // Same database, new process: every request counted exactly once, and the characters of every translation.
      app = await startApp({ databaseUrl: app.databaseUrl, env: liveEnv(ups) });
      ups[0].reset();
      const me = await call(app.url, "GET", "/api/v1/auth/keys/me", { key });
      expect(me.body.requests_total).toBe(N + 1);
      const chars = (results[0] as JsonResponse).body.characters_translated as number;
      await app.stop();
      const [row] = await sql(
        app.databaseUrl,
        "SELECT sum(u.requests)::int AS requests, sum(u.characters_translated)::int AS characters FROM usage_daily u JOIN api_keys k ON k.id = u.key_id WHERE k.name = 'sigterm'",
      );
      expect(row).toEqual({ requests: N + 1, characters: N * chars });
    } finally {
      await app.stop();
      await Promise.all(ups.map((u) => u.close()));
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });
});
