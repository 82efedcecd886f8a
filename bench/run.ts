/**
 * Load benchmark: the app (production build, started by `npm start`'s launcher) against two framework floors and a
 * bare Node proxy baseline, same upstream, same load, same run.
 *
 *   npm run bench                         (= tsx bench/run.ts)
 *   npm run bench -- --check              the short regression gate (below)
 *
 *   BENCH_SKIP_BUILD=1        reuse the existing .next build
 *   BENCH_DATABASES=pglite,postgres       which databases to run the app on (default both)
 *   BENCH_SCENARIOS=translate-0ms,...     subset of scenarios (default all; names in SCENARIOS below, plus catalog-200,
 *                                         batch-probe, not-modified and operations; BENCH_SCENARIOS=batch-probe runs
 *                                         the batch probe alone, not-modified the 304 probe alone)
 *   BENCH_DURATION=20         seconds per measured run;  BENCH_WARMUP=3  seconds of warm-up before each
 *   BENCH_PROCESS_WARMUP=15   seconds of warm-up instead before the first run against a freshly started server
 *   BENCH_ROUNDS=1            runs per target and scenario, interleaved across the targets (medians reported)
 *   BENCH_CONNECTIONS=50      concurrent connections
 *   BENCH_OUT=bench/results   where the JSON and RESULTS.md go
 *   BENCH_APP_DIR=<dir>       run the app from this directory's build (default: a private copy of this checkout's .next)
 *   BENCH_FLOOR_DIR=<dir>     build the two framework floors in <dir>/node-http and <dir>/fetch and reuse them on
 *                             later runs (default: temporary copies, built every run)
 *   BENCH_CACHE_MAX_MB=32     TRANSLATION_CACHE_MAX_BYTES (in MiB) of the cache-on app, which the memory step fills
 *   BENCH_CATALOG_REQUESTS=5  catalogs sent one at a time by the catalog-200 scenario (after one unmeasured)
 *   BENCH_APP_ENV, BENCH_BATCH_CONCURRENCY, BENCH_BATCH_REQUESTS, BENCH_COLD_STARTS, BENCH_CPU_PROF: below.
 *
 * What runs: the three upstream emulators in one child process on loopback ports (bench/emulators.ts); the app in
 * live mode with SUNBIRD/KHAYA/HF_API_URL pointed at them and every per-key rate limit raised out of the way; two
 * framework floors (bench/floor.ts: the same Next.js build plus one bare forwarding route, built in a copy of the
 * checkout), `floor-node-http` forwarding with node:http and a keep-alive agent (the transport of Lugha's own provider
 * calls: app/floor-node-http is what Lugha's own work costs) and `floor-fetch` forwarding with fetch (as a route
 * handler ordinarily would); and the baseline (bench/baseline-proxy.mjs: no Next.js, auth, limits, database or
 * validation) forwarding the same requests to the same emulator.
 *
 * Texts: the single translations (translate-0ms, translate-100ms) and the batch send a different text in every request
 * (bench/workload.ts distinctTexts: the sentence with a counter, a fresh sequence per target and run), to every target
 * alike, so every request costs an upstream call. `translate-0ms-repeated` sends one text over and over with the cache
 * off (what every request sent in earlier runs; with the cache off the app coalesces nothing either, so each request
 * still makes its own upstream call), `cache-hit` one text with the cache on (answered from the cache; the coalescing
 * of identical requests in flight is part of the cache). Scenarios on the app with TRANSLATION_CACHE=off (like for like with the floors and the baseline): those above,
 * GET /languages, the replay workload (bench/workload.ts: 80 % repeated strings) and `catalog-200` (a 200-entry JSON
 * catalog, bench/catalog.ts, sent one at a time at upstream 100 ms: wall time and upstream calls). Then the app
 * restarted with the cache on: the same replay, the cache hit beside the floors and the baseline, and the memory step
 * (distinct texts until the cache is full at its byte bound). `operations` (PGlite only, once): the overhead of logs,
 * traces and metrics on three fresh apps (bench/operations-overhead.ts).
 *
 * For each scenario: warm-up, then autocannon for BENCH_DURATION seconds against each target in turn, BENCH_ROUNDS
 * times interleaved; upstream calls are counted at the emulators over the measured run (their /__control stats, reset
 * after the warm-up). Latency percentiles are computed from every response time (autocannon's own summary has no p95).
 *
 * Memory from the first start: on PGlite the first app process starts on a fresh, never-migrated data directory
 * through `npm start`'s launcher (scripts/start.mjs), as a new user's does; PostgreSQL is migrated first by
 * scripts/migrate.ts (a deploy step). The summed VmRSS of the app's process tree (a start-up child included while it
 * lives) is sampled every 50 ms from spawn, before /health answers, to the end of the process; per app process the
 * report gives that peak, the idle RSS after start-up and one translation, the peak under load, and the kernel's VmHWM
 * of the tree at the end (the server's high-water mark from its start). Budgets: VmHWM ≤ 768 MB on PGlite and ≤ 512 MB
 * on PostgreSQL; idle ≤ 400 MB on PGlite.
 *
 * `--check`: PGlite only, a fresh data directory, translate-0ms (distinct texts) on the app and floor-node-http and
 * translate-100ms on the app and the baseline, BENCH_ROUNDS=3 × BENCH_DURATION=10 s interleaved, medians, the batch probe (2 batches) and the 304 probe (the OpenAPI
 * document, the listing and the guide, full and with If-None-Match); exits 1 on what bench/gates.ts gateFailures
 * lists (app/floor-node-http below 0.62, p50/p99 more than +2/+10 ms over the baseline at 100 ms, any error, memory over budget, a batch over 6 upstream calls per 100 items, a
 * conditional read that is not an empty 304). The cold start of the Vercel functions has its own gate
 * (bench/cold-start.ts --check); `npm run bench:check` runs both. Writes check.json. Everything listens on 127.0.0.1
 * only.
 *
 * The harness's pieces (starting the app and the emulators, load, probes) are exported for bench/growth.ts.
 */

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon, { type Result } from "autocannon";
import { freePort, waitFor } from "../e2e/support/net";
import { createDatabase, type PostgresServer, startPostgres } from "../e2e/support/postgres";
import { catalogFixture } from "./catalog";
import { FLOOR_CLIENTS, FLOOR_PATH, type FloorClient, prepareFloor } from "./floor";
import {
  ADDED_LATENCY_SCENARIO,
  addedLatency,
  gateFailures,
  IDLE_BUDGET_MB,
  MAX_ADDED_P50_MS,
  MAX_ADDED_P99_MS,
  MAX_BATCH_CALLS_PER_100_ITEMS,
  MIN_NODE_HTTP_FLOOR_RATIO,
  type NotModifiedResult,
  VM_HWM_BUDGET_MB,
} from "./gates";
import { measureOperations, type OperationsRow, operationsTable } from "./operations-overhead";
import { cpuMs, type RssSampler, rssSampler, serverOutput, treeMb } from "./proc";
import { distinctBatchBodies, distinctBodies, distinctUiTexts, fillTexts, REPLAY, replayBodies, SENTENCE } from "./workload";

export type Db = "pglite" | "postgres";
type FloorTarget = "floor-node-http" | "floor-fetch";
type Target = "app" | FloorTarget | "baseline";
type CacheMode = "on" | "off";

const FLOOR_TARGET: Record<FloorClient, FloorTarget> = { "node-http": "floor-node-http", fetch: "floor-fetch" };

