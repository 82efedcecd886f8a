/**
 * Load benchmark: the app (production build, `next start`) against a bare Node proxy baseline, same upstream, same
 * load, same run.
 *
 *   npm run bench                         (= tsx bench/run.ts)
 *
 *   BENCH_SKIP_BUILD=1        reuse the existing .next build
 *   BENCH_DATABASES=pglite,postgres       which databases to run the app on (default both)
 *   BENCH_SCENARIOS=translate-0ms,...     subset of scenarios (default all; names in SCENARIOS below)
 *   BENCH_DURATION=20         seconds per measured run;  BENCH_WARMUP=3  seconds of warm-up before each
 *   BENCH_CONNECTIONS=50      concurrent connections
 *   BENCH_OUT=bench/results   where the JSON and RESULTS.md go
 *   BENCH_APP_DIR=<dir>       run the app from this directory's build (default: a private copy of this checkout's .next)
 *   BENCH_FLOOR_DIR=<dir>     build the framework floor there and reuse it on later runs (default: a temporary copy)
 *   BENCH_CACHE_MAX_MB=32     TRANSLATION_CACHE_MAX_BYTES (in MiB) of the cache-on app, which the memory step fills
 *
 * What runs: the three upstream emulators in one child process on loopback ports (bench/emulators.ts); the app in
 * live mode with SUNBIRD/KHAYA/HF_API_URL pointed at them and every per-key rate limit raised out of the way; the
 * baseline (bench/baseline-proxy.mjs: no auth, limits, database or validation) forwarding the same requests to the same
 * emulator; and the framework floor (bench/floor.ts: the same Next.js build plus one bare forwarding route, built in a
 * copy of the checkout). Scenarios on the app with TRANSLATION_CACHE=off (like for like with the baseline and the
 * floor): POST /translate with upstream latency 0 ms and 100 ms, a 50-item batch at 100 ms, GET /languages, and the
 * replay workload (bench/workload.ts: 80 % repeated strings). Then the app restarted with the cache on: the same
 * replay, a cache hit (one repeated string) beside the floor and the baseline, and the memory step (distinct texts
 * until the cache is full at its byte bound: idle and peak RSS). For each scenario: warm-up, then autocannon for
 * BENCH_DURATION seconds against each target in turn; upstream calls are counted at the emulators over the measured
 * run (their /__control stats, reset after the warm-up). Latency percentiles are computed from every response time (autocannon's own summary has no p95). Peak RSS
 * of the app's process tree is sampled every 100 ms from /proc (VmRSS), plus the kernel's VmHWM at the end.
 * Everything listens on 127.0.0.1 only.
 */

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon, { type Result } from "autocannon";
import { freePort, waitFor } from "../e2e/support/net";
import { createDatabase, type PostgresServer, startPostgres } from "../e2e/support/postgres";
import { FLOOR_PATH, prepareFloor } from "./floor";
import { fillTexts, REPLAY, replayBodies } from "./workload";

type Db = "pglite" | "postgres";
type Target = "app" | "floor" | "baseline";
type CacheMode = "on" | "off";

interface Scenario {
  name: string;
  title: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
  /** A body per request instead of `body` (a fresh sequence for every target and run). */
  bodies?: () => () => string;
  upstreamLatencyMs: number;
  /** Which app process serves it: TRANSLATION_CACHE off or on. */
  cache: CacheMode;
  /** Also measured against the framework floor (single translations only) and the baseline. */
  targets: Target[];
}

interface Measurement {
  database: Db | "-";
  scenario: string;
  target: Target;
  /** The app's TRANSLATION_CACHE during the run. */
  cache?: CacheMode;
  requests_per_second: number;
  requests: number;
  latency_ms: { p50: number; p95: number; p99: number; mean: number; max: number };
  errors: { total: number; non_2xx: number; socket: number; timeouts: number; by_status: Record<string, number> };
  peak_rss_mb?: number;
  /** RSS when the measured run started (the process is reused across scenarios, and RSS rarely shrinks). */
  start_rss_mb?: number;
  /** CPU time (user + system) the app's process tree spent per request during the measured run. */
  cpu_ms_per_request?: number;
  /** Translation calls the emulators received during the measured run, per 1,000 requests answered. */
  upstream_calls_per_1000: number;
  duration_s: number;
}

