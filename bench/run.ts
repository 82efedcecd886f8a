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
 *   BENCH_PROCESS_WARMUP=15   seconds of warm-up instead before the first run against a freshly started server
 *   BENCH_CONNECTIONS=50      concurrent connections
 *   BENCH_OUT=bench/results   where the JSON and RESULTS.md go
 *   BENCH_APP_DIR=<dir>       run the app from this directory's build (default: a private copy of this checkout's .next)
 *   BENCH_FLOOR_DIR=<dir>     build the framework floor there and reuse it on later runs (default: a temporary copy)
 *   BENCH_FLOOR_CLIENT=fetch  how the floor's route forwards: fetch (default) or node-http (Lugha's own transport)
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
import { FLOOR_PATH, type FloorClient, prepareFloor } from "./floor";
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
  /** With BENCH_ROUNDS > 1: each round's req/s (the row holds the medians). */
  rounds?: number[];
}

/** One app process: its memory at rest and at its highest, and (once per database) how long it took to serve. */
interface AppProcessResult {
  database: Db;
  cache: CacheMode;
  /** After start-up, a minted key and one request of each scenario, before any load. */
  idle_rss_mb: number;
  /** The highest RSS sampled while it served the benchmark's load (every 100 ms, all scenarios and the cache fill). */
  peak_rss_mb: number;
  /**
   * The kernel's high-water mark (VmHWM) when it stopped. On PGlite it is set at start-up, before any request: opening
   * the embedded database (PGlite's WebAssembly start-up) briefly takes about twice what it keeps a second later.
   */
  vm_hwm_mb: number;
  rss_budget_mb: number;
}

interface ColdStartResult {
  database: Db;
  /** Spawn of the launcher → first 200 on POST /api/v1/translate, each try. */
  tries_ms: number[];
  median_ms: number;
}

interface BatchProbeResult {
  database: Db;
  items: number;
  upstream_latency_ms: number;
  concurrency_per_provider: number;
  requests: number;
  elapsed_ms: number[];
  median_ms: number;
  /** Upstream calls per request / the most in flight at once, rounded up. */
  round_trips: number;
  /** Median wall time / upstream latency: round trips plus the gateway's own time. */
  elapsed_over_latency: number;
  upstream_calls_per_request: number;
  max_in_flight: number;
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
/** `npm run bench -- --check`: the short regression gate (see the top of this file). */
const CHECK = process.argv.includes("--check");
const DURATION = Number(env.BENCH_DURATION ?? (CHECK ? 10 : 20));
/** Each scenario runs its targets in turn this many times (app, floor, baseline, app, floor, …); medians are reported. */
const ROUNDS = Number(env.BENCH_ROUNDS ?? (CHECK ? 3 : 1));
/** BATCH_CONCURRENCY_PER_PROVIDER of the app the batch probe runs on (the load scenarios keep the default). */
const BATCH_CONCURRENCY = Number(env.BENCH_BATCH_CONCURRENCY ?? 16);
/** The gate: app/floor throughput at least this, and peak RSS within the database's budget. */
const MIN_FLOOR_RATIO = 0.85;
const RSS_BUDGET_MB: Record<Db, number> = { pglite: 768, postgres: 512 };
const WARMUP = Number(env.BENCH_WARMUP ?? 3);
/**
 * The first run against a freshly started server warms it up this long instead: a fresh app takes well over 3 s of
 * load to reach its steady CPU per request (JIT compilation of a far larger code path than the floor's, the heap
 * settling after start-up), so its first measured run would be a start-up measurement, against a floor that warms up
 * in a moment. Servers already warmed (by URL origin) get WARMUP.
 */
const PROCESS_WARMUP = Number(env.BENCH_PROCESS_WARMUP ?? 15);
const warmedUp = new Set<string>();
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 50);
const OUT = path.resolve(ROOT, env.BENCH_OUT ?? "bench/results");
const CACHE_MAX_BYTES = Number(env.BENCH_CACHE_MAX_MB ?? 32) * 1024 * 1024;
const DATABASES = (env.BENCH_DATABASES ?? (CHECK ? "pglite" : "pglite,postgres"))
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
]
  .filter((s) => !env.BENCH_SCENARIOS || env.BENCH_SCENARIOS.split(",").includes(s.name))
  // The gate compares the app with the framework floor on the single translation only.
  .filter((s) => !CHECK || s.name === "translate-0ms")
  .map((s) => (CHECK ? { ...s, targets: s.targets.filter((t) => t !== "baseline") } : s)) as Scenario[];

