/**
 * Cold starts the way Vercel runs the API: each serverless function of an offline `vercel build` (.vercel/output, the
 * Build Output API) laid out in a directory of its own with only the files it ships (its .func directory plus the files
 * its .vc-config.json maps in from the project), started in a fresh Node.js process by a bridge that does what the
 * platform's Node.js runtime does with a `launcherType: "Nodejs"` function (require the handler, hand it every request
 * of an http server), against a real PostgreSQL. Timed: spawn → the first successful answer to a real request of that
 * function (a translation, a key issued, a listing, …), beside the function that serves /health/live, BENCH_COLD_ROUNDS
 * (default 5) times each, each start right after one of the /health/live function, and compared with that one: the
 * median of those differences is what the gate reads. On these machines the same start takes 1.1 s or 1.7 s from one
 * try to the next, in stretches of seconds; a median of each function's own starts moved by more than the budget
 * between two runs, a difference between neighbours much less. Every start runs on one core of its own (`taskset`,
 * below: pinnedCore), after one uncounted start of each. The CPU the process spent to its first answer (user + system:
 * waiting does not count) is reported the same way.
 *
 *   tsx bench/cold-start.ts                       builds with `vercel build` in a copy of the checkout, then measures
 *   tsx bench/cold-start.ts --project <dir>       reuses <dir>/.vercel/output (from an earlier build of this checkout)
 *   tsx bench/cold-start.ts --check               exits 1 when a function's first answer is over the /health/live
 *                                                 function's by more than COLD_START_BUDGET_MS
 *   BENCH_COLD_ONLY=<regexp> tsx bench/cold-start.ts …     only the probes whose label matches, beside /health/live
 *   BENCH_COLD_CORE=<n>|none tsx bench/cold-start.ts …   the core the starts run on (default: the last), or none
 *   BENCH_COLD_CPU_PROF=<dir> tsx bench/cold-start.ts …   also writes a V8 CPU profile of every start (spawn → first
 *                                                 answer) into <dir>, for bench/cpuprofile.ts to summarise
 *   BENCH_COLD_UPSTREAMS=emulators tsx bench/cold-start.ts …   the functions' live clients call the three providers'
 *                                                 emulators over HTTP (the Hub's model information too), as a
 *                                                 deployment calls the real ones
 *
 * Writes bench/results/cold-start.json and cold-start.md (BENCH_OUT to choose another folder). By default providers are
 * the in-process sandbox (no credentials): the first answer includes loading the provider layer and the emulator code,
 * where a live function loads its client and opens its first connection to the provider (BENCH_COLD_UPSTREAMS).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { copyCheckout } from "../e2e/support/checkout";
import { startCheckingEmulators } from "../e2e/support/emulators";
import { freePort } from "../e2e/support/net";
import { createDatabase, startPostgres } from "../e2e/support/postgres";
import { type BuiltFunction, megabytes, readFunctions, vercelBuild } from "../e2e/vercel/output";
import { makeWav } from "../lib/providers/sandbox";

/** How much later than the /health/live function's first answer any API function's may come (issue target). */
export const COLD_START_BUDGET_MS = 60;

const repo = path.resolve(import.meta.dirname, "..");
const OUT = path.resolve(repo, process.env.BENCH_OUT ?? "bench/results");
const ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 5);
const FIRST_ANSWER_TIMEOUT_MS = 30_000;
/** Only the probes whose label matches (the /health/live one always runs: it is the baseline), for working on one route. */
const ONLY = process.env.BENCH_COLD_ONLY ? new RegExp(process.env.BENCH_COLD_ONLY) : undefined;
/** The providers the functions call: the in-process sandbox, or their emulators over HTTP through the live clients. */
const UPSTREAMS = process.env.BENCH_COLD_UPSTREAMS === "emulators" ? "emulators" : "sandbox";
/** Where to write a CPU profile of each start (--cpu-prof), or undefined. */
const CPU_PROFILE_DIR = process.env.BENCH_COLD_CPU_PROF ? path.resolve(process.env.BENCH_COLD_CPU_PROF) : undefined;

/** A real request for a function, identified by one of the routes it serves; `key` is the key the keys function issued. */
interface Probe {
  route: string;
  label: string;
  request(base: string, key: string): Promise<Response>;
}

const json = (body: unknown, key?: string): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
  body: JSON.stringify(body),
});
const bearer = (key: string): RequestInit => ({ headers: { authorization: `Bearer ${key}` } });

