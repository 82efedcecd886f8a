import { describe, expect, test } from "vitest";
import { SingleFlight } from "./coalesce";

/** A function that counts its runs and resolves (or rejects) when the test says so. */
function gate<T>() {
  let runs = 0;
  let settle!: { resolve: (v: T) => void; reject: (e: unknown) => void };
  const fn = () => {
    runs++;
    return new Promise<T>((resolve, reject) => {
      settle = { resolve, reject };
    });
  };
  return { fn, runs: () => runs, settle: () => settle };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("SingleFlight", () => {
  test("100 concurrent calls with one key run the function once and all get its value", async () => {
    const flights = new SingleFlight<string>();
    const g = gate<string>();
    const calls = Array.from({ length: 100 }, () => flights.run("k", g.fn));
    await tick();
    g.settle().resolve("Maakye");
    const results = await Promise.all(calls);
    expect(g.runs()).toBe(1);
    expect(results.every((r) => r.value === "Maakye")).toBe(true);
    expect(results.filter((r) => !r.shared)).toHaveLength(1);
    expect(flights.size).toBe(0);
  });

  test("different keys run separately", async () => {
    const flights = new SingleFlight<string>();
    let runs = 0;
    const results = await Promise.all(["a", "b", "c", "a"].map((k) => flights.run(k, async () => `${k}${++runs}`)));
    expect(runs).toBe(3);
    expect(results.map((r) => r.value).sort()).toEqual(["a1", "a1", "b2", "c3"].sort());
  });

  test("a rejection reaches every caller in flight, and is not remembered", async () => {
    const flights = new SingleFlight<string>();
    const g = gate<string>();
    const calls = Array.from({ length: 10 }, () => flights.run("k", g.fn));
    await tick();
    const failure = new Error("upstream 503");
    g.settle().reject(failure);
    const outcomes = await Promise.allSettled(calls);
    expect(outcomes.every((o) => o.status === "rejected" && o.reason === failure)).toBe(true);
    expect(flights.size).toBe(0);
    // The next call runs again.
    expect(await flights.run("k", async () => "ok")).toEqual({ value: "ok", shared: false });
    expect(g.runs()).toBe(1);
  });

  test("a function that throws synchronously is a rejection for every waiter, not a crash", async () => {
    const flights = new SingleFlight<string>();
    const fn = () => {
      throw new Error("sync");
    };
    await expect(Promise.all([flights.run("k", fn), flights.run("k", fn)])).rejects.toThrow("sync");
    expect(flights.size).toBe(0);
  });

  test("a caller whose own signal aborts stops waiting; the shared call goes on for the others", async () => {
    const flights = new SingleFlight<string>();
    const g = gate<string>();
    const leaving = new AbortController();
    const first = flights.run("k", g.fn);
    const second = flights.run("k", g.fn, leaving.signal);
    await tick();
    leaving.abort(new Error("client went away"));
    await expect(second).rejects.toThrow("client went away");
    g.settle().resolve("done");
    expect(await first).toEqual({ value: "done", shared: false });
    expect(g.runs()).toBe(1);
  });

  test("a call made after a flight settled starts a new one (no stale sharing)", async () => {
    const flights = new SingleFlight<number>();
    let runs = 0;
    const fn = async () => ++runs;
    const first = await flights.run("k", fn);
    const second = await flights.run("k", fn);
    expect([first.value, second.value]).toEqual([1, 2]);
  });
});