/** The one translation an app serves before its idle RSS is read. */
const IDLE_PROBE: Scenario = {
  name: "idle-probe",
  title: "one translation",
  method: "POST",
  path: "/api/v1/translate",
  body: JSON.stringify({ text: TEXT, source_lang: "en", target_lang: "lug" }),
  upstreamLatencyMs: 0,
  cache: "off",
  targets: ["app"],
};
/** How the floor's route forwards (bench/floor.ts). */
const FLOOR_CLIENT = (env.BENCH_FLOOR_CLIENT ?? "fetch") as FloorClient;
if (FLOOR_CLIENT !== "fetch" && FLOOR_CLIENT !== "node-http") throw new Error("BENCH_FLOOR_CLIENT must be fetch or node-http");
/** Cold starts timed per database (each a fresh process on the database the earlier ones migrated). */
const COLD_STARTS = Number(env.BENCH_COLD_STARTS ?? (CHECK ? 0 : 3));

/** The 50-item batch at 200 ms upstream latency, sent one at a time: how many upstream round trips it takes. */
const BATCH_PROBE = { items: 50, latencyMs: 200, requests: Number(env.BENCH_BATCH_REQUESTS ?? 5) };

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

function treeRssMb(pid: number): number {
  return Math.round(descendants(pid).reduce((sum, p) => sum + statusKb(p, "VmRSS"), 0) / 1024);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Several interleaved runs of one target as one row: medians of rates, latencies and CPU; totals of errors; the highest RSS. */
function medianMeasurement(runs: Measurement[]): Measurement {
  if (runs.length === 1) return runs[0];
  const med = (pick: (m: Measurement) => number | undefined) => {
    const values = runs.map(pick).filter((v): v is number => v !== undefined);
    return values.length ? round1(median(values)) : undefined;
  };
  const sum = (pick: (m: Measurement) => number) => runs.reduce((a, m) => a + pick(m), 0);
  const byStatus: Record<string, number> = {};
  for (const m of runs) for (const [k, v] of Object.entries(m.errors.by_status)) byStatus[k] = (byStatus[k] ?? 0) + v;
  const peaks = runs.map((m) => m.peak_rss_mb).filter((v): v is number => v !== undefined);
  return {
    ...runs[0],
    rounds: runs.map((m) => m.requests_per_second),
    requests_per_second: med((m) => m.requests_per_second)!,
    requests: sum((m) => m.requests),
    latency_ms: {
      p50: med((m) => m.latency_ms.p50)!,
      p95: med((m) => m.latency_ms.p95)!,
      p99: med((m) => m.latency_ms.p99)!,
      mean: med((m) => m.latency_ms.mean)!,
      max: Math.max(...runs.map((m) => m.latency_ms.max)),
    },
    errors: {
      total: sum((m) => m.errors.total),
      non_2xx: sum((m) => m.errors.non_2xx),
      socket: sum((m) => m.errors.socket),
      timeouts: sum((m) => m.errors.timeouts),
      by_status: byStatus,
    },
    ...(peaks.length ? { peak_rss_mb: Math.max(...peaks) } : {}),
    cpu_ms_per_request: med((m) => m.cpu_ms_per_request),
    upstream_calls_per_1000: med((m) => m.upstream_calls_per_1000)!,
    duration_s: sum((m) => m.duration_s),
  };
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
  const server = new URL(url).origin;
  const warmup = warmedUp.has(server) ? WARMUP : Math.max(WARMUP, PROCESS_WARMUP);
  warmedUp.add(server);
  if (warmup > 0) await load(url, s, key, warmup, nextBody);
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
  return (await emulatorStats(upstreams, op)).calls;
}

/** Translation calls (summed) and the most requests one emulator handled at once since the last reset. */
async function emulatorStats(upstreams: Record<string, string>, op: "read" | "reset" = "read"): Promise<{ calls: number; maxInFlight: number }> {
  let calls = 0;
  let maxInFlight = 0;
  for (const url of Object.values(upstreams)) {
    const res = await fetch(op === "reset" ? `${url}/__control/stats/reset` : `${url}/__control`, { method: op === "reset" ? "POST" : "GET" });
    if (!res.ok) throw new Error(`emulator stats ${url}: ${res.status}`);
    const { stats } = (await res.json()) as { stats: { maxInFlight: number; translations: { calls: number } } };
    calls += stats.translations.calls;
    maxInFlight = Math.max(maxInFlight, stats.maxInFlight);
  }
  return { calls, maxInFlight };
}

/**
 * The 50-item batch at 200 ms upstream latency, one request at a time (after one unmeasured), on the cache-off app with
 * BATCH_CONCURRENCY_PER_PROVIDER = BENCH_BATCH_CONCURRENCY: its wall time in upstream round trips.
 */
async function batchProbe(database: Db, url: string, key: string, upstreams: Record<string, string>): Promise<BatchProbeResult> {
  await setLatency(upstreams, BATCH_PROBE.latencyMs);
  const body = JSON.stringify({
    items: Array.from({ length: BATCH_PROBE.items }, (_, i) => ({ id: `p${i}`, text: `${TEXT} [${i}]`, source_lang: "en", target_lang: "lug" })),
  });
  const send = async () => {
    const started = performance.now();
    const res = await fetch(`${url}/api/v1/translate/batch`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
    });
    const out = (await res.json()) as { failed?: number };
    if (res.status !== 200 || out.failed !== 0) throw new Error(`batch probe: ${res.status} ${JSON.stringify(out).slice(0, 300)}`);
    return performance.now() - started;
  };
  await send();
  await emulatorStats(upstreams, "reset");
  const elapsed: number[] = [];
  for (let i = 0; i < BATCH_PROBE.requests; i++) elapsed.push(Math.round(await send()));
  const stats = await emulatorStats(upstreams);
  const med = median(elapsed);
  const m: BatchProbeResult = {
    database,
    items: BATCH_PROBE.items,
    upstream_latency_ms: BATCH_PROBE.latencyMs,
    concurrency_per_provider: BATCH_CONCURRENCY,
    requests: BATCH_PROBE.requests,
    elapsed_ms: elapsed,
    median_ms: med,
    round_trips: Math.ceil(stats.calls / BATCH_PROBE.requests / Math.max(1, stats.maxInFlight)),
    elapsed_over_latency: round1(med / BATCH_PROBE.latencyMs),
    upstream_calls_per_request: round1(stats.calls / BATCH_PROBE.requests),
    max_in_flight: stats.maxInFlight,
  };
  log(
    `${database} batch of ${m.items} at ${m.upstream_latency_ms} ms: ${elapsed.join(", ")} ms → ${m.round_trips} round trips (max in flight ${m.max_in_flight}, median ${m.elapsed_over_latency}× the latency)`,
  );
  return m;
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

interface RunningApp {
  url: string;
  child: ChildProcess;
  logs: () => string;
  /** performance.now() when the process was spawned. */
  spawnedAt: number;
}

/**
 * Spawns `npm start`'s launcher (scripts/start.mjs: `next start` with the heap cap) on a free loopback port, in live
 * mode against the emulators, and returns at once; startApp also waits for /health.
 */
async function spawnApp(
  appDir: string,
  databaseUrl: string,
  upstreams: Record<string, string>,
  extraEnv: Record<string, string> = {},
  role: "app" | "floor" = "app",
): Promise<RunningApp> {
  const port = await freePort();
  // BENCH_CPU_PROF=<dir>: each app and floor process writes a V8 CPU profile to <dir>/app or <dir>/floor when it stops
  // (bench/cpuprofile.ts reads it).
  const profile = env.BENCH_CPU_PROF ? `--cpu-prof --cpu-prof-dir=${path.resolve(env.BENCH_CPU_PROF, role)}` : "";
  const appEnv: NodeJS.ProcessEnv = {
    PATH: env.PATH,
    HOME: env.HOME,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    ...(profile ? { NODE_OPTIONS: profile } : {}),
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
  const spawnedAt = performance.now();
  // The launcher of this checkout (the floor's copy may predate it); `next start` serves the directory it runs in.
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/start.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
    cwd: appDir,
    env: appEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.add(child);
  let output = "";
  child.stdout!.on("data", (d) => (output = (output + d).slice(-100_000)));
  child.stderr!.on("data", (d) => (output = (output + d).slice(-100_000)));
  return { url: `http://127.0.0.1:${port}`, child, logs: () => output, spawnedAt };
}

async function startApp(...args: Parameters<typeof spawnApp>): Promise<RunningApp> {
  const app = await spawnApp(...args);
  await waitFor(
    async () => {
      if (app.child.exitCode !== null) throw new Error(`next start exited ${app.child.exitCode}: ${app.logs()}`);
      const res = await fetch(`${app.url}/health`);
      if (res.status !== 200) throw new Error(`health ${res.status}`);
    },
    90_000,
    200,
  );
  return app;
}

/**
 * Cold start: from spawning the launcher to the first 200 on POST /api/v1/translate (with a key minted by an earlier
 * process on the same database), polled every 20 ms. Nothing is warmed: the first request pays whatever start-up left
 * for it (compiling the route, opening the database, the availability sync).
 */
async function coldStart(appDir: string, databaseUrl: string, upstreams: Record<string, string>, key: string): Promise<number> {
  const app = await spawnApp(appDir, databaseUrl, upstreams, { TRANSLATION_CACHE: "off" });
  try {
    return await waitFor(
      async () => {
        if (app.child.exitCode !== null) throw new Error(`next start exited ${app.child.exitCode}: ${app.logs()}`);
        const res = await fetch(`${app.url}/api/v1/translate`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ text: TEXT, source_lang: "en", target_lang: "lug" }),
        });
        await res.body?.cancel();
        if (res.status !== 200) throw new Error(`translate ${res.status}`);
        return Math.round(performance.now() - app.spawnedAt);
      },
      60_000,
      20,
    );
  } finally {
    await stopChild(app.child);
  }
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