const KEYS_PROBE: Probe = {
  route: "api/v1/auth/keys",
  label: "POST /api/v1/auth/keys",
  request: (b) => fetch(`${b}/api/v1/auth/keys`, json({ name: "cold start" })),
};

/**
 * The first request of each API route. Routes with the same settings share a function (Vercel's builder links them to
 * one .func directory): each route is still started cold on its own, since what its first request loads differs.
 */
const PROBES: Probe[] = [
  { route: "health/live", label: "GET /health/live", request: (b) => fetch(`${b}/health/live`) },
  KEYS_PROBE,
  { route: "api/v1/auth/keys/me", label: "GET /api/v1/auth/keys/me", request: (b, k) => fetch(`${b}/api/v1/auth/keys/me`, bearer(k)) },
  {
    route: "api/v1/translate",
    label: "POST /api/v1/translate",
    request: (b, k) => fetch(`${b}/api/v1/translate`, json({ text: `Good morning ${Date.now()}`, source_lang: "en", target_lang: "lug" }, k)),
  },
  {
    route: "api/v1/translate/batch",
    label: "POST /api/v1/translate/batch",
    request: (b, k) =>
      fetch(
        `${b}/api/v1/translate/batch`,
        json(
          {
            items: [
              { id: "1", text: `One ${Date.now()}`, source_lang: "en", target_lang: "lug" },
              { id: "2", text: "Two", source_lang: "en", target_lang: "lug" },
            ],
          },
          k,
        ),
      ),
  },
  {
    route: "api/v1/translate/catalog",
    label: "POST /api/v1/translate/catalog",
    request: (b, k) =>
      fetch(
        `${b}/api/v1/translate/catalog`,
        json({ format: "json", content: JSON.stringify({ hello: "Hello {name}", bye: "Goodbye" }), source_lang: "en", target_lang: "lug" }, k),
      ),
  },
  {
    route: "api/v1/detect",
    label: "POST /api/v1/detect",
    request: (b, k) => fetch(`${b}/api/v1/detect`, json({ text: "Good morning, how are you today?" }, k)),
  },
  { route: "api/v1/languages", label: "GET /api/v1/languages", request: (b, k) => fetch(`${b}/api/v1/languages`, bearer(k)) },
  {
    route: "api/v1/speech/tts",
    label: "POST /api/v1/speech/tts",
    request: (b, k) => fetch(`${b}/api/v1/speech/tts`, json({ text: "Good morning", language: "lug" }, k)),
  },
  {
    route: "api/v1/speech/stt",
    label: "POST /api/v1/speech/stt",
    request: (b, k) => {
      const form = new FormData();
      form.set("audio", new Blob([new Uint8Array(makeWav({ durationSeconds: 2 }))], { type: "audio/wav" }), "note.wav");
      form.set("language", "lug");
      return fetch(`${b}/api/v1/speech/stt`, { method: "POST", headers: { authorization: `Bearer ${k}` }, body: form });
    },
  },
  { route: "api/v1/usage", label: "GET /api/v1/usage", request: (b, k) => fetch(`${b}/api/v1/usage`, bearer(k)) },
  { route: "api/v1/usage/requests", label: "GET /api/v1/usage/requests", request: (b, k) => fetch(`${b}/api/v1/usage/requests`, bearer(k)) },
  { route: "api/v1/glossaries", label: "GET /api/v1/glossaries", request: (b, k) => fetch(`${b}/api/v1/glossaries`, bearer(k)) },
  { route: "api/v1/openapi.json", label: "GET /api/v1/openapi.json", request: (b) => fetch(`${b}/api/v1/openapi.json`) },
];

/**
 * What the platform's Node.js runtime does with the function: require its handler, and serve every request with it.
 * Run from the function's own directory, as /var/task is on the platform.
 */
const BRIDGE = `
const http = require("node:http");
const path = require("node:path");
const config = require(path.resolve(".vc-config.json"));
const mod = require(path.resolve(config.handler));
const handler = typeof mod === "function" ? mod : mod.default;
// CPU time of the process when it has answered its first request (user + system), for the benchmark's CPU column: wall
// time on a shared machine varies with whatever else runs; the CPU a start spends does much less.
let answered = false;
http
  .createServer((req, res) => {
    res.on("finish", () => {
      if (answered) return;
      answered = true;
      const { user, system } = process.cpuUsage();
      process.stderr.write("\\n__cpu_us " + (user + system) + "\\n");
    });
    handler(req, res);
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
// The benchmark ends a profiled start with SIGTERM: exiting writes the CPU profile (a kill would lose it).
process.on("SIGTERM", () => process.exit(0));
`;

