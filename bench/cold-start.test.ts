import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { COLD_START_BUDGET_MS, type ColdStartRow, coldStartFailures, pinnedCore } from "./cold-start";

const row = (over: number): ColdStartRow => ({
  function: "api/v1/translate.func",
  probe: "POST /api/v1/translate",
  megabytes: 100,
  files: 1000,
  runs: [1100],
  median_ms: 1100,
  fastest_ms: 1100,
  over_health_ms: over,
  cpu_runs: [1000],
  cpu_median_ms: 1000,
  cpu_over_health_ms: over,
});

describe("cold-start gate", () => {
  it(`fails a route whose median start is more than ${COLD_START_BUDGET_MS} ms over /health/live's, and not at the budget`, () => {
    expect(coldStartFailures([row(COLD_START_BUDGET_MS)])).toEqual([]);
    expect(coldStartFailures([row(COLD_START_BUDGET_MS + 1)])).toEqual([
      `cold start of api/v1/translate.func (POST /api/v1/translate) is ${COLD_START_BUDGET_MS + 1} ms over the /health/live function's started just before it (median; budget ${COLD_START_BUDGET_MS} ms)`,
    ]);
  });

  it("runs every start on the machine's last core by default, on the one named, or unpinned when told or when it cannot", () => {
    expect(pinnedCore(undefined)).toBe(availableParallelism() > 1 ? String(availableParallelism() - 1) : undefined);
    expect(pinnedCore("0")).toBe("0");
    expect(pinnedCore("none")).toBeUndefined();
    expect(pinnedCore("4096")).toBeUndefined(); // no such core: taskset refuses, and the starts run unpinned
  });
});