interface MemoryResult {
  database: Db;
  cache_max_bytes: number;
  /** After start-up and one request, before any load. */
  idle_rss_mb: number;
  /** Highest RSS while distinct texts were translated until the cache was full. */
  peak_rss_mb: number;
  end_rss_mb: number;
  texts_sent: number;
  characters_sent: number;
  seconds: number;
}

const env = process.env;
const ROOT = path.resolve(import.meta.dirname, "..");
const DURATION = Number(env.BENCH_DURATION ?? 20);
const WARMUP = Number(env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 50);
const OUT = path.resolve(ROOT, env.BENCH_OUT ?? "bench/results");
const CACHE_MAX_BYTES = Number(env.BENCH_CACHE_MAX_MB ?? 32) * 1024 * 1024;
const DATABASES = (env.BENCH_DATABASES ?? "pglite,postgres")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean) as Db[];

const TEXT = "Good morning, how are you? The market opens at eight and the bus leaves at nine.";
const ALL: Target[] = ["app", "floor", "baseline"];
const SCENARIOS: Scenario[] = [
  {
    name: "translate-0ms",
    title: "POST /translate, upstream 0 ms",
    method: "POST",
    path: "/api/v1/translate",
    upstreamLatencyMs: 0,
    body: JSON.stringify({ text: TEXT, source_lang: "en", target_lang: "lug" }),
    cache: "off",
    targets: ALL,
  },
  {
    name: "translate-100ms",
    title: "POST /translate, upstream 100 ms",
    method: "POST",
    path: "/api/v1/translate",
    upstreamLatencyMs: 100,
    body: JSON.stringify({ text: TEXT, source_lang: "en", target_lang: "lug" }),
    cache: "off",
    targets: ALL,
  },
  {
    name: "batch50-100ms",
    title: "POST /translate/batch (50 items), upstream 100 ms",
    method: "POST",
    path: "/api/v1/translate/batch",
    upstreamLatencyMs: 100,
    body: JSON.stringify({
      items: Array.from({ length: 50 }, (_, i) => ({ id: `item-${i}`, text: `${TEXT} (${i})`, source_lang: "en", target_lang: "lug" })),
    }),
    cache: "off",
    targets: ["app", "baseline"],
  },
  {
    name: "languages",
    title: "GET /languages",
    method: "GET",
    path: "/api/v1/languages",
    upstreamLatencyMs: 0,
    cache: "off",
    targets: ["app", "baseline"],
  },
  ...(["off", "on"] as const).map(
    (cache): Scenario => ({
      name: `replay-cache-${cache}`,
      title: `Replay, ${REPLAY.repeatShare * 100} % repeated strings, upstream 100 ms, cache ${cache}`,
      method: "POST",
      path: "/api/v1/translate",
      upstreamLatencyMs: 100,
      bodies: replayBodies,
      cache,
      targets: ["app"],
    }),
  ),
  {
    name: "cache-hit",
    title: "POST /translate, one repeated string (a cache hit), upstream 0 ms",
    method: "POST",
    path: "/api/v1/translate",
    upstreamLatencyMs: 0,
    body: JSON.stringify({ text: TEXT, source_lang: "en", target_lang: "lug" }),
    cache: "on",
    targets: ALL,
  },
].filter((s) => !env.BENCH_SCENARIOS || env.BENCH_SCENARIOS.split(",").includes(s.name)) as Scenario[];

const children = new Set<ChildProcess>();
const cleanups: (() => Promise<void> | void)[] = [];

