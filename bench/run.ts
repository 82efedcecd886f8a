/**
 * Load benchmark: the app (production build, `next start`) against a bare Node proxy baseline, same upstream, same
 * load, same run.
 *
 *   npm run bench                         (= tsx bench/run.ts)
 *
 *   BENCH_SKIP_BUILD=1        reuse the existing .next build
 *   BENCH_DATABASES=pglite,postgres       which databases to run the app on (default both)
 *   BENCH_SCENARIOS=translate-0ms,...     subset of scenarios (default all four)
 *   BENCH_DURATION=20         seconds per measured run;  BENCH_WARMUP=3  seconds of warm-up before each
 *   BENCH_CONNECTIONS=50      concurrent connections
 *   BENCH_OUT=bench/results   where the JSON and RESULTS.md go
 *   BENCH_APP_DIR=<dir>       run the app from this directory's build (default: a private copy of this checkout's .next)
 *
 * What runs: the three upstream emulators in one child process on loopback ports (bench/emulators.ts); the app in
 * live mode with SUNBIRD/KHAYA/HF_API_URL pointed at them and every per-key rate limit raised out of the way; the
 * baseline (bench/baseline-proxy.mjs: no auth, limits, database or validation) forwarding the same requests to the same
 * emulator. Scenarios: POST /translate with upstream latency 0 ms and 100 ms, a 50-item batch at 100 ms, GET
 * /languages. For each: warm-up, then autocannon for BENCH_DURATION seconds against the app, then the same against the
 * baseline. Latency percentiles are computed from every response time (autocannon's own summary has no p95). Peak RSS
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

type Db = "pglite" | "postgres";
type Target = "app" | "baseline";

interface Scenario {
  name: string;
  title: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
  upstreamLatencyMs: number;
}

interface Measurement {
  database: Db | "-";
  scenario: string;
  target: Target;
  requests_per_second: number;
  requests: number;
  latency_ms: { p50: number; p95: number; p99: number; mean: number; max: number };
  errors: { total: number; non_2xx: number; socket: number; timeouts: number; by_status: Record<string, number> };
  peak_rss_mb?: number;
  /** RSS when the measured run started (the process is reused across scenarios, and RSS rarely shrinks). */
  start_rss_mb?: number;
  /** CPU time (user + system) the app's process tree spent per request during the measured run. */
  cpu_ms_per_request?: number;
  duration_s: number;
}

const env = process.env;
const ROOT = path.resolve(import.meta.dirname, "..");
const DURATION = Number(env.BENCH_DURATION ?? 20);
const WARMUP = Number(env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 50);
const OUT = path.resolve(ROOT, env.BENCH_OUT ?? "bench/results");
const DATABASES = (env.BENCH_DATABASES ?? "pglite,postgres")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean) as Db[];

