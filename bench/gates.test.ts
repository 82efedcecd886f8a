import { describe, expect, it } from "vitest";
import { type GateInput, gateFailures, type NotModifiedResult } from "./gates";
import type { AppProcessResult, BatchProbeResult, Measurement } from "./run";

const measurement = (
  target: Measurement["target"],
  requestsPerSecond: number,
  errors = 0,
  scenario = "translate-0ms",
  latency = { p50: 1, p99: 1 },
): Measurement => ({
  database: "pglite",
  scenario,
  target,
  requests_per_second: requestsPerSecond,
  requests: 1000,
  latency_ms: { p50: latency.p50, p95: latency.p99, p99: latency.p99, mean: latency.p50, max: latency.p99 },
  errors: { total: errors, non_2xx: errors, socket: 0, timeouts: 0, by_status: {} },
  upstream_calls_per_1000: 1000,
  duration_s: 10,
});

const process_: AppProcessResult = {
  database: "pglite",
  cache: "off",
  start: "fresh",
  ready_ms: 900,
  idle_rss_mb: 350,
  idle_budget_mb: 400,
  peak_rss_from_spawn_mb: 500,
  peak_rss_under_load_mb: 480,
  vm_hwm_mb: 500,
  vm_hwm_budget_mb: 768,
};

const batch = (per100: number): BatchProbeResult => ({
  database: "pglite",
  items: 50,
  upstream_latency_ms: 200,
  concurrency_per_provider: 16,
  requests: 2,
  elapsed_ms: [420, 430],
  median_ms: 425,
  round_trips: 1,
  elapsed_over_latency: 2.1,
  upstream_calls_per_request: per100 / 2,
  upstream_calls_per_100_items: per100,
  reported_upstream_calls: [2, 2],
  max_in_flight: 2,
});

const read = (over: Partial<NotModifiedResult> = {}): NotModifiedResult => ({
  database: "pglite",
  path: "/api/v1/openapi.json",
  etag: '"abc"',
  full_bytes: 270_000,
  full_median_ms: 10,
  full_cpu_ms_per_request: 5,
  conditional_statuses: [304, 304, 304],
  conditional_max_bytes: 0,
  conditional_median_ms: 8,
  conditional_cpu_ms_per_request: 1,
  requests: 3,
  ...over,
});

const passing: GateInput = {
  all: [measurement("app", 700), measurement("floor-node-http", 1000)],
  processes: [process_],
  batches: [batch(4)],
  notModified: [read(), read({ path: "/docs/guide.md", full_bytes: 3_000, full_cpu_ms_per_request: 1, conditional_cpu_ms_per_request: 0.9 })],
};

describe("bench --check gate", () => {
  it("passes a run within every gate", () => {
    expect(gateFailures(passing)).toEqual([]);
  });

  it("fails when the app falls below 0.62 of the node:http floor, and not at 0.62", () => {
    expect(gateFailures({ ...passing, all: [measurement("app", 620), measurement("floor-node-http", 1000)] })).toEqual([]);
    expect(gateFailures({ ...passing, all: [measurement("app", 610), measurement("floor-node-http", 1000)] })).toEqual([
      "pglite translate-0ms: app/floor-node-http 0.61 < 0.62",
    ]);
  });

  it("fails when the app adds more than 2 ms at p50 or 10 ms at p99 over the bare proxy at upstream 100 ms", () => {
    const at100 = (app: { p50: number; p99: number }) => ({
      ...passing,
      all: [measurement("app", 450, 0, "translate-100ms", app), measurement("baseline", 460, 0, "translate-100ms", { p50: 102, p99: 110 })],
    });
    expect(gateFailures(at100({ p50: 104, p99: 120 }))).toEqual([]);
    expect(gateFailures(at100({ p50: 104.5, p99: 133 }))).toEqual([
      "pglite translate-100ms: p50 +2.5 ms over the bare proxy > +2 ms",
      "pglite translate-100ms: p99 +23 ms over the bare proxy > +10 ms",
    ]);
  });

  it("fails on any error the app answered", () => {
    expect(gateFailures({ ...passing, all: [measurement("app", 700, 3), measurement("floor-node-http", 1000)] })).toEqual([
      "pglite translate-0ms: 3 errors",
    ]);
  });

  it("fails a batch over 6 upstream calls per 100 items, and not at 6", () => {
    expect(gateFailures({ ...passing, batches: [batch(6)] })).toEqual([]);
    expect(gateFailures({ ...passing, batches: [batch(6.1)] })).toEqual(["pglite batch: 6.1 upstream calls per 100 items > 6"]);
  });

  it("fails memory over its budgets", () => {
    const failures = gateFailures({ ...passing, processes: [{ ...process_, vm_hwm_mb: 800, peak_rss_from_spawn_mb: 790, idle_rss_mb: 401 }] });
    expect(failures).toEqual([
      "pglite (cache off, fresh): VmHWM 800 MB > budget 768 MB",
      "pglite (cache off, fresh): peak RSS from spawn 790 MB > budget 768 MB",
      "pglite (cache off, fresh): idle RSS 401 MB > budget 400 MB",
    ]);
  });

  it("fails a read without a validator, a conditional read not answered 304, or a 304 with a body", () => {
    expect(gateFailures({ ...passing, notModified: [read({ etag: null, conditional_statuses: [200, 200, 200] })] })).toEqual([
      "pglite GET /api/v1/openapi.json: no ETag",
      "pglite GET /api/v1/openapi.json with If-None-Match: 3 answers other than 304 (200)",
    ]);
    expect(gateFailures({ ...passing, notModified: [read({ conditional_max_bytes: 12 })] })).toEqual([
      "pglite GET /api/v1/openapi.json: a 304 carried a body of 12 bytes",
    ]);
  });
});