function log(msg: string) {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

/** Spawns a process (in its own process group, so it can be stopped with everything it started) and waits for its first stdout line. */
async function spawnWithReadyLine(cmd: string, args: string[], childEnv: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(cmd, args, { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
  children.add(child);
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  const line = await new Promise<string>((resolve, reject) => {
    let buf = "";
    child.stdout!.on("data", (d) => {
      buf += d;
      const nl = buf.indexOf("\n");
      if (nl >= 0) resolve(buf.slice(0, nl));
    });
    child.once("exit", (code) => reject(new Error(`${cmd} ${args.join(" ")} exited ${code}: ${stderr}`)));
    setTimeout(() => reject(new Error(`${args.join(" ")}: no ready line in 30 s: ${stderr}`)), 30_000).unref();
  });
  return { child, line };
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") {
  children.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  try {
    process.kill(-child.pid!, signal);
  } catch {
    child.kill(signal);
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* gone */
    }
  }, 15_000);
  await exited;
  clearTimeout(timer);
}

const tsx = (script: string) => [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), script];

// ---------------------------------------------------------------------------------------------------------------- RSS

function descendants(pid: number): number[] {
  const out = [pid];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const kids = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      if (kids) for (const k of kids.split(/\s+/)) out.push(...descendants(Number(k)));
    }
  } catch {
    /* exited */
  }
  return out;
}

function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** CPU time (user + system, ms) used so far by a process tree. */
function cpuMs(pid: number): number {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  return descendants(pid).reduce((sum, p) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
      return sum + (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      return sum;
    }
  }, 0);
}

/** Polls the summed VmRSS of a process tree; stop() returns the highest value seen, in MB. */
function rssSampler(pid: number) {
  let peakKb = 0;
  const sample = () => {
    const kb = descendants(pid).reduce((sum, p) => sum + statusKb(p, "VmRSS"), 0);
    if (kb > peakKb) peakKb = kb;
    return kb;
  };
  const startKb = sample();
  const timer = setInterval(sample, 100);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return { peak: Math.round(peakKb / 1024), start: Math.round(startKb / 1024) };
    },
  };
}

// ------------------------------------------------------------------------------------------------------------- load

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

const round1 = (n: number) => Math.round(n * 10) / 10;

async function load(
  url: string,
  s: Scenario,
  key: string | undefined,
  seconds: number,
  nextBody?: () => string,
): Promise<{ result: Result; latencies: Float64Array }> {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (s.body || nextBody) headers["content-type"] = "application/json";
  let times: number[] = [];
  const statuses: Record<string, number> = {};
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method: s.method,
        headers,
        body: s.body,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 30,
        ...(nextBody ? { requests: [{ setupRequest: (req) => ({ ...req, body: nextBody() }) }] } : {}),
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      times.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
  (result as Result & { byStatus: Record<string, number> }).byStatus = statuses;
  const latencies = Float64Array.from(times).sort();
  times = [];
  return { result, latencies };
}