/** The function's files, and only those, copied into a new directory: what a deployment of it would hold. */
function layOut(projectDir: string, fn: BuiltFunction): string {
  const dir = mkdtempSync(path.join(tmpdir(), "lugha-cold-"));
  const funcDir = realpathSync(path.join(projectDir, ".vercel", "output", "functions", fn.dir));
  cpSync(funcDir, dir, { recursive: true, dereference: true });
  for (const [inside, source] of Object.entries(fn.config.filePathMap ?? {})) {
    mkdirSync(path.dirname(path.join(dir, inside)), { recursive: true });
    cpSync(path.join(projectDir, source), path.join(dir, inside), { recursive: true, dereference: true });
  }
  writeFileSync(path.join(dir, "___bench_bridge.cjs"), BRIDGE);
  return dir;
}

interface Start {
  ms: number;
  /** CPU time (user + system) the process had spent when its first answer was sent. */
  cpuMs: number;
  status: number;
}

const CPU_LINE = /__cpu_us (\d+)\n/;

/** Spawn → the first 2xx of the probe (requests retried every 5 ms while the port refuses connections). */
async function coldStart(
  dir: string,
  probe: Probe,
  env: NodeJS.ProcessEnv,
  key: string,
  core: string | undefined,
): Promise<Start & { body: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const profile = CPU_PROFILE_DIR
    ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROFILE_DIR}`, `--cpu-prof-name=${probe.label.replace(/\W+/g, "_")}-${Date.now()}.cpuprofile`]
    : [];
  const node = [process.execPath, ...profile, "___bench_bridge.cjs"];
  const child: ChildProcess = spawn(core === undefined ? node[0]! : "taskset", core === undefined ? node.slice(1) : ["-c", core, ...node], {
    cwd: dir,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d) => (stderr += d));
  try {
    while (performance.now() - t0 < FIRST_ANSWER_TIMEOUT_MS) {
      if (child.exitCode !== null) throw new Error(`${probe.label}: the function exited (${child.exitCode}): ${stderr.slice(-2000)}`);
      let res: Response;
      try {
        res = await probe.request(base, key);
      } catch {
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      const body = await res.text();
      const ms = performance.now() - t0;
      if (!res.ok) throw new Error(`${probe.label}: ${res.status} ${body.slice(0, 500)}`);
      while (!CPU_LINE.test(stderr) && performance.now() - t0 < FIRST_ANSWER_TIMEOUT_MS) await new Promise((r) => setTimeout(r, 5));
      const cpuMs = Number(CPU_LINE.exec(stderr)?.[1] ?? Number.NaN) / 1000;
      return { ms, cpuMs, status: res.status, body };
    }
    throw new Error(`${probe.label}: no answer within ${FIRST_ANSWER_TIMEOUT_MS} ms: ${stderr.slice(-2000)}`);
  } finally {
    if (CPU_PROFILE_DIR && child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    } else child.kill("SIGKILL");
  }
}

export interface ColdStartRow {
  function: string;
  probe: string;
  megabytes: number;
  files: number;
  /** Each start's spawn → first answer, ms (the /health/live function's: one before every other start). */
  runs: number[];
  median_ms: number;
  fastest_ms: number;
  /** The median of (this start − the /health/live start just before it): what the gate compares. */
  over_health_ms: number;
  /** Each start's CPU time (user + system) to the first answer, ms; its median; the median paired difference as above. */
  cpu_runs: number[];
  cpu_median_ms: number;
  cpu_over_health_ms: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * The core every start runs on (`taskset -c`): BENCH_COLD_CORE, else the machine's last; none (the scheduler decides)
 * when BENCH_COLD_CORE is "none", the machine has one core, or taskset is missing. Left to the scheduler, a start
 * shared the two cores with PostgreSQL, this harness and whatever else woke, and one start's difference from its
 * neighbour moved by ±150 ms; on a core of its own, by ±30 (docs/benchmark.md "The gate on one core").
 */
export function pinnedCore(setting = process.env.BENCH_COLD_CORE): string | undefined {
  if (setting === "none") return undefined;
  if (setting === undefined && availableParallelism() < 2) return undefined;
  const core = setting ?? String(availableParallelism() - 1);
  if (spawnSync("taskset", ["-c", core, "true"]).status !== 0) {
    process.stderr.write(`taskset -c ${core} is not available here: starts are not pinned to a core\n`);
    return undefined;
  }
  return core;
}

/** Measures every API function of the build at `projectDir` (its .vercel/output) against the database at `databaseUrl`. */
export async function measureColdStarts(
  projectDir: string,
  databaseUrl: string,
  core = pinnedCore(),
  upstreamEnv: Record<string, string> = {},
): Promise<ColdStartRow[]> {
  const functions = readFunctions(projectDir);
  const probed = PROBES.filter((probe, i) => i === 0 || !ONLY || ONLY.test(probe.label))
    .map((probe) => ({ probe, fn: functions.find((f) => f.routes.includes(probe.route)) }))
    .filter((p): p is { probe: Probe; fn: BuiltFunction } => p.fn !== undefined);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: "production",
    VERCEL: "1",
    VERCEL_ENV: "production",
    DATABASE_URL: databaseUrl,
    API_KEY_HASH_SECRET: "bench-cold-start-hash-secret",
    NEXTAUTH_SECRET: "bench-cold-start-secret-of-32-characters",
    NEXT_TELEMETRY_DISABLED: "1",
    ...upstreamEnv,
  };
  const dirs = new Map<string, string>();
  for (const { fn } of probed) if (!dirs.has(fn.dir)) dirs.set(fn.dir, layOut(projectDir, fn));
  const runs = new Map<string, number[]>(probed.map(({ probe }) => [probe.route, []]));
  const cpuRuns = new Map<string, number[]>(probed.map(({ probe }) => [probe.route, []]));
  const overHealth = new Map<string, number[]>(probed.map(({ probe }) => [probe.route, []]));
  const cpuOverHealth = new Map<string, number[]>(probed.map(({ probe }) => [probe.route, []]));
  const [health, ...others] = probed;
  const startOnce = async ({ probe, fn }: (typeof probed)[number], key: string) => {
    const start = await coldStart(dirs.get(fn.dir)!, probe, env, key, core);
    runs.get(probe.route)!.push(Math.round(start.ms));
    cpuRuns.get(probe.route)!.push(Math.round(start.cpuMs));
    process.stderr.write(`  cold start ${probe.label}: ${Math.round(start.ms)} ms (CPU ${Math.round(start.cpuMs)} ms)\n`);
    return start;
  };
  try {
    // The key the probes send, issued by the function that issues keys (this start is not counted).
    const keys = probed.find(({ fn }) => fn.routes.includes(KEYS_PROBE.route))!;
    const key: string = JSON.parse((await coldStart(dirs.get(keys.fn.dir)!, KEYS_PROBE, env, "", core)).body).api_key;
    // One start of each first, not counted: the first starts of a run were slower by up to 150 ms (files read for the
    // first time, the database's first connections).
    for (const probe of probed) await coldStart(dirs.get(probe.fn.dir)!, probe.probe, env, key, core);
    for (let round = 0; round < ROUNDS; round++) {
      for (const other of others) {
        // Each start right after one of the /health/live function: the machine's speed drifts over seconds, and a
        // difference taken between neighbours is the function's own, not the drift's.
        const baseline = await startOnce(health!, key);
        const start = await startOnce(other, key);
        overHealth.get(other.probe.route)!.push(start.ms - baseline.ms);
        cpuOverHealth.get(other.probe.route)!.push(start.cpuMs - baseline.cpuMs);
      }
    }
  } finally {
    for (const dir of dirs.values()) rmSync(dir, { recursive: true, force: true });
  }
  return probed.map(({ probe, fn }) => ({
    function: fn.dir,
    probe: probe.label,
    megabytes: megabytes(fn.bytes),
    files: fn.files.length,
    runs: runs.get(probe.route)!,
    median_ms: median(runs.get(probe.route)!),
    fastest_ms: Math.min(...runs.get(probe.route)!),
    over_health_ms: probe === health!.probe ? 0 : Math.round(median(overHealth.get(probe.route)!)),
    cpu_runs: cpuRuns.get(probe.route)!,
    cpu_median_ms: median(cpuRuns.get(probe.route)!),
    cpu_over_health_ms: probe === health!.probe ? 0 : Math.round(median(cpuOverHealth.get(probe.route)!)),
  }));
}

/** The starts as listed: all of them, or for the /health/live function (one before every other start) their range. */
const everyStart = (runs: number[]) => (runs.length > 8 ? `${runs.length} starts, ${Math.min(...runs)}–${Math.max(...runs)}` : runs.join(", "));

const signed = (ms: number) => `${ms >= 0 ? "+" : ""}${ms}`;

export function coldStartTable(rows: ColdStartRow[]): string {
  return [
    "| first request | function (shared by routes with the same settings) | size | files | spawn → first answer (median) | over the /health/live start before it (median, gated) | fastest | CPU to first answer (median) | CPU over the /health/live start before it (median) | every start |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.probe} | \`${r.function}\` | ${r.megabytes} MB | ${r.files} | ${r.median_ms} ms | **${signed(r.over_health_ms)} ms** | ${r.fastest_ms} ms | ${r.cpu_median_ms} ms | ${signed(r.cpu_over_health_ms)} ms | ${everyStart(r.runs)} |`,
    ),
  ].join("\n");
}

