/**
 * Growth curves: how the cost of a request grows with the work in it, on the production build against the upstream
 * emulators at a fixed upstream latency, the cache off, every text distinct (nothing cached or coalesced: each text
 * costs its upstream calls).
 *
 *   npm run bench:growth                  (= tsx bench/growth.ts; needs a production build: npm run build)
 *
 *   BENCH_GROWTH_REQUESTS=3   requests timed per point of the catalog, text and batch curves (one at a time, after one
 *                             unmeasured); medians reported
 *   BENCH_DURATION=10         seconds per concurrency point (autocannon), after BENCH_WARMUP=3 s of warm-up
 *   BENCH_OUT=bench/results   where growth.json and growth.md go
 *
 * The curves: a JSON catalog (bench/catalog.ts) of 100, 1,000 and 5,000 entries to POST /translate/catalog, each
 * size on a freshly started app (wall time, upstream calls, and the server's memory: the peak of its tree's VmRSS
 * sampled every 50 ms while the catalogs ran, and its VmHWM since the start); one text of 1,000, 2,500 and 5,000
 * characters to POST /translate (5,000 is the API's limit for one text); a batch of 1, 10 and 50 items (the API's
 * limit) to POST /translate/batch; 1, 10, 50 and 200 concurrent callers of POST /translate (p50/p99). Upstream calls
 * are counted at the emulators. PostgreSQL only: the database a deployment runs (and the curves are about the
 * request's own work: on PGlite the database's WebAssembly memory would be most of the RSS measured).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPostgres } from "../e2e/support/postgres";
import { catalogFixture } from "./catalog";
import { cpuMs, treeMb } from "./proc";
import {
  cleanups,
  emulatorStats,
  load,
  log,
  median,
  migratedDatabase,
  mintKey,
  percentile,
  type RunningApp,
  round1,
  round2,
  runFacts,
  runMain,
  type Scenario,
  setLatency,
  snapshotBuild,
  spawnWithReadyLine,
  startApp,
  stopChild,
  tsx,
} from "./run";
import { distinctBatchBodies, distinctBodies, fillTexts } from "./workload";

const env = process.env;
const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = path.resolve(ROOT, env.BENCH_OUT ?? "bench/results");
const REQUESTS = Number(env.BENCH_GROWTH_REQUESTS ?? 3);
const DURATION = Number(env.BENCH_DURATION ?? 10);
const WARMUP = Number(env.BENCH_WARMUP ?? 3);
/** Upstream latency of every curve (the emulators answer each call after this long). */
const LATENCY_MS = 100;
const CURVES = {
  catalogEntries: [100, 1_000, 5_000],
  /** Characters of one text; the API takes at most 5,000 (docs/guide.md, POST /translate). */
  textChars: [1_000, 2_500, 5_000],
  batchItems: [1, 10, 50],
  callers: [1, 10, 50, 200],
};

/** One point of a curve measured one request at a time. */
interface SequentialPoint {
  size: number;
  requests: number;
  elapsed_ms: number[];
  median_ms: number;
  /** Translation calls counted at the emulators, per request. */
  upstream_calls_per_request: number;
  /** The most calls one emulator had in flight at once. */
  max_in_flight: number;
}

interface CatalogPoint extends SequentialPoint {
  /** Highest tree VmRSS sampled while the measured catalogs ran; RSS before them. */
  peak_rss_mb: number;
  start_rss_mb: number;
  /** The server's VmHWM (summed over its tree) when it stopped: its highest RSS since its fresh start. */
  vm_hwm_mb: number;
  /** Size of the catalog file sent (a file of 32 KiB or more is read and written on a worker thread). */
  file_bytes: number;
  /** Entries per catalog (averaged over the measured ones). */
  translated: number;
  pending: number;
  failed: number;
}

interface CallersPoint {
  callers: number;
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  upstream_calls_per_request: number;
  /** The most calls one emulator had in flight at once (the app holds none back: no cap on single translations). */
  max_in_flight: number;
  /** CPU time of the server's process tree per request, and as cores kept busy over the run. */
  server_cpu_ms_per_request: number;
  server_cpu_cores: number;
}

/** Sends `next()`'s bodies one at a time (the first unmeasured) and counts the upstream calls of the measured ones. */
async function sequential(
  upstreams: Record<string, string>,
  size: number,
  send: () => Promise<unknown>,
): Promise<{ point: SequentialPoint; answers: unknown[] }> {
  await send();
  await emulatorStats(upstreams, "reset");
  const elapsed: number[] = [];
  const answers: unknown[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    answers.push(await send());
    elapsed.push(Math.round(performance.now() - started));
  }
  const stats = await emulatorStats(upstreams);
  return {
    point: {
      size,
      requests: REQUESTS,
      elapsed_ms: elapsed,
      median_ms: median(elapsed),
      upstream_calls_per_request: round1(stats.calls / REQUESTS),
      max_in_flight: stats.maxInFlight,
    },
    answers,
  };
}

