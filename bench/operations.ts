/**
 * What the operator's view costs a translation (docs/operations.md; figures in docs/benchmark.md "Operations"): the
 * same load against three fresh apps that differ only in what they report.
 *
 *   npx tsx bench/operations.ts            (needs a production build: npm run build)
 *
 *   OPS_DURATION=10       seconds per scenario (after 3 s of warm-up)
 *   OPS_CONNECTIONS=20    concurrent connections
 *   OPS_SCENARIOS=quiet,log,otlp
 *
 * Scenarios: `quiet` LOG_LEVEL=warn and no exporter (no access line, no span: only the metric instruments);
 * `log` the default, LOG_LEVEL=info and no exporter (one access line per request); `otlp` LOG_LEVEL=info and
 * OTEL_EXPORTER_OTLP_ENDPOINT at an in-process OTLP/JSON receiver (the request's spans, Next.js's and Lugha's, exported
 * in batches). The app runs in live mode against the loopback emulators (the real node:http transport, so the upstream
 * attempt's span and traceparent are on the path), on PGlite, the translation cache off, rate limits out of the way.
 * The load is POST /api/v1/translate with autocannon. The app's CPU time per request (its process tree, from /proc) is
 * the figure to compare: on a shared machine throughput and latency move with the neighbours' load. Loopback only.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import autocannon, { type Options, type Result } from "autocannon";
import { startEmulatorServer } from "@/lib/providers/sandbox";
import { startOtlpReceiver } from "../e2e/support/otlp";
import { mintKey, startBuiltApp } from "./start-app";

const env = process.env;
const DURATION_S = Number(env.OPS_DURATION ?? 10);
const CONNECTIONS = Number(env.OPS_CONNECTIONS ?? 20);
const SCENARIOS = (env.OPS_SCENARIOS ?? "quiet,log,otlp").split(",");
const APP_DIR = path.resolve(import.meta.dirname, "..");

/** CPU seconds (user + system) used so far by `pid` and its descendants, from /proc (Linux; 100 ticks a second). */
function cpuSeconds(pid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ");
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended meanwhile
    }
  }
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [id, s] of stats)
      if (!tree.has(id) && tree.has(s.ppid)) {
        tree.add(id);
        grew = true;
      }
  }
  return [...tree].reduce((sum, id) => sum + (stats.get(id)?.ticks ?? 0), 0) / 100;
}

const load = (options: Options) =>
  new Promise<Result>((resolve, reject) => autocannon(options, (err, result) => (err ? reject(err) : resolve(result))));

async function main() {
  const emulators = await Promise.all([startEmulatorServer("sunbird"), startEmulatorServer("khaya"), startEmulatorServer("hf")]);
  const receiver = await startOtlpReceiver();
  const live = { PROVIDER_MODE: "live", SUNBIRD_API_URL: emulators[0].url, KHAYA_API_URL: emulators[1].url, HF_API_URL: emulators[2].url };
  const rows = [];
  for (const name of SCENARIOS) {
    const extra: Record<string, string> = {
      ...live,
      TRANSLATION_CACHE: "off",
      RATE_LIMIT_TRANSLATE: "100000000/1s",
      RATE_LIMIT_DEFAULT: "100000000/1s",
      UPSTREAM_BUDGET_PROVIDER_A: "unlimited",
      LOG_LEVEL: name === "quiet" ? "warn" : "info",
      ...(name === "otlp" ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" } : {}),
    };
    const app = await startBuiltApp(APP_DIR, extra);
    try {
      const key = await mintKey(app.url);
      const options = {
        url: `${app.url}/api/v1/translate`,
        method: "POST" as const,
        connections: CONNECTIONS,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ text: "Good morning, how are you?", source_lang: "en", target_lang: "lug", provider: "provider_a" }),
      };
      await load({ ...options, duration: 3 });
      const spansBefore = receiver.spans.length;
      const cpuBefore = cpuSeconds(app.pid);
      const result = await load({ ...options, duration: DURATION_S });
      const cpu = cpuSeconds(app.pid) - cpuBefore;
      await new Promise((resolve) => setTimeout(resolve, 2_500)); // the last batch of spans (sent every second)
      const row = {
        scenario: name,
        requests_per_s: Math.round(result.requests.average),
        p50_ms: result.latency.p50,
        p99_ms: result.latency.p99,
        non_2xx: result.non2xx,
        cpu_us_per_request: Math.round((cpu * 1e6) / Math.max(1, result.requests.total)),
        spans_per_request: Number(((receiver.spans.length - spansBefore) / Math.max(1, result.requests.total)).toFixed(2)),
      };
      console.error(JSON.stringify(row));
      rows.push(row);
    } finally {
      await app.stop();
    }
  }
  await receiver.close();
  await Promise.all(emulators.map((e) => e.close()));
  console.log(`${CONNECTIONS} connections, ${DURATION_S} s per scenario`);
  console.log("| scenario | app CPU µs per request | req/s | p50 ms | p99 ms | non-2xx | spans exported per request |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of rows)
    console.log(
      `| ${r.scenario} | ${r.cpu_us_per_request} | ${r.requests_per_s} | ${r.p50_ms} | ${r.p99_ms} | ${r.non_2xx} | ${r.spans_per_request} |`,
    );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