export function coldStartFailures(rows: ColdStartRow[]): string[] {
  return rows
    .filter((r) => r.over_health_ms > COLD_START_BUDGET_MS)
    .map(
      (r) =>
        `cold start of ${r.function} (${r.probe}) is ${r.over_health_ms} ms over the /health/live function's started just before it (median; budget ${COLD_START_BUDGET_MS} ms)`,
    );
}

async function main() {
  const projectArg = process.argv.indexOf("--project");
  const postgres = await startPostgres();
  let upstreams: Awaited<ReturnType<typeof startCheckingEmulators>> | undefined;
  let work: string | undefined;
  try {
    // Inside the try: emulators that fail to start still leave PostgreSQL stopped below.
    if (UPSTREAMS === "emulators") upstreams = await startCheckingEmulators();
    let projectDir: string;
    const databaseUrl = await createDatabase(postgres.adminUrl);
    if (projectArg > 0) {
      projectDir = path.resolve(process.argv[projectArg + 1]!);
      // The build's own database was migrated by its build command; this one is new: migrate it the same way.
      const migrated = spawnSync(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], {
        cwd: repo,
        env: { ...process.env, DATABASE_URL: databaseUrl },
        stdio: "inherit",
      });
      if (migrated.status !== 0) throw new Error("migrating the benchmark's database failed");
    } else {
      work = mkdtempSync(path.join(tmpdir(), "lugha-cold-build-"));
      copyCheckout(work);
      process.stderr.write("vercel build (offline) in a copy of the checkout…\n");
      const build = await vercelBuild(work, databaseUrl);
      if (build.status !== 0) throw new Error(`vercel build failed:\n${build.output.slice(-3000)}`);
      projectDir = work;
    }
    if (!existsSync(path.join(projectDir, ".vercel", "output", "functions"))) throw new Error(`${projectDir} holds no .vercel/output`);
    const core = pinnedCore();
    const rows = await measureColdStarts(projectDir, databaseUrl, core, upstreams?.env);
    const failures = coldStartFailures(rows);
    mkdirSync(OUT, { recursive: true });
    writeFileSync(
      path.join(OUT, "cold-start.json"),
      `${JSON.stringify({ rounds: ROUNDS, core: core ?? null, upstreams: UPSTREAMS, budget_ms: COLD_START_BUDGET_MS, rows, failures }, null, 2)}\n`,
    );
    const table = coldStartTable(rows);
    writeFileSync(
      path.join(OUT, "cold-start.md"),
      `# Cold starts (bench/cold-start.ts)\n\nEach function of an offline \`vercel build\`, laid out alone, started in a fresh Node.js ${process.version} process${core === undefined ? "" : ` on core ${core} alone (taskset)`}; spawn → first successful answer, ${ROUNDS} starts each after one uncounted, every one right after a start of the /health/live function; gated on the median of those differences. Against PostgreSQL; ${UPSTREAMS === "emulators" ? "the live clients call the providers' emulators over HTTP" : "providers in the in-process sandbox"}.\n\n${table}\n`,
    );
    process.stdout.write(`${table}\n`);
    if (process.argv.includes("--check") && failures.length) {
      process.stderr.write(`cold start --check FAILED:\n  ${failures.join("\n  ")}\n`);
      process.exitCode = 1;
    }
  } finally {
    await postgres.stop();
    await Promise.all(upstreams?.emulators.map((e) => e.close()) ?? []);
    if (work) rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(import.meta.filename)) {
  main().catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.stack : e}\n`);
    process.exit(1);
  });
}