async function post(url: string, key: string, body: string): Promise<unknown> {
  const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${new URL(url).pathname}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

let catalogRuns = 0;

async function catalogPoint(app: RunningApp, key: string, upstreams: Record<string, string>, entries: number): Promise<CatalogPoint> {
  const body = () =>
    JSON.stringify({ format: "json", content: catalogFixture(entries, ++catalogRuns), source_lang: "en", target_lang: "lug", cache: false });
  type Answer = { entries: { translated: number; pending: number; failed: unknown[] } };
  // The unmeasured first catalog warms the route; the window covers the measured ones.
  let window: ReturnType<NonNullable<RunningApp["memory"]>["window"]> | undefined;
  let sent = 0;
  const { point, answers } = await sequential(upstreams, entries, async () => {
    if (sent++ === 1) window = app.memory!.window();
    return post(`${app.url}/api/v1/translate/catalog`, key, body());
  });
  const rss = window!.stop();
  const perCatalog = (pick: (a: Answer) => number) => round1((answers as Answer[]).reduce((n, a) => n + pick(a), 0) / answers.length);
  return {
    ...point,
    peak_rss_mb: rss.peak,
    start_rss_mb: rss.start,
    vm_hwm_mb: treeMb(app.child.pid!, "VmHWM"),
    file_bytes: Buffer.byteLength(catalogFixture(entries, catalogRuns)),
    translated: perCatalog((a) => a.entries.translated),
    pending: perCatalog((a) => a.entries.pending),
    failed: perCatalog((a) => a.entries.failed.length),
  };
}

const TRANSLATE: Scenario = {
  name: "growth-callers",
  title: "POST /translate, distinct texts",
  method: "POST",
  path: "/api/v1/translate",
  upstreamLatencyMs: LATENCY_MS,
  bodies: () => distinctBodies(),
  cache: "off",
  targets: ["app"],
};

async function callersPoint(app: RunningApp, key: string, upstreams: Record<string, string>, callers: number): Promise<CallersPoint> {
  const url = `${app.url}/api/v1/translate`;
  const nextBody = distinctBodies();
  await load(url, TRANSLATE, key, WARMUP, nextBody, callers);
  await emulatorStats(upstreams, "reset");
  const cpuBefore = cpuMs(app.child.pid!);
  const { result, latencies } = await load(url, TRANSLATE, key, DURATION, nextBody, callers);
  const cpu = cpuMs(app.child.pid!) - cpuBefore;
  const { calls, maxInFlight } = await emulatorStats(upstreams);
  return {
    callers,
    requests_per_second: round1(result["2xx"] / result.duration),
    p50_ms: round1(percentile(latencies, 50)),
    p99_ms: round1(percentile(latencies, 99)),
    errors: result.non2xx + result.errors + result.timeouts,
    upstream_calls_per_request: round1(calls / Math.max(1, result.requests.total)),
    max_in_flight: maxInFlight,
    server_cpu_ms_per_request: Math.round((cpu / Math.max(1, result.requests.total)) * 100) / 100,
    server_cpu_cores: Math.round((cpu / (result.duration * 1000)) * 100) / 100,
  };
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const tmp = mkdtempSync(path.join(os.tmpdir(), "lugha-growth-"));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  const appDir = snapshotBuild(tmp);
  const emu = await spawnWithReadyLine(process.execPath, tsx("bench/emulators.ts"), { PATH: env.PATH, HOME: env.HOME, NODE_ENV: "production" });
  const upstreams = JSON.parse(emu.line) as Record<string, string>;
  const pg = await startPostgres();
  cleanups.push(() => pg.stop());
  const databaseUrl = await migratedDatabase(pg);
  await setLatency(upstreams, LATENCY_MS);
  const loadBefore = os.loadavg();
  const start = (sampleMemory = false) => startApp(appDir, databaseUrl, upstreams, { TRANSLATION_CACHE: "off" }, "app", sampleMemory);

  // Catalogs: each size on a fresh server, so its VmHWM is that size's alone.
  const catalogs: CatalogPoint[] = [];
  for (const entries of CURVES.catalogEntries) {
    const app = await start(true);
    try {
      const key = await mintKey(app.url);
      const p = await catalogPoint(app, key, upstreams, entries);
      catalogs.push(p);
      log(
        `catalog ${entries}: ${p.elapsed_ms.join(", ")} ms, ${p.upstream_calls_per_request} calls (max in flight ${p.max_in_flight}), peak RSS ${p.peak_rss_mb} MB (from ${p.start_rss_mb}), VmHWM ${p.vm_hwm_mb} MB, translated/pending/failed ${p.translated}/${p.pending}/${p.failed}`,
      );
    } finally {
      await stopChild(app.child);
    }
  }

  const app = await start();
  const key = await mintKey(app.url);
  const texts: SequentialPoint[] = [];
  let textRuns = 0;
  for (const chars of CURVES.textChars) {
    const { point } = await sequential(upstreams, chars, () =>
      post(`${app.url}/api/v1/translate`, key, JSON.stringify({ text: fillTexts(++textRuns, 1, chars)[0], source_lang: "en", target_lang: "lug" })),
    );
    texts.push(point);
    log(
      `text of ${chars} characters: ${point.elapsed_ms.join(", ")} ms, ${point.upstream_calls_per_request} calls (max in flight ${point.max_in_flight})`,
    );
  }
  const batches: SequentialPoint[] = [];
  for (const items of CURVES.batchItems) {
    const next = distinctBatchBodies(items);
    const { point } = await sequential(upstreams, items, async () => {
      const out = (await post(`${app.url}/api/v1/translate/batch`, key, next())) as { failed: number };
      if (out.failed !== 0) throw new Error(`batch of ${items}: ${out.failed} items failed`);
      return out;
    });
    batches.push(point);
    log(`batch of ${items}: ${point.elapsed_ms.join(", ")} ms, ${point.upstream_calls_per_request} calls (max in flight ${point.max_in_flight})`);
  }
  const callers: CallersPoint[] = [];
  for (const n of CURVES.callers) {
    const p = await callersPoint(app, key, upstreams, n);
    callers.push(p);
    log(
      `${n} callers: ${p.requests_per_second} req/s, p50 ${p.p50_ms} p99 ${p.p99_ms} ms, errors ${p.errors}, ${p.upstream_calls_per_request} calls/request (max in flight ${p.max_in_flight}), server CPU ${p.server_cpu_ms_per_request} ms/request (${p.server_cpu_cores} cores)`,
    );
  }
  await stopChild(app.child);
  await stopChild(emu.child);

  const meta = {
    ...runFacts(),
    database: "postgres",
    upstream_latency_ms: LATENCY_MS,
    cache: "off",
    requests_per_point: REQUESTS,
    duration_s: DURATION,
    warmup_s: WARMUP,
    load_average_at_start: loadBefore.map(round2),
  };
  writeFileSync(path.join(OUT, "growth.json"), `${JSON.stringify({ meta, catalogs, texts, batches, callers }, null, 2)}\n`);
  const md = markdown(meta, catalogs, texts, batches, callers);
  writeFileSync(path.join(OUT, "growth.md"), md);
  process.stdout.write(`\n${md}\n`);
}

function markdown(
  meta: Record<string, unknown>,
  catalogs: CatalogPoint[],
  texts: SequentialPoint[],
  batches: SequentialPoint[],
  callers: CallersPoint[],
): string {
  const each = (p: SequentialPoint) => `${p.median_ms} ms (${p.elapsed_ms.join(", ")})`;
  return [
    "# Growth curves",
    "",
    `Generated by \`npm run bench:growth\` (bench/growth.ts) at ${meta.finished_at} on commit ${meta.commit}: PostgreSQL, upstream ${LATENCY_MS} ms, cache off, distinct texts, ` +
      `${REQUESTS} requests per point one at a time after one unmeasured (medians), ${DURATION} s per concurrency point after ${WARMUP} s of warm-up; ` +
      `${meta.cpus}× ${meta.cpu_model}, Node ${meta.node}, load average ${JSON.stringify(meta.load_average_at_start)} at the start and ${JSON.stringify(meta.load_average_at_end)} at the end.`,
    "",
    "| catalog entries | file | wall time, median (each) | upstream calls | max in flight | peak RSS (before) | VmHWM since start | translated / pending / failed per catalog |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...catalogs.map(
      (c) =>
        `| ${c.size.toLocaleString("en")} | ${Math.round(c.file_bytes / 1024)} kB | ${each(c)} | ${c.upstream_calls_per_request} | ${c.max_in_flight} | ${c.peak_rss_mb} MB (${c.start_rss_mb}) | ${c.vm_hwm_mb} MB | ${c.translated} / ${c.pending} / ${c.failed} |`,
    ),
    "",
    "| one text, characters | wall time, median (each) | upstream calls | max in flight |",
    "|---:|---:|---:|---:|",
    ...texts.map((t) => `| ${t.size.toLocaleString("en")} | ${each(t)} | ${t.upstream_calls_per_request} | ${t.max_in_flight} |`),
    "",
    "| batch items | wall time, median (each) | upstream calls | max in flight |",
    "|---:|---:|---:|---:|",
    ...batches.map((b) => `| ${b.size} | ${each(b)} | ${b.upstream_calls_per_request} | ${b.max_in_flight} |`),
    "",
    "| concurrent callers | req/s | p50 ms | p99 ms | errors | upstream calls /req | max in flight | server CPU ms/req (cores busy) |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...callers.map(
      (c) =>
        `| ${c.callers} | ${c.requests_per_second} | ${c.p50_ms} | ${c.p99_ms} | ${c.errors} | ${c.upstream_calls_per_request} | ${c.max_in_flight} | ${c.server_cpu_ms_per_request} (${c.server_cpu_cores}) |`,
    ),
    "",
  ].join("\n");
}

runMain(main);