async function measure(
  database: Db,
  target: Target,
  url: string,
  s: Scenario,
  upstreams: Record<string, string>,
  key: string | undefined,
  pid?: number,
): Promise<Measurement> {
  // One sequence for warm-up and measured run: the replay's warm-up fills the cache with what the run will repeat.
  const nextBody = s.bodies?.();
  if (WARMUP > 0) await load(url, s, key, WARMUP, nextBody);
  await upstreamCalls(upstreams, "reset");
  const sampler = pid ? rssSampler(pid) : undefined;
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const { result, latencies } = await load(url, s, key, DURATION, nextBody);
  const cpu = pid ? cpuMs(pid) - cpuBefore : undefined;
  const calls = await upstreamCalls(upstreams, "read");
  const rss = sampler?.stop();
  const peak = rss?.peak;
  const byStatus = (result as Result & { byStatus: Record<string, number> }).byStatus;
  const n = latencies.length;
  const mean = n ? latencies.reduce((a, b) => a + b, 0) / n : 0;
  const m: Measurement = {
    database,
    scenario: s.name,
    target,
    ...(target === "app" ? { cache: s.cache } : {}),
    requests_per_second: round1(result["2xx"] / result.duration),
    requests: result.requests.total,
    latency_ms: {
      p50: round1(percentile(latencies, 50)),
      p95: round1(percentile(latencies, 95)),
      p99: round1(percentile(latencies, 99)),
      mean: round1(mean),
      max: round1(n ? latencies[n - 1] : 0),
    },
    errors: {
      total: result.non2xx + result.errors + result.timeouts,
      non_2xx: result.non2xx,
      socket: result.errors,
      timeouts: result.timeouts,
      by_status: byStatus,
    },
    ...(rss ? { peak_rss_mb: rss.peak, start_rss_mb: rss.start } : {}),
    ...(cpu !== undefined && result.requests.total > 0 ? { cpu_ms_per_request: Math.round((cpu / result.requests.total) * 100) / 100 } : {}),
    upstream_calls_per_1000: result.requests.total > 0 ? round1((calls / result.requests.total) * 1000) : 0,
    duration_s: result.duration,
  };
  log(
    `${database} ${s.name} ${target}: ${m.requests_per_second} req/s, p50 ${m.latency_ms.p50} p95 ${m.latency_ms.p95} p99 ${m.latency_ms.p99} ms, errors ${m.errors.total}, upstream calls/1000 ${m.upstream_calls_per_1000}` +
      (peak !== undefined ? `, peak RSS ${peak} MB, CPU ${m.cpu_ms_per_request} ms/request` : ""),
  );
  return m;
}

// -------------------------------------------------------------------------------------------------------- processes

async function setLatency(upstreams: Record<string, string>, latencyMs: number) {
  for (const url of Object.values(upstreams)) {
    const res = await fetch(`${url}/__control`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ latencyMs }),
    });
    if (!res.ok) throw new Error(`emulator control ${url}: ${res.status}`);
  }
}

/** Translation calls the emulators received (summed over the three), or zeroes their counters. */
async function upstreamCalls(upstreams: Record<string, string>, op: "read" | "reset"): Promise<number> {
  let calls = 0;
  for (const url of Object.values(upstreams)) {
    const res = await fetch(op === "reset" ? `${url}/__control/stats/reset` : `${url}/__control`, { method: op === "reset" ? "POST" : "GET" });
    if (!res.ok) throw new Error(`emulator stats ${url}: ${res.status}`);
    calls += ((await res.json()) as { stats: { translations: { calls: number } } }).stats.translations.calls;
  }
  return calls;
}

/**
 * A private copy of the production build to run from, so a `next build` started by someone else during the run (it
 * rewrites .next in place) cannot change what is being measured half-way. Source files are symlinked.
 */
function snapshotBuild(tmp: string): string {
  const dir = path.join(tmp, "app");
  mkdirSync(dir);
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("no production build in .next (run without BENCH_SKIP_BUILD)");
  cpSync(path.join(ROOT, ".next"), path.join(dir, ".next"), { recursive: true, filter: (src) => !src.startsWith(path.join(ROOT, ".next/cache")) });
  for (const name of ["node_modules", "package.json", "next.config.mjs", "prisma", "public", "lib", "app", "instrumentation.ts", "tsconfig.json"]) {
    if (existsSync(path.join(ROOT, name))) symlinkSync(path.join(ROOT, name), path.join(dir, name));
  }
  return dir;
}