const TEXT = "Good morning, how are you? The market opens at eight and the bus leaves at nine.";
const SCENARIOS: Scenario[] = [
  {
    name: "translate-0ms",
    title: "POST /translate, upstream 0 ms",
    method: "POST",
    path: "/api/v1/translate",
    upstreamLatencyMs: 0,
    body: JSON.stringify({ text: TEXT, source_lang: "en", target_lang: "lug" }),
  },
  {
    name: "translate-100ms",
    title: "POST /translate, upstream 100 ms",
    method: "POST",
    path: "/api/v1/translate",
    upstreamLatencyMs: 100,
    body: JSON.stringify({ text: TEXT, source_lang: "en", target_lang: "lug" }),
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
  },
  { name: "languages", title: "GET /languages", method: "GET", path: "/api/v1/languages", upstreamLatencyMs: 0 },
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

async function load(url: string, s: Scenario, key: string | undefined, seconds: number): Promise<{ result: Result; latencies: Float64Array }> {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (s.body) headers["content-type"] = "application/json";
  let times: number[] = [];
  const statuses: Record<string, number> = {};
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon(
      { url: url + s.path, method: s.method, headers, body: s.body, connections: CONNECTIONS, duration: seconds, timeout: 30 },
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

async function measure(database: Db | "-", target: Target, url: string, s: Scenario, key: string | undefined, pid?: number): Promise<Measurement> {
  if (WARMUP > 0) await load(url, s, key, WARMUP);
  const sampler = pid ? rssSampler(pid) : undefined;
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const { result, latencies } = await load(url, s, key, DURATION);
  const cpu = pid ? cpuMs(pid) - cpuBefore : undefined;
  const rss = sampler?.stop();
  const peak = rss?.peak;
  const byStatus = (result as Result & { byStatus: Record<string, number> }).byStatus;
  const n = latencies.length;
  const mean = n ? latencies.reduce((a, b) => a + b, 0) / n : 0;
  const m: Measurement = {
    database,
    scenario: s.name,
    target,
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
    duration_s: result.duration,
  };
  log(
    `${database} ${s.name} ${target}: ${m.requests_per_second} req/s, p50 ${m.latency_ms.p50} p95 ${m.latency_ms.p95} p99 ${m.latency_ms.p99} ms, errors ${m.errors.total}` +
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
    API_KEY_HASH_SECRET: "bench-hash-secret",
    NEXTAUTH_SECRET: "bench-nextauth-secret-of-32-characters",
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    // Raised out of the way (a short window keeps the in-process sliding log small); the limiter still runs.
    RATE_LIMIT_TRANSLATE: "100000000/1s",
    RATE_LIMIT_BATCH: "100000000/1s",
    RATE_LIMIT_DEFAULT: "100000000/1s",
    ...(env.BENCH_APP_ENV ? JSON.parse(env.BENCH_APP_ENV) : {}),
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

/** One request of each scenario must succeed before load is thrown at it (a benchmark of 401s measures nothing). */
async function smoke(url: string, s: Scenario, key?: string) {
  const res = await fetch(url + s.path, {
    method: s.method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(s.body ? { "content-type": "application/json" } : {}) },
    body: s.body,
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${s.name} smoke test against ${url}: ${res.status} ${text.slice(0, 300)}`);
  if (s.name.startsWith("batch") && JSON.parse(text).failed !== 0) throw new Error(`${s.name}: items failed: ${text.slice(0, 300)}`);
}

// ---------------------------------------------------------------------------------------------------------- report

function ratio(app: Measurement, base: Measurement | undefined): string {
  if (!base || base.requests_per_second === 0) return "–";
  return `${(app.requests_per_second / base.requests_per_second).toFixed(2)}×`;
}

function markdown(all: Measurement[], meta: Record<string, unknown>): string {
  const lines = [
    "| database | scenario | target | req/s | p50 ms | p95 ms | p99 ms | errors | peak RSS | CPU ms/req | app/baseline req/s |",
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const m of all) {
    const base = all.find((b) => b.target === "baseline" && b.scenario === m.scenario && b.database === m.database);
    lines.push(
      `| ${m.database} | ${SCENARIOS.find((s) => s.name === m.scenario)?.title ?? m.scenario} | ${m.target} | ${m.requests_per_second} | ${m.latency_ms.p50} | ${m.latency_ms.p95} | ${m.latency_ms.p99} | ${m.errors.total} | ${m.peak_rss_mb !== undefined ? `${m.peak_rss_mb} MB (${m.start_rss_mb})` : "–"} | ${m.cpu_ms_per_request ?? "–"} | ${m.target === "app" ? ratio(m, base) : ""} |`,
    );
  }
  return [
    "# Benchmark results",
    "",
    `Generated by \`npm run bench\` (bench/run.ts) at ${meta.finished_at} on commit ${meta.commit}. ${meta.connections} connections, ${meta.duration_s} s per run after ${meta.warmup_s} s of warm-up, ` +
      `on ${meta.cpus}× ${meta.cpu_model}, Node ${meta.node}. App: \`next start\` (production build), live provider clients against loopback ` +
      "emulators, rate limits raised. Baseline: bench/baseline-proxy.mjs (bare node:http + fetch to the same emulator; no auth, limits, " +
      "database or validation). Load generator, emulators, app, baseline and PostgreSQL share the same cores, so absolute numbers are " +
      "machine-bound; the ratio is the figure to compare. PostgreSQL runs with fsync=off, synchronous_commit=off (e2e/support/postgres.ts).",
    "",
    ...lines,
    "",
    "`errors` = non-2xx + socket errors + timeouts. `CPU ms/req` = user+system CPU of the server's process tree during the run divided by the requests served (less sensitive to the shared cores than req/s). `peak RSS (start)` = highest summed VmRSS of the server's process tree (app: `next start`), sampled every 100 ms during the measured run, and in brackets its RSS when the run started — one process serves all four scenarios and V8 rarely gives memory back, so growth carries over (with NODE_OPTIONS=--max-old-space-size=200 the app serves the same load at about 530 MB on PGlite: the peaks are lazy garbage collection on a 24 GB machine, not a leak)" +
      (meta.vm_hwm_mb ? `; kernel VmHWM at the end of each database's runs: ${JSON.stringify(meta.vm_hwm_mb)}` : "") +
      ".",
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

  const all: Measurement[] = [];
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
    log(`starting the app on ${db}`);
    const app = await startApp(appDir, databaseUrl, upstreams);
    const key = await mintKey(app.url);

    if (!baseline) {
      // The baseline serves the app's own /languages body, captured once.
      const langs = await fetch(`${app.url}/api/v1/languages`, { headers: { authorization: `Bearer ${key}` } });
      const file = path.join(tmp, "languages.json");
      writeFileSync(file, Buffer.from(await langs.arrayBuffer()));
      const b = await spawnWithReadyLine(
        process.execPath,
        [path.join(ROOT, "bench/baseline-proxy.mjs"), "--upstream", upstreams.sunbird, "--languages-file", file],
        {
          PATH: env.PATH,
          HOME: env.HOME,
          NODE_ENV: "production",
        },
      );
      baseline = { child: b.child, url: (JSON.parse(b.line) as { url: string }).url };
      log(`baseline: ${baseline.url}`);
    }

    for (const s of SCENARIOS) {
      await setLatency(upstreams, s.upstreamLatencyMs);
      await smoke(app.url, s, key);
      await smoke(baseline.url, s);
      all.push(await measure(db, "app", app.url, s, key, app.child.pid));
      all.push(await measure(db, "baseline", baseline.url, s, undefined, baseline.child.pid));
    }
    hwm[db] = Math.round(descendants(app.child.pid!).reduce((sum, p) => sum + statusKb(p, "VmHWM"), 0) / 1024);
    const errors = app
      .logs()
      .split("\n")
      .filter((l) => /error|unhandled|warn/i.test(l));
    if (errors.length) log(`app log lines mentioning errors (${errors.length}):\n  ${errors.slice(0, 10).join("\n  ")}`);
    await stopChild(app.child);
  }

  const git = (args: string[]) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" }).stdout?.trim() ?? "";
  const meta = {
    finished_at: new Date().toISOString(),
    commit: `${git(["rev-parse", "--short", "HEAD"]) || "unknown"}${git(["status", "--porcelain", "--untracked-files=no"]) ? " (+ uncommitted changes)" : ""}`,
    app_dir: env.BENCH_APP_DIR ?? "snapshot of .next",
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
    writeFileSync(path.join(OUT, `bench-${db}.json`), `${JSON.stringify({ meta, results: all.filter((m) => m.database === db) }, null, 2)}\n`);
  }
  const md = markdown(all, meta);
  writeFileSync(path.join(OUT, "RESULTS.md"), md);
  process.stdout.write(`\n${md}\n`);

  if (baseline) await stopChild(baseline.child);
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
