import { describe, expect, it } from "vitest";
import { inSpan, RecentWindow, requestFacts, tracingOn, withRequestFacts } from "./telemetry";

describe("RecentWindow (the status page's last hour)", () => {
  it("counts attempts and failures per provider, and estimates the median within its histogram bucket", () => {
    let now = 0;
    const w = new RecentWindow(60, () => now);
    // 0.02 s falls in the bucket (0.01, 0.025]; 0.3 s in (0.25, 0.5].
    for (let i = 0; i < 3; i++) w.add("provider_a", 0.02, false);
    w.add("provider_a", 0.3, true);
    expect(w.summary("provider_a")).toEqual({ calls: 4, errors: 1, error_rate: 0.25, p50_ms: 20 });
    expect(w.summary("provider_b")).toEqual({ calls: 0, errors: 0, error_rate: null, p50_ms: null });
    now += 30 * 60_000;
    w.add("provider_a", 0.3, false);
    expect(w.summary("provider_a")).toMatchObject({ calls: 5, errors: 1 });
    // An hour after the first four, only the last one counts.
    now += 31 * 60_000;
    expect(w.summary("provider_a")).toEqual({ calls: 1, errors: 0, error_rate: 0, p50_ms: 375 });
  });
});

describe("spans and request facts", () => {
  it("without a registered exporter, inSpan runs the function alone (no span object)", async () => {
    expect(tracingOn()).toBe(false);
    expect(await inSpan("x", {}, async (span) => span)).toBeUndefined();
  });

  it("the facts of a request are visible to everything it calls, and to nothing else", async () => {
    const facts = { upstreamAttempts: 0, upstreamBytes: 0, upstreamCalls: {} };
    await withRequestFacts(facts, async () => {
      await Promise.resolve();
      requestFacts()!.upstreamAttempts++;
    });
    expect(facts.upstreamAttempts).toBe(1);
    expect(requestFacts()).toBeUndefined();
  });
});
