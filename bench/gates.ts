/**
 * What `npm run bench -- --check` (bench/run.ts) holds, and the pure decision: figures in, failures out. Kept apart
 * from the harness so that the decision is unit-tested without starting anything (bench/gates.test.ts).
 */
import type { AppProcessResult, BatchProbeResult, Measurement } from "./run";

/**
 * Upstream calls (quota units) per 100 batch items at most this (the quota issue's figure). Packed, 50 short items
 * take 2 calls to provider_a; one call per item (no packing) would be ≈ 100.
 */
export const MAX_BATCH_CALLS_PER_100_ITEMS = 6;
/**
 * app/floor-node-http throughput on translate-0ms (distinct texts) at least this. A diagnostic that must not fall,
 * not a target: the app has measured 0.67–0.72, the rest being Next.js's own per-request work in a larger process.
 */
export const MIN_NODE_HTTP_FLOOR_RATIO = 0.62;
/**
 * Latency the app adds over the bare proxy (bench/baseline-proxy.mjs) on ADDED_LATENCY_SCENARIO: distinct texts,
 * upstream 100 ms, cache off, 50 connections. Medians of the interleaved rounds, p50 and p99 each.
 */
export const ADDED_LATENCY_SCENARIO = "translate-100ms";
export const MAX_ADDED_P50_MS = 2;
export const MAX_ADDED_P99_MS = 10;

/** The app's p50 and p99 minus the baseline's (ms, one decimal), each beside its limit. */
export function addedLatency(app: Measurement, baseline: Measurement): { p: "p50" | "p99"; added: number; max: number }[] {
  return (
    [
      ["p50", MAX_ADDED_P50_MS],
      ["p99", MAX_ADDED_P99_MS],
    ] as const
  ).map(([p, max]) => ({ p, added: Math.round((app.latency_ms[p] - baseline.latency_ms[p]) * 10) / 10, max }));
}
/** The server's VmHWM from spawn through the load at most this, per database. */
export const VM_HWM_BUDGET_MB = { pglite: 768, postgres: 512 } as const;
/** Idle RSS after start-up and one translation at most this (PGlite, whose WebAssembly memory is the bulk). */
export const IDLE_BUDGET_MB: Partial<Record<keyof typeof VM_HWM_BUDGET_MB, number>> = { pglite: 400 };

/**
 * One cacheable read, fetched in full and then with If-None-Match: its validator, statuses, sizes and costs. The gate
 * holds the 304 itself (a validator, every conditional answer 304, no body); the cost is reported, not gated: on
 * loopback the bytes a 304 saves cost next to nothing to move (on a real network they are most of the time), and the
 * server's CPU per request on a shared machine moves by more than the difference (docs/benchmark.md).
 */
export interface NotModifiedResult {
  database: string;
  path: string;
  etag: string | null;
  full_bytes: number;
  full_median_ms: number;
  /** The server's CPU time per full answer (its process tree, over a run of them). */
  full_cpu_ms_per_request: number;
  /** Status of every conditional GET (all 304 when it works). */
  conditional_statuses: number[];
  /** Largest body a conditional GET carried (0 when it works). */
  conditional_max_bytes: number;
  conditional_median_ms: number;
  conditional_cpu_ms_per_request: number;
  requests: number;
}

export interface GateInput {
  all: Measurement[];
  processes: AppProcessResult[];
  batches: BatchProbeResult[];
  notModified: NotModifiedResult[];
}

/**
 * The failures: the app below MIN_NODE_HTTP_FLOOR_RATIO of the node:http floor, its p50 or p99 over the bare proxy's
 * by more than MAX_ADDED_P50_MS / MAX_ADDED_P99_MS on ADDED_LATENCY_SCENARIO, any error answered by the app, an app
 * process whose VmHWM (or sampled peak) from spawn is over its database's budget or whose idle RSS is over the idle
 * budget, a batch costing more than MAX_BATCH_CALLS_PER_100_ITEMS upstream calls per 100 items, or a cacheable read
 * without a validator or whose conditional GET is not an empty 304.
 */
export function gateFailures({ all, processes, batches, notModified }: GateInput): string[] {
  const failures: string[] = [];
  for (const b of batches)
    if (!(b.upstream_calls_per_100_items <= MAX_BATCH_CALLS_PER_100_ITEMS))
      failures.push(`${b.database} batch: ${b.upstream_calls_per_100_items} upstream calls per 100 items > ${MAX_BATCH_CALLS_PER_100_ITEMS}`);
  for (const app of all.filter((m) => m.target === "app")) {
    if (app.errors.total > 0) failures.push(`${app.database} ${app.scenario}: ${app.errors.total} errors`);
    const other = (target: Measurement["target"]) =>
      all.find((m) => m.database === app.database && m.scenario === app.scenario && m.target === target);
    const baseline = other("baseline");
    if (app.scenario === ADDED_LATENCY_SCENARIO && baseline)
      for (const { p, added, max } of addedLatency(app, baseline))
        if (!(added <= max)) failures.push(`${app.database} ${app.scenario}: ${p} +${added} ms over the bare proxy > +${max} ms`);
    const floor = other("floor-node-http");
    if (!floor) continue;
    const x = app.requests_per_second / floor.requests_per_second;
    if (!(x >= MIN_NODE_HTTP_FLOOR_RATIO))
      failures.push(`${app.database} ${app.scenario}: app/floor-node-http ${x.toFixed(2)} < ${MIN_NODE_HTTP_FLOOR_RATIO}`);
  }
  for (const p of processes) {
    if (p.vm_hwm_mb > p.vm_hwm_budget_mb)
      failures.push(`${p.database} (cache ${p.cache}, ${p.start}): VmHWM ${p.vm_hwm_mb} MB > budget ${p.vm_hwm_budget_mb} MB`);
    // The same budget for the whole start: a start-up child (PGlite's preparation) has its own high-water mark, which
    // ends with it; the tree's samples from spawn include it.
    if (p.peak_rss_from_spawn_mb > p.vm_hwm_budget_mb)
      failures.push(
        `${p.database} (cache ${p.cache}, ${p.start}): peak RSS from spawn ${p.peak_rss_from_spawn_mb} MB > budget ${p.vm_hwm_budget_mb} MB`,
      );
    if (p.idle_budget_mb !== null && p.idle_rss_mb > p.idle_budget_mb)
      failures.push(`${p.database} (cache ${p.cache}, ${p.start}): idle RSS ${p.idle_rss_mb} MB > budget ${p.idle_budget_mb} MB`);
  }
  for (const n of notModified) {
    const read = `${n.database} GET ${n.path}`;
    if (!n.etag) failures.push(`${read}: no ETag`);
    const other = n.conditional_statuses.filter((s) => s !== 304);
    if (other.length || !n.conditional_statuses.length)
      failures.push(`${read} with If-None-Match: ${other.length || "no"} answers other than 304 (${[...new Set(other)].join(", ") || "none sent"})`);
    if (n.conditional_max_bytes > 0) failures.push(`${read}: a 304 carried a body of ${n.conditional_max_bytes} bytes`);
  }
  return failures;
}