function markdown(
  all: Measurement[],
  memory: MemoryResult[],
  processes: AppProcessResult[],
  coldStarts: ColdStartResult[],
  batches: BatchProbeResult[],
  meta: Record<string, unknown>,
): string {
  const lines = [
    "| database | scenario | target | cache | req/s | p50 ms | p95 ms | p99 ms | errors | peak RSS (at start) | CPU ms/req | upstream calls /req | app/floor | app/baseline |",
    "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const m of all) {
    const other = (target: Target) => all.find((b) => b.target === target && b.scenario === m.scenario && b.database === m.database);
    const floorRatio = ratio(m, other("floor"));
    lines.push(
      `| ${m.database} | ${SCENARIOS.find((s) => s.name === m.scenario)?.title ?? m.scenario} | ${m.target} | ${m.cache ?? ""} | ${m.requests_per_second} | ${m.latency_ms.p50} | ${m.latency_ms.p95} | ${m.latency_ms.p99} | ${m.errors.total} | ${m.peak_rss_mb !== undefined ? `${m.peak_rss_mb} MB (${m.start_rss_mb})` : "–"} | ${m.cpu_ms_per_request ?? "–"} | ${(m.upstream_calls_per_1000 / 1000).toFixed(2)} | ${floorRatio ? `**${floorRatio}**` : ""} | ${ratio(m, other("baseline"))} |`,
    );
  }
  const apps = [
    "| database | app process | idle RSS | peak RSS under load | budget | VmHWM | cold start to first translation (median of tries) |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...processes.map((p) => {
      const cold = p.cache === "off" ? coldStarts.find((c) => c.database === p.database) : undefined;
      return `| ${p.database} | cache ${p.cache} | ${p.idle_rss_mb} MB | ${p.peak_rss_mb} MB | ${p.peak_rss_mb <= p.rss_budget_mb ? "within" : "**over**"} ${p.rss_budget_mb} MB | ${p.vm_hwm_mb} MB | ${cold ? `${cold.median_ms} ms (${cold.tries_ms.join(", ")})` : ""} |`;
    }),
  ];
  const batch = [
    "| database | batch | upstream latency | concurrency per provider | wall time, median (each) | upstream calls /req | max in flight | round trips |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...batches.map(
      (b) =>
        `| ${b.database} | ${b.items} items | ${b.upstream_latency_ms} ms | ${b.concurrency_per_provider} | ${b.median_ms} ms (${b.elapsed_ms.join(", ")}) | ${b.upstream_calls_per_request} | ${b.max_in_flight} | **${b.round_trips}** (${b.elapsed_over_latency}× latency) |`,
    ),
  ];
  const mem = [
    "| database | cache bound | idle RSS | peak RSS while filling | RSS after | texts sent | seconds |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...memory.map(
      (m) =>
        `| ${m.database} | ${m.cache_max_bytes / 1024 / 1024} MiB | ${m.idle_rss_mb} MB | ${m.peak_rss_mb} MB | ${m.end_rss_mb} MB | ${m.texts_sent} × ${m.characters_sent / m.texts_sent} chars | ${m.seconds} |`,
    ),
  ];
  return [
    CHECK ? "# Benchmark check (npm run bench -- --check)" : "# Benchmark results",
    "",
    `Generated by \`npm run bench${CHECK ? " -- --check" : ""}\` (bench/run.ts) at ${meta.finished_at} on commit ${meta.commit}. ${meta.connections} connections, ${meta.duration_s} s per run after ${meta.warmup_s} s of warm-up (${meta.process_warmup_s} s before the first run against a freshly started server), ` +
      `${meta.rounds} round(s) per target interleaved (medians shown), on ${meta.cpus}× ${meta.cpu_model}, Node ${meta.node}, load average ${JSON.stringify(meta.load_average_at_end)} at the end. ` +
      "App: `npm start`'s launcher (scripts/start.mjs: `next start` with the heap cap), production build, live provider clients against loopback " +
      `emulators, rate limits raised (the batch probe alone on an app with BATCH_CONCURRENCY_PER_PROVIDER=${meta.batch_concurrency_per_provider}). Floor: the same Next.js build plus one bare route handler forwarding to the same emulator with ${meta.floor_client === "fetch" ? "fetch" : "node:http and a keep-alive agent"} (bench/floor.ts), started the same way. ` +
      "Baseline: bench/baseline-proxy.mjs (bare node:http + fetch to the same emulator; no auth, limits, " +
      "database or validation). Load generator, emulators, app, floor, baseline and PostgreSQL share the same cores, so absolute numbers are " +
      "machine-bound; the ratios are the figures to compare. PostgreSQL runs with fsync=off, synchronous_commit=off (e2e/support/postgres.ts).",
    "",
    ...lines,
    "",
    "`cache` = the app's TRANSLATION_CACHE. `errors` = non-2xx + socket errors + timeouts. `CPU ms/req` = user+system CPU of the server's process tree during the run divided by the requests served (less sensitive to the shared cores than req/s). " +
      "`upstream calls /req` = translation calls the emulators received during the measured run per request answered (a little over 1 without a cache: calls of requests still in flight when the run stopped). " +
      `Replay: ${REPLAY.repeatShare * 100} % of requests repeat one of ${REPLAY.hotStrings} hot strings, the rest are strings not sent before (seed ${REPLAY.seed}, bench/workload.ts); its warm-up runs the same sequence. ` +
      "`peak RSS (at start)` = highest summed VmRSS of the server's process tree, sampled every 100 ms during the measured run, and in brackets its RSS when the run started (one process serves several scenarios).",
    "",
    ...(processes.length
      ? [
          "App processes: idle = after start-up and one translation; peak under load = the highest RSS sampled every 100 ms while the process served the load (what the budget applies to); " +
            "VmHWM = the kernel's high-water mark over the whole process, on PGlite set at start-up while the embedded database opens (for a moment about twice what it keeps), before any request. " +
            "Cold start = from spawning the launcher to the first 200 on POST /api/v1/translate, on a database an earlier process migrated.",
          "",
          ...apps,
          "",
        ]
      : []),
    ...(batches.length
      ? [
          "A 50-item batch, one request at a time (after one unmeasured), on a cache-off app with the batch concurrency above (round trips = upstream calls per request / most calls in flight at once):",
          "",
          ...batch,
          "",
        ]
      : []),
    ...(memory.length
      ? [
          "Memory with the in-process cache full (the cache-on app, TRANSLATION_CACHE_MAX_BYTES = the bound; distinct texts in 50-item batches until 1.25× the bound in characters had been translated):",
          "",
          ...mem,
          "",
        ]
      : []),
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

  const floorDir = prepareFloor(ROOT, env.BENCH_FLOOR_DIR ? path.resolve(env.BENCH_FLOOR_DIR) : path.join(tmp, "floor"), log, FLOOR_CLIENT);
  // The floor's database is never touched by its route; it only has to start.
  const floor = await startApp(floorDir, "pglite:memory", upstreams, {}, "floor");
  log(`framework floor: ${floor.url}`);

  const all: Measurement[] = [];
  const memory: MemoryResult[] = [];
  const processes: AppProcessResult[] = [];
  const coldStarts: ColdStartResult[] = [];
  const batches: BatchProbeResult[] = [];
  let pg: PostgresServer | undefined;
  let baseline: { child: ChildProcess; url: string } | undefined;

  for (const db of DATABASES) {
    let databaseUrl: string;
    if (db === "postgres") {
      pg ??= await startPostgres();
      databaseUrl = await createDatabase(pg.adminUrl);
    } else {
      databaseUrl = `pglite:${path.join(tmp, "pglite")}`;
    }
    // Both databases are created and migrated by `npm run db:migrate` first, as a deployment would, so the app measured
    // is a restart: a first-ever PGlite start also runs initdb, whose WebAssembly instance (≈350 MB) stays in the
    // process until the next full garbage collection (docs/benchmark.md).
    const mig = spawnSync(process.execPath, tsx("scripts/migrate.ts"), {
      cwd: ROOT,
      env: { PATH: env.PATH, HOME: env.HOME, NODE_ENV: "production", DATABASE_URL: databaseUrl },
      encoding: "utf8",
    });
    if (mig.status !== 0) throw new Error(`migrate: ${mig.stderr}`);
    for (const cache of ["off", "on"] as const) {
      const scenarios = SCENARIOS.filter((sc) => sc.cache === cache);
      if (!scenarios.length) continue;
      log(`starting the app on ${db}, TRANSLATION_CACHE=${cache}`);
      const app = await startApp(appDir, databaseUrl, upstreams, {
        TRANSLATION_CACHE: cache,
        ...(cache === "on" ? { TRANSLATION_CACHE_MAX_BYTES: String(CACHE_MAX_BYTES) } : {}),
      });
      const key = await mintKey(app.url);
      await smoke(`${app.url}/api/v1/translate`, IDLE_PROBE, key);
      // After PGlite's start-up transient has been returned (it lasts about a second; see AppProcessResult.vm_hwm_mb).
      await new Promise((r) => setTimeout(r, 3_000));
      const idleRssMb = treeRssMb(app.child.pid!);

      if (!baseline && !CHECK) {
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
        baseline: { url: baseline?.url ?? "", pid: baseline?.child.pid },
      };
      for (const s of scenarios) {
        await setLatency(upstreams, s.upstreamLatencyMs);
        const urlOf = (t: Target) => servers[t].url + (t === "floor" ? FLOOR_PATH : s.path);
        for (const t of s.targets) await smoke(urlOf(t), s, servers[t].key);
        // Interleaved: app, floor, baseline, app, floor, … so a change in the machine's load hits every target alike.
        const runs = new Map<Target, Measurement[]>();
        for (let round = 0; round < ROUNDS; round++) {
          for (const t of s.targets)
            runs.set(t, [...(runs.get(t) ?? []), await measure(db, t, urlOf(t), s, upstreams, servers[t].key, servers[t].pid)]);
        }
        for (const t of s.targets) all.push(medianMeasurement(runs.get(t)!));
      }
      if (cache === "on") {
        await setLatency(upstreams, 0);
        memory.push(await fillCache(db, app.url, key, app.child.pid!, CACHE_MAX_BYTES));
      }
      const hwm = Math.round(descendants(app.child.pid!).reduce((sum, p) => sum + statusKb(p, "VmHWM"), 0) / 1024);
      const underLoad = [
        ...all.filter((m) => m.target === "app" && m.database === db && m.cache === cache).map((m) => m.peak_rss_mb ?? 0),
        ...memory.filter((m) => m.database === db && cache === "on").map((m) => m.peak_rss_mb),
        idleRssMb,
      ];
      const peak = Math.max(...underLoad);
      processes.push({ database: db, cache, idle_rss_mb: idleRssMb, peak_rss_mb: peak, vm_hwm_mb: hwm, rss_budget_mb: RSS_BUDGET_MB[db] });
      log(`${db} app (cache ${cache}): RSS idle ${idleRssMb} MB, peak under load ${peak} MB (budget ${RSS_BUDGET_MB[db]} MB), VmHWM ${hwm} MB`);
      const errors = app
        .logs()
        .split("\n")
        .filter((l) => /error|unhandled|warn/i.test(l));
      if (errors.length) log(`app log lines mentioning errors (${errors.length}):\n  ${errors.slice(0, 10).join("\n  ")}`);
      await stopChild(app.child);
      if (cache === "off" && !CHECK) {
        // Its own process: the load scenarios keep the default concurrency, so a 50-connection batch storm does not
        // open 16 calls per batch at once.
        const prober = await startApp(appDir, databaseUrl, upstreams, {
          TRANSLATION_CACHE: "off",
          BATCH_CONCURRENCY_PER_PROVIDER: String(BATCH_CONCURRENCY),
        });
        try {
          batches.push(await batchProbe(db, prober.url, key, upstreams));
        } finally {
          await stopChild(prober.child);
        }
      }
      if (cache === "off" && COLD_STARTS > 0) {
        await setLatency(upstreams, 0);
        const tries: number[] = [];
        for (let i = 0; i < COLD_STARTS; i++) tries.push(await coldStart(appDir, databaseUrl, upstreams, key));
        coldStarts.push({ database: db, tries_ms: tries, median_ms: median(tries) });
        log(`${db} cold start to the first translation: ${tries.join(", ")} ms`);
      }
    }
  }

  const git = (args: string[]) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" }).stdout?.trim() ?? "";
  const meta = {
    finished_at: new Date().toISOString(),
    commit: `${git(["rev-parse", "--short", "HEAD"]) || "unknown"}${git(["status", "--porcelain", "--untracked-files=no"]) ? " (+ uncommitted changes)" : ""}`,
    app_dir: env.BENCH_APP_DIR ?? "snapshot of .next",
    floor_dir: env.BENCH_FLOOR_DIR ?? "temporary copy",
    floor_client: FLOOR_CLIENT,
    cache_max_bytes: CACHE_MAX_BYTES,
    batch_concurrency_per_provider: BATCH_CONCURRENCY,
    connections: CONNECTIONS,
    duration_s: DURATION,
    warmup_s: WARMUP,
    process_warmup_s: PROCESS_WARMUP,
    rounds: ROUNDS,
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model.trim(),
    node: process.version,
    load_average_at_end: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
  if (baseline) await stopChild(baseline.child);
  await stopChild(floor.child);
  await stopChild(emu.child);
  await pg?.stop();

  if (CHECK) {
    const failures = gateFailures(all, processes);
    writeFileSync(path.join(OUT, "check.json"), `${JSON.stringify({ meta, results: all, processes, failures }, null, 2)}\n`);
    process.stdout.write(`\n${markdown(all, memory, processes, coldStarts, batches, meta)}\n`);
    if (failures.length) {
      process.stderr.write(`bench --check FAILED:\n  ${failures.join("\n  ")}\n`);
      process.exitCode = 1;
    } else log(`bench --check passed (app/floor ≥ ${MIN_FLOOR_RATIO}, RSS within budget)`);
    return;
  }
  for (const db of DATABASES) {
    const mine = <T extends { database: string }>(list: T[]) => list.filter((m) => m.database === db);
    writeFileSync(
      path.join(OUT, `bench-${db}.json`),
      `${JSON.stringify({ meta, results: mine(all), processes: mine(processes), cold_start: mine(coldStarts), batch: mine(batches), memory: mine(memory) }, null, 2)}\n`,
    );
  }
  const md = markdown(all, memory, processes, coldStarts, batches, meta);
  writeFileSync(path.join(OUT, "RESULTS.md"), md);
  process.stdout.write(`\n${md}\n`);
}

/** What makes `--check` fail: the app below MIN_FLOOR_RATIO of the floor, or an app process over its RSS budget. */
function gateFailures(all: Measurement[], processes: AppProcessResult[]): string[] {
  const failures: string[] = [];
  for (const app of all.filter((m) => m.target === "app")) {
    const floor = all.find((m) => m.target === "floor" && m.scenario === app.scenario && m.database === app.database);
    if (!floor) continue;
    const r = app.requests_per_second / floor.requests_per_second;
    if (!(r >= MIN_FLOOR_RATIO)) failures.push(`${app.database} ${app.scenario}: app/floor ${r.toFixed(2)} < ${MIN_FLOOR_RATIO}`);
    if (app.errors.total > 0) failures.push(`${app.database} ${app.scenario}: ${app.errors.total} errors`);
  }
  for (const p of processes) {
    if (p.peak_rss_mb > p.rss_budget_mb)
      failures.push(`${p.database} (cache ${p.cache}): peak RSS ${p.peak_rss_mb} MB > budget ${p.rss_budget_mb} MB`);
  }
  return failures;
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