export interface Scenario {
  name: string;
  title: string;
  method: "GET" | "POST";
  path: string;
  /** The same body in every request. */
  body?: string;
  /** A body per request instead of `body`: each call starts a fresh sequence (one per target and run). */
  bodies?: () => () => string;
  upstreamLatencyMs: number;
  /** Which app process serves it: TRANSLATION_CACHE off or on. */
  cache: CacheMode;
  /** Measured against these, interleaved in this order (the floors answer single translations only). */
  targets: Target[];
}

export interface Measurement {
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
  /** CPU time (user + system) the server's process tree spent per request during the measured run. */
  cpu_ms_per_request?: number;
  /** Translation calls the emulators received during the measured run, per 1,000 requests answered. */
  upstream_calls_per_1000: number;
  duration_s: number;
  /** With BENCH_ROUNDS > 1: each round's req/s (the row holds the medians). */
  rounds?: number[];
}

/** One app process: its memory from spawn to stop, against its budgets. */
export interface AppProcessResult {
  database: Db;
  cache: CacheMode;
  /**
   * `fresh`: the first process on this database; on PGlite a never-migrated data directory, so its start-up prepares
   * and migrates it (what a new user's first `npm start` does). `restart`: a later process on the database an
   * earlier one migrated.
   */
  start: "fresh" | "restart";
  /** Spawn of the launcher → the first 200 on /health. */
  ready_ms: number;
  /** After start-up, a minted key and one translation, 3 s later, before any load. */
  idle_rss_mb: number;
  /** The idle budget (PGlite only), or null. */
  idle_budget_mb: number | null;
  /**
   * The highest summed VmRSS of the process tree sampled every 50 ms from spawn (before /health answered) to the end
   * of the load: start-up, a start-up child while it lived, and every scenario this process served.
   */
  peak_rss_from_spawn_mb: number;
  /** The highest RSS sampled while it served the benchmark's load (the measured runs, the catalogs and the cache fill). */
  peak_rss_under_load_mb: number;
  /**
   * The kernel's high-water mark (VmHWM, summed over the tree) when it stopped: the server's highest RSS since it
   * started, between samples included. It misses a start-up child that has exited (the peak from spawn has it).
   */
  vm_hwm_mb: number;
  vm_hwm_budget_mb: number;
}

interface ColdStartResult {
  database: Db;
  /** Spawn of the launcher → first 200 on POST /api/v1/translate, each try. */
  tries_ms: number[];
  median_ms: number;
}

export interface BatchProbeResult {
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
  /** Upstream calls (quota units) counted at the emulators per 100 items: what a user's quota pays for 100 texts. */
  upstream_calls_per_100_items: number;
  /** upstream_calls as the app reported it, each measured batch. */
  reported_upstream_calls: number[];
  max_in_flight: number;
}

/** The catalog-200 scenario: a 200-entry catalog per call, one call at a time. */
interface CatalogResult {
  database: Db;
  entries: number;
  upstream_latency_ms: number;
  requests: number;
  elapsed_ms: number[];
  median_ms: number;
  /** Translation calls the emulators received per catalog. */
  upstream_calls_per_catalog: number;
  /** upstream_calls as the app reported it, each call. */
  reported_upstream_calls: number[];
  /** The most calls one emulator handled at once. */
  max_in_flight: number;
  /** Entries of the answers, summed over the measured calls. */
  translated: number;
  pending: number;
  failed: number;
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
/** Each scenario runs its targets in turn this many times (app, floors, baseline, app, …); medians are reported. */
const ROUNDS = Number(env.BENCH_ROUNDS ?? (CHECK ? 3 : 1));
/** BATCH_CONCURRENCY_PER_PROVIDER of the app the batch probe runs on (the load scenarios keep the default). */
const BATCH_CONCURRENCY = Number(env.BENCH_BATCH_CONCURRENCY ?? 16);
/** The other performance targets, shown in the report's summary (not gated: they need the full run's scenarios). */
const MAX_P99_OVER_FLOOR_MS = 20;
const MIN_CACHE_HIT_OVER_FLOOR = 1.2;
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
const DATABASES = (CHECK ? "pglite" : (env.BENCH_DATABASES ?? "pglite,postgres"))
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean) as Db[];
if (env.BENCH_FLOOR_CLIENT)
  process.stderr.write("BENCH_FLOOR_CLIENT is ignored: both floors run (floor-node-http and floor-fetch; BENCH_FLOOR_DIR holds one build each)\n");

/** What `--check` measures: the throughput ratio's scenario against the floor, the added latency's against the baseline. */
const CHECK_TARGETS: Record<string, Target[]> = { "translate-0ms": ["app", "floor-node-http"], [ADDED_LATENCY_SCENARIO]: ["app", "baseline"] };
const selected = (name: string) => !env.BENCH_SCENARIOS || env.BENCH_SCENARIOS.split(",").includes(name);
const REPEATED_BODY = JSON.stringify({ text: SENTENCE, source_lang: "en", target_lang: "lug" });
const ALL: Target[] = ["app", "floor-node-http", "floor-fetch", "baseline"];
const SCENARIOS: Scenario[] = [
  {
    name: "translate-0ms",
    title: "POST /translate, distinct texts, upstream 0 ms",
    method: "POST",
    path: "/api/v1/translate",
    upstreamLatencyMs: 0,
    bodies: () => distinctBodies(),
    cache: "off",
    targets: ALL,
  },
  {
    name: "translate-0ms-repeated",
    // The text every request sent in earlier runs. With the cache off the app neither caches nor coalesces identical
    // requests in flight (lib/translate/cache.ts), so beside translate-0ms it shows what the text alone changes.
    title: "POST /translate, one repeated text, cache off, upstream 0 ms",
    method: "POST",
    path: "/api/v1/translate",
    upstreamLatencyMs: 0,
    body: REPEATED_BODY,
    cache: "off",
    targets: ALL,
  },
  {
    name: "translate-100ms",
    title: "POST /translate, distinct texts, upstream 100 ms",
    method: "POST",
    path: "/api/v1/translate",
    upstreamLatencyMs: 100,
    bodies: () => distinctBodies(),
    cache: "off",
    targets: ALL,
  },
  {
    name: "batch50-100ms",
    title: "POST /translate/batch (50 distinct items), upstream 100 ms",
    method: "POST",
    path: "/api/v1/translate/batch",
    upstreamLatencyMs: 100,
    bodies: () => distinctBatchBodies(50),
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
    title: "POST /translate, one repeated text, cache on (a cache hit), upstream 0 ms",
    method: "POST",
    path: "/api/v1/translate",
    upstreamLatencyMs: 0,
    body: REPEATED_BODY,
    cache: "on",
    targets: ALL,
  },
]
  .filter((s) => selected(s.name))
  // The gate compares the app with the node:http floor at 0 ms and with the bare proxy at 100 ms, distinct texts.
  .filter((s) => !CHECK || s.name in CHECK_TARGETS)
  .map((s) => (CHECK ? { ...s, targets: CHECK_TARGETS[s.name] } : s)) as Scenario[];
/** The scenarios that are not a load run: each its own step. */
const CATALOG = !CHECK && selected("catalog-200");
/** The batch probe (quota spent per item and round trips): in the full run and in --check (`batch-probe` alone runs only it). */
const BATCH = selected("batch-probe");
const OPERATIONS = !CHECK && selected("operations");
/** The cacheable reads, fetched in full and conditionally (in the full run and in --check; `not-modified` alone runs only it). */
const NOT_MODIFIED = selected("not-modified");
/** The reads whose validator the 304 probe checks, and how many of each answer it times. */
const NOT_MODIFIED_PROBE = { paths: ["/api/v1/openapi.json", "/api/v1/languages", "/docs/guide.md"], requests: 100 };