async function startApp(
  appDir: string,
  databaseUrl: string,
  upstreams: Record<string, string>,
  extraEnv: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; logs: () => string }> {
  const port = await freePort();
  const appEnv: NodeJS.ProcessEnv = {
    PATH: env.PATH,
    HOME: env.HOME,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: databaseUrl,
    PROVIDER_MODE: "live",
    SUNBIRD_API_URL: upstreams.sunbird,
    KHAYA_API_URL: upstreams.khaya,
    HF_API_URL: upstreams.hf,
    HF_HUB_URL: upstreams.hf, // the emulator also answers the Hub's model information
    API_KEY_HASH_SECRET: "bench-hash-secret",
    NEXTAUTH_SECRET: "bench-nextauth-secret-of-32-characters",
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    // Raised out of the way (a short window keeps the in-process sliding log small); the limiter still runs.
    RATE_LIMIT_TRANSLATE: "100000000/1s",
    RATE_LIMIT_BATCH: "100000000/1s",
    RATE_LIMIT_DEFAULT: "100000000/1s",
    // provider_a's budget (Sunbird's 50 a minute) would send most of the run to provider_c; counted, never reached.
    UPSTREAM_BUDGET_PROVIDER_A: "100000000/1s",
    ...(env.BENCH_APP_ENV ? JSON.parse(env.BENCH_APP_ENV) : {}),
    ...extraEnv,
  };
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: appDir,
    env: appEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.add(child);
  let output = "";
  child.stdout!.on("data", (d) => (output = (output + d).slice(-100_000)));
  child.stderr!.on("data", (d) => (output = (output + d).slice(-100_000)));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`next start exited ${child.exitCode}: ${output}`);
      const res = await fetch(`${url}/health`);
      if (res.status !== 200) throw new Error(`health ${res.status}`);
    },
    90_000,
    200,
  );
  return { url, child, logs: () => output };
}

async function mintKey(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/keys`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "bench" }),
  });
  if (res.status !== 200) throw new Error(`mint ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { api_key: string }).api_key;
}

/**
 * One request of each scenario must succeed before load is thrown at it (a benchmark of 401s measures nothing); the
 * cache-hit scenario must be answered from the cache from its second request on.
 */
