/**
 * What the operator's view costs a translation (docs/operations.md): the same load against fresh app processes that
 * differ only in what they report. Shared by the benchmark's `operations` scenario (bench/run.ts) and the standalone
 * bench/operations.ts.
 *
 * Variants: `quiet` LOG_LEVEL=warn and no exporter (no access line, no span: only the metric instruments); `log` the
 * default, LOG_LEVEL=info and no exporter (one access line per request); `otlp` LOG_LEVEL=info and
 * OTEL_EXPORTER_OTLP_ENDPOINT at an in-process OTLP/JSON receiver (e2e/support/otlp.ts: the request's spans, Next.js's
 * and Lugha's, exported in batches). The caller starts each app (live mode against the emulators, so the upstream
 * attempt's span and traceparent are on the path; the translation cache off) with the variables given. The load is
 * POST /api/v1/translate with a distinct text in every request (bench/workload.ts), so every request makes its
 * upstream call. The app's CPU time per request (its process tree, from /proc) is the figure to compare: on a shared
 * machine throughput and latency move with the neighbours' load.
 */
import autocannon, { type Result } from "autocannon";
import { startOtlpReceiver } from "../e2e/support/otlp";
import { cpuMs } from "./proc";
import { distinctBodies } from "./workload";

export const OPERATIONS_VARIANTS = ["quiet", "log", "otlp"] as const;
export type OperationsVariant = (typeof OPERATIONS_VARIANTS)[number];

export interface OperationsRow {
  variant: OperationsVariant;
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  /** non-2xx + socket errors + timeouts. */
  errors: number;
  /** CPU (user + system) of the app's process tree during the measured run, per request. */
  cpu_ms_per_request: number;
  /** Spans the OTLP receiver got during the measured run (and 2.5 s after it), per request. */
  spans_per_request: number;
  duration_s: number;
}

export interface OperationsApp {
  url: string;
  /** The server's pid (its process tree's CPU is counted). */
  pid: number;
  stop(): Promise<void>;
}

export interface OperationsOptions {
  variants?: readonly OperationsVariant[];
  /** Starts one app with these variables added to its environment (and TRANSLATION_CACHE=off). */
  start(extraEnv: Record<string, string>): Promise<OperationsApp>;
  mintKey(url: string): Promise<string>;
  durationS: number;
  /** Seconds of load before the measured run (a fresh process: see PROCESS_WARMUP in bench/run.ts). */
  warmupS: number;
  connections: number;
  log?: (msg: string) => void;
}

/** The variables a variant adds to the app's environment. */
export function operationsEnv(variant: OperationsVariant, receiverUrl: string): Record<string, string> {
  return {
    TRANSLATION_CACHE: "off",
    LOG_LEVEL: variant === "quiet" ? "warn" : "info",
    ...(variant === "otlp" ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" } : {}),
  };
}

const load = (url: string, key: string, seconds: number, connections: number) =>
  new Promise<Result>((resolve, reject) => {
    const nextBody = distinctBodies();
    autocannon(
      {
        url,
        method: "POST",
        connections,
        duration: seconds,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        requests: [{ setupRequest: (req) => ({ ...req, body: nextBody() }) }],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });

/** Each variant on its own fresh app, one after the other. */
export async function measureOperations(options: OperationsOptions): Promise<OperationsRow[]> {
  const receiver = await startOtlpReceiver();
  const rows: OperationsRow[] = [];
  try {
    for (const variant of options.variants ?? OPERATIONS_VARIANTS) {
      const app = await options.start(operationsEnv(variant, receiver.url));
      try {
        const key = await options.mintKey(app.url);
        const url = `${app.url}/api/v1/translate`;
        if (options.warmupS > 0) await load(url, key, options.warmupS, options.connections);
        const spansBefore = receiver.spans.length;
        const cpuBefore = cpuMs(app.pid);
        const result = await load(url, key, options.durationS, options.connections);
        const cpu = cpuMs(app.pid) - cpuBefore;
        await new Promise((resolve) => setTimeout(resolve, 2_500)); // the last batch of spans (sent every second)
        const requests = Math.max(1, result.requests.total);
        const row: OperationsRow = {
          variant,
          requests_per_second: Math.round((result["2xx"] / result.duration) * 10) / 10,
          p50_ms: result.latency.p50,
          p99_ms: result.latency.p99,
          errors: result.non2xx + result.errors + result.timeouts,
          cpu_ms_per_request: Math.round((cpu / requests) * 100) / 100,
          spans_per_request: Number(((receiver.spans.length - spansBefore) / requests).toFixed(2)),
          duration_s: result.duration,
        };
        options.log?.(`operations ${variant}: ${JSON.stringify(row)}`);
        rows.push(row);
      } finally {
        await app.stop();
      }
    }
  } finally {
    await receiver.close();
  }
  return rows;
}

/** The rows as a markdown table. */
export function operationsTable(rows: OperationsRow[]): string[] {
  return [
    "| variant | what it reports | app CPU ms/req | req/s | p50 ms | p99 ms | errors | spans exported /req |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.variant} | ${VARIANT_TITLES[r.variant]} | ${r.cpu_ms_per_request} | ${r.requests_per_second} | ${r.p50_ms} | ${r.p99_ms} | ${r.errors} | ${r.spans_per_request} |`,
    ),
  ];
}

const VARIANT_TITLES: Record<OperationsVariant, string> = {
  quiet: "LOG_LEVEL=warn, no exporter (metrics only)",
  log: "LOG_LEVEL=info (access log), no exporter",
  otlp: "LOG_LEVEL=info + OTLP traces exporter",
};