/** The one translation an app serves before its idle RSS is read. */
const IDLE_PROBE: Scenario = {
  name: "idle-probe",
  title: "one translation",
  method: "POST",
  path: "/api/v1/translate",
  body: REPEATED_BODY,
  upstreamLatencyMs: 0,
  cache: "off",
  targets: ["app"],
};
/** Cold starts timed per database (each a fresh process on the database the earlier ones migrated). */
const COLD_STARTS = Number(env.BENCH_COLD_STARTS ?? (CHECK ? 0 : 3));

/** The 50-item batch at 200 ms upstream latency, sent one at a time: how many upstream round trips it takes. */
const BATCH_PROBE = { items: 50, latencyMs: 200, requests: Number(env.BENCH_BATCH_REQUESTS ?? (CHECK ? 2 : 5)) };
/** The catalog-200 scenario: entries per catalog, upstream latency, catalogs measured. */
const CATALOG_PROBE = { entries: 200, latencyMs: 100, requests: Number(env.BENCH_CATALOG_REQUESTS ?? 5) };

const children = new Set<ChildProcess>();
/** Run at the end (after the children are stopped), in order. */
export const cleanups: (() => Promise<void> | void)[] = [];

export function log(msg: string) {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

/** Spawns a process (in its own process group, so it can be stopped with everything it started) and waits for its first stdout line. */
export async function spawnWithReadyLine(cmd: string, args: string[], childEnv: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; line: string }> {
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

export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") {
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

export const tsx = (script: string) => [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), script];

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Several interleaved runs of one target as one row: medians of rates, latencies and CPU; totals of errors; the highest RSS. */
function medianMeasurement(runs: Measurement[]): Measurement {
  if (runs.length === 1) return runs[0];
  const med = (pick: (m: Measurement) => number | undefined, round = round1) => {
    const values = runs.map(pick).filter((v): v is number => v !== undefined);
    return values.length ? round(median(values)) : undefined;
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
    // Two decimals, as each run reports it: a tenth of a millisecond is a third of the gap being measured.
    cpu_ms_per_request: med((m) => m.cpu_ms_per_request, round2),
    upstream_calls_per_1000: med((m) => m.upstream_calls_per_1000)!,
    duration_s: sum((m) => m.duration_s),
  };
}

// ------------------------------------------------------------------------------------------------------------- load

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export const round1 = (n: number) => Math.round(n * 10) / 10;
export const round2 = (n: number) => Math.round(n * 100) / 100;

/** What every benchmark result records of its run: when, which commit, on what machine, how busy it was. */
export function runFacts() {
  const git = (args: string[]) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" }).stdout?.trim() ?? "";
  return {
    finished_at: new Date().toISOString(),
    commit: `${git(["rev-parse", "--short", "HEAD"]) || "unknown"}${git(["status", "--porcelain", "--untracked-files=no"]) ? " (+ uncommitted changes)" : ""}`,
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model.trim(),
    node: process.version,
    load_average_at_end: os.loadavg().map(round2),
  };
}

export async function load(
  url: string,
  s: Scenario,
  key: string | undefined,
  seconds: number,
  nextBody?: () => string,
  connections = CONNECTIONS,
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
        connections,
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
  /** The app's sampler from spawn: its window gives this run's peak (other servers are sampled during the run only). */
  memory?: RssSampler,
): Promise<Measurement> {
  // One sequence for warm-up and measured run: the replay's warm-up fills the cache with what the run will repeat;
  // distinct texts continue the warm-up's counter, so the measured run sends none the warm-up sent.
  const nextBody = s.bodies?.();
  const server = new URL(url).origin;
  const warmup = warmedUp.has(server) ? WARMUP : Math.max(WARMUP, PROCESS_WARMUP);
  warmedUp.add(server);
  if (warmup > 0) await load(url, s, key, warmup, nextBody);
  await upstreamCalls(upstreams, "reset");
  const ownSampler = !memory && pid ? rssSampler(pid) : undefined;
  const window = (memory ?? ownSampler)?.window();
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const { result, latencies } = await load(url, s, key, DURATION, nextBody);
  const cpu = pid ? cpuMs(pid) - cpuBefore : undefined;
  const calls = await upstreamCalls(upstreams, "read");
  const rss = window?.stop();
  ownSampler?.stop();
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
    ...(cpu !== undefined && result.requests.total > 0 ? { cpu_ms_per_request: round2(cpu / result.requests.total) } : {}),
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

export async function setLatency(upstreams: Record<string, string>, latencyMs: number) {
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
export async function emulatorStats(
  upstreams: Record<string, string>,
  op: "read" | "reset" = "read",
): Promise<{ calls: number; maxInFlight: number }> {
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
 * The 50-item batch of distinct short UI strings at 200 ms upstream latency, one request at a time (after one
 * unmeasured), on the cache-off app with BATCH_CONCURRENCY_PER_PROVIDER = BENCH_BATCH_CONCURRENCY: its wall time in
 * upstream round trips, and the upstream calls (quota units) per 100 items.
 */
async function batchProbe(database: Db, url: string, key: string, upstreams: Record<string, string>): Promise<BatchProbeResult> {
  await setLatency(upstreams, BATCH_PROBE.latencyMs);
  // Short UI strings, the kind the gate's figure is about; the batch load scenario sends sentences.
  const nextBody = distinctBatchBodies(BATCH_PROBE.items, "lug", distinctUiTexts());
  const send = async () => {
    const body = nextBody();
    const started = performance.now();
    const res = await fetch(`${url}/api/v1/translate/batch`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
    });
    const out = (await res.json()) as { failed?: number; upstream_calls: number };
    if (res.status !== 200 || out.failed !== 0) throw new Error(`batch probe: ${res.status} ${JSON.stringify(out).slice(0, 300)}`);
    return { ms: performance.now() - started, calls: out.upstream_calls };
  };
  await send();
  await emulatorStats(upstreams, "reset");
  const elapsed: number[] = [];
  const reported: number[] = [];
  for (let i = 0; i < BATCH_PROBE.requests; i++) {
    const { ms, calls } = await send();
    elapsed.push(Math.round(ms));
    reported.push(calls);
  }
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
    upstream_calls_per_100_items: round1((stats.calls / (BATCH_PROBE.requests * BATCH_PROBE.items)) * 100),
    reported_upstream_calls: reported,
    max_in_flight: stats.maxInFlight,
  };
  log(
    `${database} batch of ${m.items} at ${m.upstream_latency_ms} ms: ${elapsed.join(", ")} ms → ${m.round_trips} round trips (max in flight ${m.max_in_flight}, median ${m.elapsed_over_latency}× the latency), ${m.upstream_calls_per_100_items} upstream calls per 100 items (reported ${reported.join(", ")} per batch)`,
  );
  return m;
}

/**
 * The reads that do not change between deploys (NOT_MODIFIED_PROBE.paths): one GET for the ETag, then a run of full
 * GETs and a run of conditional ones, one at a time, each timed to the end of its body, and the server's CPU time over
 * each run (on loopback the bytes a 304 saves cost next to nothing to move, so its wall time understates the saving;
 * the server's CPU does not).
 */
async function notModifiedProbe(database: Db, url: string, key: string, pid: number): Promise<NotModifiedResult[]> {
  const out: NotModifiedResult[] = [];
  for (const p of NOT_MODIFIED_PROBE.paths) {
    const get = async (headers: Record<string, string> = {}) => {
      const started = performance.now();
      const res = await fetch(`${url}${p}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
      const bytes = (await res.arrayBuffer()).byteLength;
      return { res, bytes, ms: performance.now() - started };
    };
    const first = await get();
    if (first.res.status !== 200) throw new Error(`GET ${p}: ${first.res.status}`);
    const etag = first.res.headers.get("etag");
    const run = async (headers: Record<string, string>) => {
      const answers: Awaited<ReturnType<typeof get>>[] = [];
      const cpuBefore = cpuMs(pid);
      for (let i = 0; i < NOT_MODIFIED_PROBE.requests; i++) answers.push(await get(headers));
      return { answers, cpuMsPerRequest: round2((cpuMs(pid) - cpuBefore) / NOT_MODIFIED_PROBE.requests) };
    };
    const conditionally: Record<string, string> = etag ? { "if-none-match": etag } : {};
    // Warmed first (both paths compiled and the body serialised) so neither run pays the first requests' cost.
    for (let i = 0; i < NOT_MODIFIED_PROBE.requests; i++) await Promise.all([get(), get(conditionally)]);
    const full = await run({});
    const conditional = await run(conditionally);
    const n: NotModifiedResult = {
      database,
      path: p,
      etag,
      full_bytes: first.bytes,
      full_median_ms: round2(median(full.answers.map((a) => a.ms))),
      full_cpu_ms_per_request: full.cpuMsPerRequest,
      conditional_statuses: conditional.answers.map((c) => c.res.status),
      conditional_max_bytes: Math.max(...conditional.answers.map((c) => c.bytes)),
      conditional_median_ms: round2(median(conditional.answers.map((c) => c.ms))),
      conditional_cpu_ms_per_request: conditional.cpuMsPerRequest,
      requests: NOT_MODIFIED_PROBE.requests,
    };
    log(
      `${database} GET ${p}: ${n.full_bytes} bytes in ${n.full_median_ms} ms (server CPU ${n.full_cpu_ms_per_request} ms); with If-None-Match ${[...new Set(n.conditional_statuses)].join(", ")} in ${n.conditional_median_ms} ms (server CPU ${n.conditional_cpu_ms_per_request} ms)`,
    );
    out.push(n);
  }
  return out;
}

/** Numbers the catalogs sent (bench/catalog.ts marks every string with it), so no two share a text. */
let catalogRuns = 0;

/**
 * The catalog-200 scenario: a 200-entry JSON catalog (bench/catalog.ts) to POST /api/v1/translate/catalog at upstream
 * 100 ms, one call at a time after one unmeasured, on the cache-off app (and `cache: false`): each call's wall time,
 * the upstream calls per catalog at the emulators (their stats, as the batch probe reads them) and the most in flight.
 */
async function catalogProbe(database: Db, url: string, key: string, upstreams: Record<string, string>): Promise<CatalogResult> {
  await setLatency(upstreams, CATALOG_PROBE.latencyMs);
  const send = async () => {
    const body = JSON.stringify({
      format: "json",
      content: catalogFixture(CATALOG_PROBE.entries, ++catalogRuns),
      source_lang: "en",
      target_lang: "lug",
      cache: false,
    });
    const started = performance.now();
    const res = await fetch(`${url}/api/v1/translate/catalog`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
    });
    const out = (await res.json()) as { upstream_calls: number; entries: { translated: number; pending: number; failed: unknown[] } };
    if (res.status !== 200) throw new Error(`catalog: ${res.status} ${JSON.stringify(out).slice(0, 300)}`);
    return { ms: Math.round(performance.now() - started), out };
  };
  await send();
  await emulatorStats(upstreams, "reset");
  const answers: Awaited<ReturnType<typeof send>>[] = [];
  for (let i = 0; i < CATALOG_PROBE.requests; i++) answers.push(await send());
  const stats = await emulatorStats(upstreams);
  const elapsed = answers.map((a) => a.ms);
  const sum = (pick: (e: (typeof answers)[number]["out"]["entries"]) => number) => answers.reduce((n, a) => n + pick(a.out.entries), 0);
  const m: CatalogResult = {
    database,
    entries: CATALOG_PROBE.entries,
    upstream_latency_ms: CATALOG_PROBE.latencyMs,
    requests: CATALOG_PROBE.requests,
    elapsed_ms: elapsed,
    median_ms: median(elapsed),
    upstream_calls_per_catalog: round1(stats.calls / CATALOG_PROBE.requests),
    reported_upstream_calls: answers.map((a) => a.out.upstream_calls),
    max_in_flight: stats.maxInFlight,
    translated: sum((e) => e.translated),
    pending: sum((e) => e.pending),
    failed: sum((e) => e.failed.length),
  };
  log(
    `${database} catalog of ${m.entries} at ${m.upstream_latency_ms} ms: ${elapsed.join(", ")} ms, ${m.upstream_calls_per_catalog} upstream calls per catalog (max in flight ${m.max_in_flight}), translated ${m.translated}, pending ${m.pending}, failed ${m.failed}`,
  );
  return m;
}

/**
 * A private copy of the production build to run from, so a `next build` started by someone else during the run (it
 * rewrites .next in place) cannot change what is being measured half-way. Source files are symlinked.
 */
export function snapshotBuild(tmp: string): string {
  const dir = path.join(tmp, "app");
  mkdirSync(dir);
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("no production build in .next (run without BENCH_SKIP_BUILD)");
  cpSync(path.join(ROOT, ".next"), path.join(dir, ".next"), { recursive: true, filter: (src) => !src.startsWith(path.join(ROOT, ".next/cache")) });
  // next.config.mjs reads docs/openapi.json (the headers CORS exposes).
  for (const name of [
    "node_modules",
    "package.json",
    "next.config.mjs",
    "docs",
    "prisma",
    "public",
    "lib",
    "app",
    "instrumentation.ts",
    "tsconfig.json",
  ]) {
    if (existsSync(path.join(ROOT, name))) symlinkSync(path.join(ROOT, name), path.join(dir, name));
  }
  return dir;
}

/** A new database on the PostgreSQL server, migrated by `npm run db:migrate`'s script first, as a deployment would. */
export async function migratedDatabase(pg: PostgresServer): Promise<string> {
  const databaseUrl = await createDatabase(pg.adminUrl);
  const mig = spawnSync(process.execPath, tsx("scripts/migrate.ts"), {
    cwd: ROOT,
    env: { PATH: env.PATH, HOME: env.HOME, NODE_ENV: "production", DATABASE_URL: databaseUrl },
    encoding: "utf8",
  });
  if (mig.status !== 0) throw new Error(`migrate: ${mig.stderr}`);
  return databaseUrl;
}

export interface RunningApp {
  url: string;
  child: ChildProcess;
  logs: () => string;
  /** performance.now() when the process was spawned. */
  spawnedAt: number;
  /** Spawn → the first 200 on the readiness route (set by startApp). */
  readyMs?: number;
  /** The process tree's RSS sampled every 50 ms from spawn to exit (app processes whose memory is reported). */
  memory?: RssSampler;
}

/**
 * Spawns `npm start`'s launcher (scripts/start.mjs: `next start` with the heap cap) on a free loopback port, in live
 * mode against the emulators, and returns at once; startApp also waits for it to answer. With `sampleMemory`, the
 * tree's RSS is sampled from right after the spawn, so the peak includes start-up (on a fresh PGlite directory, its
 * preparation and migration) and not only what is seen once it answers.
 */
async function spawnApp(
  appDir: string,
  databaseUrl: string,
  upstreams: Record<string, string>,
  extraEnv: Record<string, string> = {},
  role: "app" | FloorTarget = "app",
  sampleMemory = false,
): Promise<RunningApp> {
  const port = await freePort();
  // BENCH_CPU_PROF=<dir>: each app and floor process writes a V8 CPU profile to <dir>/app, <dir>/floor-node-http or
  // <dir>/floor-fetch when it stops (bench/cpuprofile.ts reads it).
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
  const output = serverOutput(role);
  const spawnedAt = performance.now();
  // The launcher of this checkout (the floor's copy may predate it); `next start` serves the directory it runs in.
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/start.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
    cwd: appDir,
    env: appEnv,
    stdio: output.stdio,
    detached: true,
  });
  children.add(child);
  const memory = sampleMemory && child.pid ? rssSampler(child.pid, 50) : undefined;
  if (memory) child.once("exit", () => memory.stop());
  return { url: `http://127.0.0.1:${port}`, child, logs: () => output.tail(), spawnedAt, memory };
}

/**
 * spawnApp, then waits until it answers: the app on /health (which opens the database), a floor on /health/live
 * (which does not: the floors run with LUGHA_LAZY_DB=true).
 */
export async function startApp(...args: Parameters<typeof spawnApp>): Promise<RunningApp> {
  const app = await spawnApp(...args);
  const ready = args[4]?.startsWith("floor") ? "/health/live" : "/health";
  // A server that exits during start-up (a configuration error) fails at once rather than after the timeout.
  const exited = new Promise<never>((_, reject) =>
    app.child.once("exit", (code) => reject(new Error(`next start exited ${code} during start-up: ${app.logs()}`))),
  );
  exited.catch(() => {});
  await Promise.race([
    exited,
    waitFor(
      async () => {
        const res = await fetch(`${app.url}${ready}`);
        await res.body?.cancel();
        if (res.status !== 200) throw new Error(`${ready} ${res.status}`);
      },
      90_000,
      50,
    ),
  ]);
  app.readyMs = Math.round(performance.now() - app.spawnedAt);
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
          body: REPEATED_BODY,
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

export async function mintKey(url: string): Promise<string> {
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
async function fillCache(database: Db, url: string, key: string, pid: number, memory: RssSampler, maxBytes: number): Promise<MemoryResult> {
  const sampler = memory.window();
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
  const end = treeMb(pid);
  const m: MemoryResult = {
    database,
    cache_max_bytes: maxBytes,
    idle_rss_mb: rss.start,
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

interface Results {
  all: Measurement[];
  memory: MemoryResult[];
  processes: AppProcessResult[];
  coldStarts: ColdStartResult[];
  batches: BatchProbeResult[];
  catalogs: CatalogResult[];
  notModified: NotModifiedResult[];
  /** The operations scenario (PGlite). */
  operations: OperationsRow[];
}

function ratio(app: Measurement, base: Measurement | undefined): string {
  if (app.target !== "app" || !base || base.requests_per_second === 0) return "";
  return `${(app.requests_per_second / base.requests_per_second).toFixed(2)}×`;
}

const find = (all: Measurement[], database: string, scenario: string, target: Target) =>
  all.find((m) => m.database === database && m.scenario === scenario && m.target === target);

/**
 * The performance targets, each with the figure that decides it (node:http floor throughout, the gate's): rows only for
 * what this run measured.
 */
function targetRows(r: Results): string[] {
  const rows: string[] = [];
  const verdict = (ok: boolean) => (ok ? "met" : "**not met**");
  for (const db of DATABASES) {
    const app0 = find(r.all, db, "translate-0ms", "app");
    const floor0 = find(r.all, db, "translate-0ms", "floor-node-http");
    if (app0 && floor0) {
      const x = app0.requests_per_second / floor0.requests_per_second;
      rows.push(
        `| ${db} | app/floor (node:http), distinct texts, upstream 0 ms | ≥ ${MIN_NODE_HTTP_FLOOR_RATIO.toFixed(2)} | ${x.toFixed(2)} | ${verdict(x >= MIN_NODE_HTTP_FLOOR_RATIO)} |`,
      );
    }
    const app100 = find(r.all, db, "translate-100ms", "app");
    const floor100 = find(r.all, db, "translate-100ms", "floor-node-http");
    if (app100 && floor100) {
      const limit = round1(floor100.latency_ms.p99 + MAX_P99_OVER_FLOOR_MS);
      rows.push(
        `| ${db} | p99, distinct texts, upstream 100 ms | ≤ floor (node:http) + ${MAX_P99_OVER_FLOOR_MS} ms = ${limit} ms | ${app100.latency_ms.p99} ms | ${verdict(app100.latency_ms.p99 <= limit)} |`,
      );
    }
    const base100 = find(r.all, db, ADDED_LATENCY_SCENARIO, "baseline");
    if (app100 && base100)
      for (const { p, added, max } of addedLatency(app100, base100))
        rows.push(
          `| ${db} | ${p} added over the bare proxy, distinct texts, upstream 100 ms | ≤ +${max} ms | +${added} ms | ${verdict(added <= max)} |`,
        );
    const hit = find(r.all, db, "cache-hit", "app");
    const hitFloor = find(r.all, db, "cache-hit", "floor-node-http");
    if (hit && hitFloor) {
      const x = hit.requests_per_second / hitFloor.requests_per_second;
      rows.push(
        `| ${db} | cache hit / floor (node:http) | ≥ ${MIN_CACHE_HIT_OVER_FLOOR.toFixed(2)} | ${x.toFixed(2)} | ${verdict(x >= MIN_CACHE_HIT_OVER_FLOOR)} |`,
      );
    }
    for (const p of r.processes.filter((p) => p.database === db && p.start === "fresh")) {
      rows.push(
        `| ${db} | VmHWM from a fresh \`npm start\` through the load (cache ${p.cache}) | ≤ ${p.vm_hwm_budget_mb} MB | ${p.vm_hwm_mb} MB | ${verdict(p.vm_hwm_mb <= p.vm_hwm_budget_mb)} |`,
      );
      if (p.idle_budget_mb !== null)
        rows.push(
          `| ${db} | idle RSS after the first start | ≤ ${p.idle_budget_mb} MB | ${p.idle_rss_mb} MB | ${verdict(p.idle_rss_mb <= p.idle_budget_mb)} |`,
        );
    }
  }
  return rows.length ? ["| database | target | threshold | measured | |", "|---|---|---:|---:|---|", ...rows] : [];
}

function markdown(r: Results, meta: Record<string, unknown>): string {
  const lines = [
    "| database | scenario | target | cache | req/s | p50 ms | p95 ms | p99 ms | errors | peak RSS (at start) | CPU ms/req | upstream calls /req | app/floor (node:http) | app/floor (fetch) | app/baseline |",
    "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const m of r.all) {
    const other = (target: Target) => find(r.all, m.database, m.scenario, target);
    const nodeHttp = ratio(m, other("floor-node-http"));
    lines.push(
      `| ${m.database} | ${SCENARIOS.find((s) => s.name === m.scenario)?.title ?? m.scenario} | ${m.target} | ${m.cache ?? ""} | ${m.requests_per_second} | ${m.latency_ms.p50} | ${m.latency_ms.p95} | ${m.latency_ms.p99} | ${m.errors.total} | ${m.peak_rss_mb !== undefined ? `${m.peak_rss_mb} MB (${m.start_rss_mb})` : "–"} | ${m.cpu_ms_per_request ?? "–"} | ${(m.upstream_calls_per_1000 / 1000).toFixed(2)} | ${nodeHttp ? `**${nodeHttp}**` : ""} | ${ratio(m, other("floor-fetch"))} | ${ratio(m, other("baseline"))} |`,
    );
  }
  const within = (value: number, budget: number, unit = " MB") => `${value}${unit} (${value <= budget ? "within" : "**over**"} ${budget})`;
  const apps = [
    "| database | app process | start | ready after | idle RSS | peak RSS from spawn | peak RSS under load | VmHWM | cold start to first translation (median of tries) |",
    "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ...r.processes.map((p) => {
      const cold = p.cache === "off" ? r.coldStarts.find((c) => c.database === p.database) : undefined;
      const start =
        p.start === "fresh" ? (p.database === "pglite" ? "first start, fresh data directory" : "first start, migrated database") : "restart";
      return `| ${p.database} | cache ${p.cache} | ${start} | ${p.ready_ms} ms | ${p.idle_budget_mb !== null ? within(p.idle_rss_mb, p.idle_budget_mb) : `${p.idle_rss_mb} MB`} | ${p.peak_rss_from_spawn_mb} MB | ${p.peak_rss_under_load_mb} MB | ${within(p.vm_hwm_mb, p.vm_hwm_budget_mb)} | ${cold ? `${cold.median_ms} ms (${cold.tries_ms.join(", ")})` : ""} |`;
    }),
  ];
  const batch = [
    "| database | batch | upstream latency | concurrency per provider | wall time, median (each) | upstream calls /req | upstream calls /100 items | max in flight | round trips |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...r.batches.map(
      (b) =>
        `| ${b.database} | ${b.items} items | ${b.upstream_latency_ms} ms | ${b.concurrency_per_provider} | ${b.median_ms} ms (${b.elapsed_ms.join(", ")}) | ${b.upstream_calls_per_request} | ${within(b.upstream_calls_per_100_items, MAX_BATCH_CALLS_PER_100_ITEMS, "")} | ${b.max_in_flight} | **${b.round_trips}** (${b.elapsed_over_latency}× latency) |`,
    ),
  ];
  const catalog = [
    "| database | catalog | upstream latency | wall time, median (each) | upstream calls /catalog (as the app reported them) | max in flight | entries translated / pending / failed |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...r.catalogs.map(
      (c) =>
        `| ${c.database} | ${c.entries} entries | ${c.upstream_latency_ms} ms | ${c.median_ms} ms (${c.elapsed_ms.join(", ")}) | ${c.upstream_calls_per_catalog} (${c.reported_upstream_calls.join(", ")}) | ${c.max_in_flight} | ${c.translated} / ${c.pending} / ${c.failed} |`,
    ),
  ];
  const notModified = [
    "| database | read | full answer | full: median, server CPU /req | 304: median, server CPU /req | 304 / full (CPU) | statuses with If-None-Match |",
    "|---|---|---:|---:|---:|---:|---|",
    ...r.notModified.map(
      (n) =>
        `| ${n.database} | GET ${n.path} | ${n.full_bytes.toLocaleString("en")} bytes | ${n.full_median_ms} ms, ${n.full_cpu_ms_per_request} ms | ${n.conditional_median_ms} ms, ${n.conditional_cpu_ms_per_request} ms | ${(n.conditional_cpu_ms_per_request / n.full_cpu_ms_per_request).toFixed(2)} | ${[...new Set(n.conditional_statuses)].join(", ")} × ${n.requests}${n.conditional_max_bytes ? `, **a body of ${n.conditional_max_bytes} bytes**` : ""} |`,
    ),
  ];
  const mem = [
    "| database | cache bound | idle RSS | peak RSS while filling | RSS after | texts sent | seconds |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...r.memory.map(
      (m) =>
        `| ${m.database} | ${m.cache_max_bytes / 1024 / 1024} MiB | ${m.idle_rss_mb} MB | ${m.peak_rss_mb} MB | ${m.end_rss_mb} MB | ${m.texts_sent} × ${m.characters_sent / m.texts_sent} chars | ${m.seconds} |`,
    ),
  ];
  const loadNotes =
    '`cache` = the app\'s TRANSLATION_CACHE. "Distinct texts": every request to every target sends a text no earlier request sent (the sentence with a counter, bench/workload.ts), so each costs an upstream call; "one repeated text": the same body in every request; with the cache off the app neither caches nor coalesces it (lib/translate/cache.ts: each request makes its own upstream call), with the cache on it is answered from the cache. ' +
    "`errors` = non-2xx + socket errors + timeouts. `CPU ms/req` = user+system CPU of the server's process tree during the run divided by the requests served (less sensitive to the shared cores than req/s). " +
    "`upstream calls /req` = translation calls the emulators received during the measured run per request answered (a little over 1 without a cache: calls of requests still in flight when the run stopped). " +
    `Replay: ${REPLAY.repeatShare * 100} % of requests repeat one of ${REPLAY.hotStrings} hot strings, the rest are strings not sent before (seed ${REPLAY.seed}, bench/workload.ts); its warm-up runs the same sequence. ` +
    "`peak RSS (at start)` = highest summed VmRSS of the server's process tree, sampled every 50 ms during the measured run, and in brackets its RSS when the run started (one process serves several scenarios).";
  const targets = targetRows(r);
  return [
    CHECK ? "# Benchmark check (npm run bench -- --check)" : "# Benchmark results",
    "",
    `Generated by \`npm run bench${CHECK ? " -- --check" : ""}\` (bench/run.ts) at ${meta.finished_at} on commit ${meta.commit}. ${meta.connections} connections, ${meta.duration_s} s per run after ${meta.warmup_s} s of warm-up (${meta.process_warmup_s} s before the first run against a freshly started server), ` +
      `${meta.rounds} round(s) per target interleaved (medians shown), on ${meta.cpus}× ${meta.cpu_model}, Node ${meta.node}, load average ${JSON.stringify(meta.load_average_at_end)} at the end. ` +
      "App: `npm start`'s launcher (scripts/start.mjs: `next start` with the heap cap), production build, live provider clients against loopback " +
      `emulators, rate limits raised (the batch probe alone on an app with BATCH_CONCURRENCY_PER_PROVIDER=${meta.batch_concurrency_per_provider}); on PGlite its first start is on a fresh, never-migrated data directory, PostgreSQL is migrated first (scripts/migrate.ts). ` +
      "Floors: the same Next.js build plus one bare route handler forwarding to the same emulator (bench/floor.ts), started the same way with LUGHA_LAZY_DB=true (their database is never opened): " +
      "floor (node:http) with node:http and a keep-alive agent, Lugha's own transport; floor (fetch) with fetch. " +
      "Baseline: bench/baseline-proxy.mjs (bare node:http + fetch to the same emulator; no auth, limits, " +
      "database or validation). Load generator, emulators, app, floors, baseline and PostgreSQL share the same cores, so absolute numbers are " +
      "machine-bound; the ratios are the figures to compare. PostgreSQL runs with fsync=off, synchronous_commit=off (e2e/support/postgres.ts).",
    "",
    ...(targets.length ? ["Targets (the floor is the node:http one):", "", ...targets, ""] : []),
    ...(r.all.length ? [...lines, "", loadNotes, ""] : []),
    ...(r.processes.length
      ? [
          "App processes, their memory from spawn: the tree's RSS is sampled every 50 ms from the launcher's spawn, before /health answers, until the process stops. " +
            "Ready after = spawn to the first 200 on /health (on a fresh PGlite directory, preparing and migrating it included). Idle = 3 s after start-up and one translation (budget on PGlite). " +
            "Peak from spawn = the highest sample over the whole life (start-up, a start-up child while it lives, every scenario); peak under load = the highest during the measured runs, the catalogs and the cache fill; " +
            "VmHWM = the kernel's high-water mark of the server (summed over the tree) at the end: its highest RSS since it started, between samples included (the budget). " +
            "The cache-on process is a restart on the database the first one prepared. Cold start = from spawning the launcher to the first 200 on POST /api/v1/translate, on a database an earlier process migrated.",
          "",
          ...apps,
          "",
        ]
      : []),
    ...(r.batches.length
      ? [
          `A 50-item batch (distinct short UI strings), one request at a time (after one unmeasured), on a cache-off app with the batch concurrency above (round trips = upstream calls per request / most calls in flight at once; upstream calls per 100 items = the quota units 100 texts cost, counted at the emulators, gated at ${MAX_BATCH_CALLS_PER_100_ITEMS}):`,
          "",
          ...batch,
          "",
        ]
      : []),
    ...(r.catalogs.length
      ? [
          `A ${CATALOG_PROBE.entries}-entry JSON catalog (bench/catalog.ts: distinct UI strings, some with {name} and ICU plurals; every string marked with the call's number, so no call shares a text with another) to POST /api/v1/translate/catalog, one call at a time after one unmeasured, on the cache-off app (and \`cache: false\`):`,
          "",
          ...catalog,
          "",
        ]
      : []),
    ...(r.notModified.length
      ? [
          `Cacheable reads: each fetched once for its ETag, then ${NOT_MODIFIED_PROBE.requests} times in full and ${NOT_MODIFIED_PROBE.requests} times with If-None-Match, one at a time, on the cache-off app (times from the request to the end of the body; server CPU = the app's process tree over each run, per request; \`--check\` wants an ETag and every conditional answer an empty 304; the cost is reported, not gated):`,
          "",
          ...notModified,
          "",
        ]
      : []),
    ...(r.memory.length
      ? [
          "Memory with the in-process cache full (the cache-on app, TRANSLATION_CACHE_MAX_BYTES = the bound; distinct texts in 50-item batches until 1.25× the bound in characters had been translated):",
          "",
          ...mem,
          "",
        ]
      : []),
    ...(r.operations.length
      ? [
          `The operator's view (PGlite): three fresh apps differing only in what they report (bench/operations-overhead.ts), POST /translate with distinct texts, upstream 0 ms, cache off, ${meta.connections} connections, ${meta.duration_s} s each after ${Math.max(Number(meta.warmup_s), Number(meta.process_warmup_s))} s of warm-up; spans counted at an in-process OTLP/JSON receiver:`,
          "",
          ...operationsTable(r.operations),
          "",
        ]
      : []),
  ].join("\n");
}

// ------------------------------------------------------------------------------------------------------------ main

/** The floor builds: BENCH_FLOOR_DIR=<dir> keeps them as <dir>/<client> (the old single build at <dir> is refused). */
function floorParent(tmp: string): string {
  if (!env.BENCH_FLOOR_DIR) return path.join(tmp, "floors");
  const dir = path.resolve(env.BENCH_FLOOR_DIR);
  if (existsSync(path.join(dir, ".next/BUILD_ID")))
    throw new Error(
      `BENCH_FLOOR_DIR=${dir} holds a single floor build; it is now a parent directory of one build per client (<dir>/node-http, <dir>/fetch)`,
    );
  return dir;
}

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

  // Only the floors some scenario measures are built and started.
  const floors = new Map<FloorTarget, RunningApp>();
  for (const client of FLOOR_CLIENTS) {
    const target = FLOOR_TARGET[client];
    if (!SCENARIOS.some((s) => s.targets.includes(target))) continue;
    const dir = prepareFloor(ROOT, path.join(floorParent(tmp), client), log, client);
    // LUGHA_LAZY_DB=true: the floor's route never touches the database, and opening it at start-up (PGlite's WebAssembly
    // instance, the migrations) only added memory and CPU noise to a process that is there to forward requests.
    const floor = await startApp(dir, "pglite:memory", upstreams, { LUGHA_LAZY_DB: "true" }, target);
    floors.set(target, floor);
    log(`${target}: ${floor.url} (ready after ${floor.readyMs} ms, RSS ${treeMb(floor.child.pid!)} MB)`);
  }

  const r: Results = { all: [], memory: [], processes: [], coldStarts: [], batches: [], catalogs: [], notModified: [], operations: [] };
  let pg: PostgresServer | undefined;
  let baseline: { child: ChildProcess; url: string } | undefined;

  for (const db of DATABASES) {
    let databaseUrl: string;
    if (db === "postgres") {
      pg ??= await startPostgres();
      databaseUrl = await migratedDatabase(pg);
    } else {
      // PGlite: a fresh data directory that nothing has prepared or migrated: the first app process's start-up does
      // it, as a new user's first `npm start` does, and its memory from spawn is what the budget applies to.
      databaseUrl = `pglite:${path.join(tmp, "pglite")}`;
    }
    let firstProcess = true;
    for (const cache of ["off", "on"] as const) {
      const scenarios = SCENARIOS.filter((sc) => sc.cache === cache);
      if (!scenarios.length && !(cache === "off" && (CATALOG || BATCH || NOT_MODIFIED))) continue;
      const start = firstProcess ? "fresh" : "restart";
      firstProcess = false;
      log(`starting the app on ${db} (${start}), TRANSLATION_CACHE=${cache}`);
      const app = await startApp(
        appDir,
        databaseUrl,
        upstreams,
        { TRANSLATION_CACHE: cache, ...(cache === "on" ? { TRANSLATION_CACHE_MAX_BYTES: String(CACHE_MAX_BYTES) } : {}) },
        "app",
        true,
      );
      const pid = app.child.pid!;
      const memory = app.memory!;
      log(`${db} app ready after ${app.readyMs} ms; peak RSS from spawn so far ${memory.peakMb()} MB`);
      const key = await mintKey(app.url);
      await smoke(`${app.url}/api/v1/translate`, IDLE_PROBE, key);
      // After PGlite's start-up transient has been returned (it lasts about a second).
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const idleRssMb = treeMb(pid);

      if (!baseline && scenarios.some((s) => s.targets.includes("baseline"))) {
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

      const servers: Record<Target, { url: string; pid?: number; key?: string; memory?: RssSampler }> = {
        app: { url: app.url, pid, key, memory },
        "floor-node-http": { url: floors.get("floor-node-http")?.url ?? "", pid: floors.get("floor-node-http")?.child.pid },
        "floor-fetch": { url: floors.get("floor-fetch")?.url ?? "", pid: floors.get("floor-fetch")?.child.pid },
        baseline: { url: baseline?.url ?? "", pid: baseline?.child.pid },
      };
      const underLoad: number[] = [idleRssMb];
      for (const s of scenarios) {
        await setLatency(upstreams, s.upstreamLatencyMs);
        const urlOf = (t: Target) => servers[t].url + (t.startsWith("floor") ? FLOOR_PATH : s.path);
        for (const t of s.targets) await smoke(urlOf(t), s, servers[t].key);
        // Interleaved: app, floors, baseline, app, … so a change in the machine's load hits every target alike.
        const runs = new Map<Target, Measurement[]>();
        for (let round = 0; round < ROUNDS; round++) {
          for (const t of s.targets) {
            const { key: k, pid: p, memory: mem } = servers[t];
            runs.set(t, [...(runs.get(t) ?? []), await measure(db, t, urlOf(t), s, upstreams, k, p, mem)]);
          }
        }
        for (const t of s.targets) r.all.push(medianMeasurement(runs.get(t)!));
        underLoad.push(...runs.get("app")!.map((m) => m.peak_rss_mb ?? 0));
      }
      if (cache === "off" && NOT_MODIFIED) r.notModified.push(...(await notModifiedProbe(db, app.url, key, pid)));
      if (cache === "off" && CATALOG) {
        const window = memory.window();
        r.catalogs.push(await catalogProbe(db, app.url, key, upstreams));
        underLoad.push(window.stop().peak);
      }
      if (cache === "on") {
        await setLatency(upstreams, 0);
        const filled = await fillCache(db, app.url, key, pid, memory, CACHE_MAX_BYTES);
        r.memory.push(filled);
        underLoad.push(filled.peak_rss_mb);
      }
      const hwm = treeMb(pid, "VmHWM");
      const fromSpawn = memory.peakMb();
      const p: AppProcessResult = {
        database: db,
        cache,
        start,
        ready_ms: app.readyMs!,
        idle_rss_mb: idleRssMb,
        idle_budget_mb: IDLE_BUDGET_MB[db] ?? null,
        peak_rss_from_spawn_mb: fromSpawn,
        peak_rss_under_load_mb: Math.max(...underLoad),
        vm_hwm_mb: hwm,
        vm_hwm_budget_mb: VM_HWM_BUDGET_MB[db],
      };
      r.processes.push(p);
      log(
        `${db} app (cache ${cache}, ${start}): RSS idle ${idleRssMb} MB${p.idle_budget_mb !== null ? ` (budget ${p.idle_budget_mb})` : ""}, peak from spawn ${fromSpawn} MB, peak under load ${p.peak_rss_under_load_mb} MB, VmHWM ${hwm} MB (budget ${p.vm_hwm_budget_mb})`,
      );
      const errors = app
        .logs()
        .split("\n")
        .filter((l) => /error|unhandled|warn/i.test(l));
      if (errors.length) log(`app log lines mentioning errors (${errors.length}):\n  ${errors.slice(0, 10).join("\n  ")}`);
      await stopChild(app.child);
      if (cache === "off" && BATCH) {
        // Its own process: the load scenarios keep the default concurrency, so a 50-connection batch storm does not
        // open 16 calls per batch at once.
        const prober = await startApp(appDir, databaseUrl, upstreams, {
          TRANSLATION_CACHE: "off",
          BATCH_CONCURRENCY_PER_PROVIDER: String(BATCH_CONCURRENCY),
        });
        try {
          r.batches.push(await batchProbe(db, prober.url, key, upstreams));
        } finally {
          await stopChild(prober.child);
        }
      }
      if (cache === "off" && COLD_STARTS > 0) {
        await setLatency(upstreams, 0);
        const tries: number[] = [];
        for (let i = 0; i < COLD_STARTS; i++) tries.push(await coldStart(appDir, databaseUrl, upstreams, key));
        r.coldStarts.push({ database: db, tries_ms: tries, median_ms: median(tries) });
        log(`${db} cold start to the first translation: ${tries.join(", ")} ms`);
      }
    }
  }

  if (OPERATIONS && DATABASES.includes("pglite")) {
    // Its own fresh processes on their own PGlite directory (the first one prepares it; start-up is not measured).
    await setLatency(upstreams, 0);
    const opsDatabase = `pglite:${path.join(tmp, "pglite-operations")}`;
    r.operations = await measureOperations({
      start: async (extra) => {
        const a = await startApp(appDir, opsDatabase, upstreams, extra);
        return { url: a.url, pid: a.child.pid!, stop: () => stopChild(a.child) };
      },
      mintKey,
      durationS: DURATION,
      warmupS: Math.max(WARMUP, PROCESS_WARMUP),
      connections: CONNECTIONS,
      log,
    });
  }

  const meta = {
    ...runFacts(),
    app_dir: env.BENCH_APP_DIR ? "the build in BENCH_APP_DIR" : "snapshot of .next",
    floor_dir: env.BENCH_FLOOR_DIR ? "kept in BENCH_FLOOR_DIR" : "temporary copies",
    floors: [...floors.keys()],
    texts: "distinct per request (translate-0ms, translate-100ms, batch); one repeated text in translate-0ms-repeated and cache-hit",
    cache_max_bytes: CACHE_MAX_BYTES,
    batch_concurrency_per_provider: BATCH_CONCURRENCY,
    connections: CONNECTIONS,
    duration_s: DURATION,
    warmup_s: WARMUP,
    process_warmup_s: PROCESS_WARMUP,
    rounds: ROUNDS,
  };
  if (baseline) await stopChild(baseline.child);
  for (const floor of floors.values()) await stopChild(floor.child);
  await stopChild(emu.child);
  await pg?.stop();

  if (CHECK) {
    const failures = gateFailures({ all: r.all, processes: r.processes, batches: r.batches, notModified: r.notModified });
    const gate = {
      min_node_http_floor_ratio: MIN_NODE_HTTP_FLOOR_RATIO,
      vm_hwm_budget_mb: VM_HWM_BUDGET_MB,
      idle_budget_mb: IDLE_BUDGET_MB,
      max_batch_calls_per_100_items: MAX_BATCH_CALLS_PER_100_ITEMS,
      max_added_over_baseline_ms: { scenario: ADDED_LATENCY_SCENARIO, p50: MAX_ADDED_P50_MS, p99: MAX_ADDED_P99_MS },
    };
    writeFileSync(
      path.join(OUT, "check.json"),
      `${JSON.stringify({ meta, gate, results: r.all, processes: r.processes, batch: r.batches, not_modified: r.notModified, failures }, null, 2)}\n`,
    );
    process.stdout.write(`\n${markdown(r, meta)}\n`);
    if (failures.length) {
      process.stderr.write(`bench --check FAILED:\n  ${failures.join("\n  ")}\n`);
      process.exitCode = 1;
    } else
      log(
        `bench --check passed (app/floor-node-http ≥ ${MIN_NODE_HTTP_FLOOR_RATIO}, added p50/p99 over the baseline ≤ +${MAX_ADDED_P50_MS}/+${MAX_ADDED_P99_MS} ms, no errors, VmHWM ≤ ${VM_HWM_BUDGET_MB.pglite} MB, idle ≤ ${IDLE_BUDGET_MB.pglite} MB, batch ≤ ${MAX_BATCH_CALLS_PER_100_ITEMS} upstream calls per 100 items, empty 304s for unchanged reads)`,
      );
    return;
  }
  for (const db of DATABASES) {
    const mine = <T extends { database: string }>(list: T[]) => list.filter((m) => m.database === db);
    writeFileSync(
      path.join(OUT, `bench-${db}.json`),
      `${JSON.stringify(
        {
          meta,
          results: mine(r.all),
          processes: mine(r.processes),
          cold_start: mine(r.coldStarts),
          batch: mine(r.batches),
          catalog: mine(r.catalogs),
          not_modified: mine(r.notModified),
          memory: mine(r.memory),
          ...(db === "pglite" && r.operations.length ? { operations: r.operations } : {}),
        },
        null,
        2,
      )}\n`,
    );
  }
  const md = markdown(r, meta);
  writeFileSync(path.join(OUT, "RESULTS.md"), md);
  process.stdout.write(`\n${md}\n`);
}

export async function cleanup() {
  await Promise.all([...children].map((c) => stopChild(c, "SIGKILL")));
  for (const c of cleanups) await c();
}

/** Runs a benchmark's main: cleans up what it started on success, failure or Ctrl-C (bench/growth.ts runs its own). */
export function runMain(main: () => Promise<void>) {
  process.once("SIGINT", () => void cleanup().finally(() => process.exit(130)));
  main()
    .then(cleanup)
    .catch(async (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      await cleanup();
      process.exit(1);
    });
}

// Run only as the entry point: bench/growth.ts imports the harness's pieces.
if (import.meta.filename === process.argv[1]) runMain(main);