async function smoke(url: string, s: Scenario, key?: string) {
  const body = s.body ?? s.bodies?.()();
  const send = () =>
    fetch(url, {
      method: s.method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
      body,
    });
  const res = await send();
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${s.name} smoke test against ${url}: ${res.status} ${text.slice(0, 300)}`);
  if (s.name.startsWith("batch") && JSON.parse(text).failed !== 0) throw new Error(`${s.name}: items failed: ${text.slice(0, 300)}`);
  if (key && s.name === "cache-hit") {
    const again = await send();
    await again.body?.cancel();
    if (again.headers.get("x-lugha-cache") !== "hit")
      throw new Error(`cache-hit: second request answered X-Lugha-Cache: ${again.headers.get("x-lugha-cache")}`);
  }
}

/**
 * Translates distinct texts (50-item batches, 4 in flight) until more characters than the cache's byte bound have
 * come back, so the cache is full and evicting; samples the app's RSS meanwhile.
 */
async function fillCache(database: Db, url: string, key: string, pid: number, maxBytes: number): Promise<MemoryResult> {
  const idle = descendants(pid).reduce((sum, p) => sum + statusKb(p, "VmRSS"), 0);
  const sampler = rssSampler(pid);
  const started = performance.now();
  const TEXT_CHARS = 4000;
  const target = Math.ceil((maxBytes * 1.25) / TEXT_CHARS);
  let sent = 0;
  const worker = async () => {
    while (sent < target) {
      const items = fillTexts(sent, 50, TEXT_CHARS).map((text, i) => ({ id: `f${i}`, text, source_lang: "en", target_lang: "lug" }));
      sent += items.length;
      const res = await fetch(`${url}/api/v1/translate/batch`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ items }),
      });
      const out = (await res.json()) as { failed?: number };
      if (res.status !== 200 || out.failed !== 0) throw new Error(`cache fill: ${res.status} ${JSON.stringify(out).slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  const rss = sampler.stop();
  const end = Math.round(descendants(pid).reduce((sum, p) => sum + statusKb(p, "VmRSS"), 0) / 1024);
  const m: MemoryResult = {
    database,
    cache_max_bytes: maxBytes,
    idle_rss_mb: Math.round(idle / 1024),
    peak_rss_mb: rss.peak,
    end_rss_mb: end,
    texts_sent: sent,
    characters_sent: sent * TEXT_CHARS,
    seconds: round1((performance.now() - started) / 1000),
  };
  log(`${database} cache fill: ${sent} texts in ${m.seconds} s; RSS idle ${m.idle_rss_mb} MB, peak ${m.peak_rss_mb} MB, end ${end} MB`);
  return m;
}

// ---------------------------------------------------------------------------------------------------------- report

function ratio(app: Measurement, base: Measurement | undefined): string {
  if (app.target !== "app" || !base || base.requests_per_second === 0) return "";
  return `${(app.requests_per_second / base.requests_per_second).toFixed(2)}×`;
}

function markdown(all: Measurement[], memory: MemoryResult[], meta: Record<string, unknown>): string {
  const lines = [
    "| database | scenario | target | cache | req/s | p50 ms | p95 ms | p99 ms | errors | peak RSS | CPU ms/req | upstream calls /1000 req | app/floor | app/baseline |",
    "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const m of all) {
    const other = (target: Target) => all.find((b) => b.target === target && b.scenario === m.scenario && b.database === m.database);
    lines.push(
      `| ${m.database} | ${SCENARIOS.find((s) => s.name === m.scenario)?.title ?? m.scenario} | ${m.target} | ${m.cache ?? ""} | ${m.requests_per_second} | ${m.latency_ms.p50} | ${m.latency_ms.p95} | ${m.latency_ms.p99} | ${m.errors.total} | ${m.peak_rss_mb !== undefined ? `${m.peak_rss_mb} MB (${m.start_rss_mb})` : "–"} | ${m.cpu_ms_per_request ?? "–"} | ${m.upstream_calls_per_1000} | ${ratio(m, other("floor"))} | ${ratio(m, other("baseline"))} |`,
    );
  }
  const mem = [
    "| database | cache bound | idle RSS | peak RSS while filling | RSS after | texts sent | seconds |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...memory.map(
      (m) =>
        `| ${m.database} | ${m.cache_max_bytes / 1024 / 1024} MiB | ${m.idle_rss_mb} MB | ${m.peak_rss_mb} MB | ${m.end_rss_mb} MB | ${m.texts_sent} × ${m.characters_sent / m.texts_sent} chars | ${m.seconds} |`,
    ),
  ];
  return [
    "# Benchmark results",
    "",
    `Generated by \`npm run bench\` (bench/run.ts) at ${meta.finished_at} on commit ${meta.commit}. ${meta.connections} connections, ${meta.duration_s} s per run after ${meta.warmup_s} s of warm-up, ` +
      `on ${meta.cpus}× ${meta.cpu_model}, Node ${meta.node}, load average ${JSON.stringify(meta.load_average_at_end)} at the end. App: \`next start\` (production build), live provider clients against loopback ` +
      "emulators, rate limits raised. Floor: the same Next.js build plus one bare route handler forwarding to the same emulator (bench/floor.ts). " +
      "Baseline: bench/baseline-proxy.mjs (bare node:http + fetch to the same emulator; no auth, limits, " +
      "database or validation). Load generator, emulators, app, floor, baseline and PostgreSQL share the same cores, so absolute numbers are " +
      "machine-bound; the ratios are the figures to compare. PostgreSQL runs with fsync=off, synchronous_commit=off (e2e/support/postgres.ts).",
    "",
    ...lines,
    "",
    "`cache` = the app's TRANSLATION_CACHE. `errors` = non-2xx + socket errors + timeouts. `CPU ms/req` = user+system CPU of the server's process tree during the run divided by the requests served (less sensitive to the shared cores than req/s). " +
      "`upstream calls /1000 req` = translation calls the emulators received during the measured run per 1,000 requests. " +
      `Replay: ${REPLAY.repeatShare * 100} % of requests repeat one of ${REPLAY.hotStrings} hot strings, the rest are strings not sent before (seed ${REPLAY.seed}, bench/workload.ts); its warm-up runs the same sequence. ` +
      "`peak RSS (start)` = highest summed VmRSS of the server's process tree, sampled every 100 ms during the measured run, and in brackets its RSS when the run started — one process serves several scenarios and V8 rarely gives memory back, so growth carries over" +
      (meta.vm_hwm_mb ? `; kernel VmHWM at the end of each app process: ${JSON.stringify(meta.vm_hwm_mb)}` : "") +
      ".",
    "",
    "Memory with the in-process cache full (the cache-on app, TRANSLATION_CACHE_MAX_BYTES = the bound; distinct texts in 50-item batches until 1.25× the bound in characters had been translated):",
    "",
    ...mem,
    "",
  ].join("\n");
}

// ------------------------------------------------------------------------------------------------------------ main

async function main() {
  if (env.BENCH_SKIP_BUILD !== "1") {
    log("building (npm run build); set BENCH_SKIP_BUILD=1 to reuse .next");
    const r = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
    if (r.status !== 0) throw new Error("build failed");
  }
  mkdirSync(OUT, { recursive: true });
  const tmp = mkdtempSync(path.join(os.tmpdir(), "lugha-bench-"));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  // BENCH_APP_DIR: run an existing build directory instead (e.g. an older build, for before/after comparisons).
  const appDir = env.BENCH_APP_DIR ? path.resolve(env.BENCH_APP_DIR) : snapshotBuild(tmp);

  const emu = await spawnWithReadyLine(process.execPath, tsx("bench/emulators.ts"), { PATH: env.PATH, HOME: env.HOME, NODE_ENV: "production" });
  const upstreams = JSON.parse(emu.line) as Record<string, string>;
  log(`emulators: ${emu.line}`);

  const floorDir = prepareFloor(ROOT, env.BENCH_FLOOR_DIR ? path.resolve(env.BENCH_FLOOR_DIR) : path.join(tmp, "floor"), log);
  // The floor's database is never touched by its route; it only has to start.
  const floor = await startApp(floorDir, "pglite:memory", upstreams);
  log(`framework floor: ${floor.url}`);

  const all: Measurement[] = [];
  const memory: MemoryResult[] = [];
  const hwm: Record<string, number> = {};
  let pg: PostgresServer | undefined;
  let baseline: { child: ChildProcess; url: string } | undefined;

  for (const db of DATABASES) {
    let databaseUrl: string;
    if (db === "postgres") {
      pg ??= await startPostgres();
      databaseUrl = await createDatabase(pg.adminUrl);
      const mig = spawnSync(process.execPath, tsx("scripts/migrate.ts"), {
        cwd: ROOT,
        env: { PATH: env.PATH, HOME: env.HOME, NODE_ENV: "production", DATABASE_URL: databaseUrl },
        encoding: "utf8",
      });
      if (mig.status !== 0) throw new Error(`migrate: ${mig.stderr}`);
    } else {
      databaseUrl = `pglite:${path.join(tmp, "pglite")}`;
    }
    for (const cache of ["off", "on"] as const) {
      const scenarios = SCENARIOS.filter((sc) => sc.cache === cache);
      if (!scenarios.length && cache === "off") continue;
      log(`starting the app on ${db}, TRANSLATION_CACHE=${cache}`);
      const app = await startApp(appDir, databaseUrl, upstreams, {
        TRANSLATION_CACHE: cache,
        ...(cache === "on" ? { TRANSLATION_CACHE_MAX_BYTES: String(CACHE_MAX_BYTES) } : {}),
      });
      const key = await mintKey(app.url);

      if (!baseline) {
        // The baseline serves the app's own /languages body, captured once.
        const langs = await fetch(`${app.url}/api/v1/languages`, { headers: { authorization: `Bearer ${key}` } });
        const file = path.join(tmp, "languages.json");
        writeFileSync(file, Buffer.from(await langs.arrayBuffer()));
        const b = await spawnWithReadyLine(
          process.execPath,
          [path.join(ROOT, "bench/baseline-proxy.mjs"), "--upstream", upstreams.sunbird, "--languages-file", file],
          { PATH: env.PATH, HOME: env.HOME, NODE_ENV: "production" },
        );
        baseline = { child: b.child, url: (JSON.parse(b.line) as { url: string }).url };
        log(`baseline: ${baseline.url}`);
      }

      const servers: Record<Target, { url: string; pid?: number; key?: string }> = {
        app: { url: app.url, pid: app.child.pid, key },
        floor: { url: floor.url, pid: floor.child.pid },
        baseline: { url: baseline.url, pid: baseline.child.pid },
      };
      for (const s of scenarios) {
        await setLatency(upstreams, s.upstreamLatencyMs);
        const urlOf = (t: Target) => servers[t].url + (t === "floor" ? FLOOR_PATH : s.path);
        for (const t of s.targets) await smoke(urlOf(t), s, servers[t].key);
        for (const t of s.targets) all.push(await measure(db, t, urlOf(t), s, upstreams, servers[t].key, servers[t].pid));
      }
      if (cache === "on") {
        await setLatency(upstreams, 0);
        memory.push(await fillCache(db, app.url, key, app.child.pid!, CACHE_MAX_BYTES));
      }
      hwm[`${db}, cache ${cache}`] = Math.round(descendants(app.child.pid!).reduce((sum, p) => sum + statusKb(p, "VmHWM"), 0) / 1024);
      const errors = app
        .logs()
        .split("\n")
        .filter((l) => /error|unhandled|warn/i.test(l));
      if (errors.length) log(`app log lines mentioning errors (${errors.length}):\n  ${errors.slice(0, 10).join("\n  ")}`);
      await stopChild(app.child);
    }
  }

  const git = (args: string[]) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" }).stdout?.trim() ?? "";
  const meta = {
    finished_at: new Date().toISOString(),
    commit: `${git(["rev-parse", "--short", "HEAD"]) || "unknown"}${git(["status", "--porcelain", "--untracked-files=no"]) ? " (+ uncommitted changes)" : ""}`,
    app_dir: env.BENCH_APP_DIR ?? "snapshot of .next",
    floor_dir: env.BENCH_FLOOR_DIR ?? "temporary copy",
    cache_max_bytes: CACHE_MAX_BYTES,
    connections: CONNECTIONS,
    duration_s: DURATION,
    warmup_s: WARMUP,
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model.trim(),
    node: process.version,
    vm_hwm_mb: hwm,
    load_average_at_end: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
  for (const db of DATABASES) {
    writeFileSync(
      path.join(OUT, `bench-${db}.json`),
      `${JSON.stringify({ meta, results: all.filter((m) => m.database === db), memory: memory.filter((m) => m.database === db) }, null, 2)}\n`,
    );
  }
  const md = markdown(all, memory, meta);
  writeFileSync(path.join(OUT, "RESULTS.md"), md);
  process.stdout.write(`\n${md}\n`);

  if (baseline) await stopChild(baseline.child);
  await stopChild(floor.child);
  await stopChild(emu.child);
  await pg?.stop();
}

async function cleanup() {
  await Promise.all([...children].map((c) => stopChild(c, "SIGKILL")));
  for (const c of cleanups) await c();
}

process.once("SIGINT", () => void cleanup().finally(() => process.exit(130)));
main()
  .then(cleanup)
  .catch(async (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    await cleanup();
    process.exit(1);
  });
