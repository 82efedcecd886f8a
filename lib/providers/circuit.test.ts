import { describe, expect, it } from "vitest";
import { CircuitBreaker } from "./circuit";
import { providerError } from "./test-support";
import { ProviderError } from "./types";

function setup(threshold = 3, cooldownMs = 1_000) {
  let now = 0;
  const circuit = new CircuitBreaker("provider_b", { failureThreshold: threshold, cooldownMs, now: () => now });
  const fail = (kind: ProviderError["kind"] = "unavailable") => circuit.run(() => Promise.reject(new ProviderError("provider_b", kind, "x")));
  const succeed = () => circuit.run(() => Promise.resolve("ok"));
  return { circuit, fail, succeed, advance: (ms: number) => (now += ms) };
}

describe("CircuitBreaker", () => {
  it("opens after N consecutive failures and then fails fast without calling", async () => {
    const { circuit, fail } = setup();
    for (let i = 0; i < 3; i++) await fail().catch(() => {});
    expect(circuit.getState()).toBe("open");
    let called = false;
    const err = await providerError(circuit.run(async () => (called = true)));
    expect(err.kind).toBe("circuit_open");
    expect(err.retryAfterMs).toBe(1_000);
    expect(called).toBe(false);
  });

  it("a success resets the consecutive count", async () => {
    const { circuit, fail, succeed } = setup();
    await fail().catch(() => {});
    await fail().catch(() => {});
    await succeed();
    await fail().catch(() => {});
    await fail().catch(() => {});
    expect(circuit.getState()).toBe("closed");
  });

  it("does not count rejected (caller) errors", async () => {
    const { circuit, fail } = setup();
    for (let i = 0; i < 10; i++) await fail("rejected").catch(() => {});
    expect(circuit.getState()).toBe("closed");
  });

  it("does not count calls the caller cancelled", async () => {
    const { circuit } = setup();
    const controller = new AbortController();
    controller.abort();
    for (let i = 0; i < 5; i++)
      await circuit.run(() => Promise.reject(new ProviderError("provider_b", "timeout", "request cancelled")), controller.signal).catch(() => {});
    expect(circuit.getState()).toBe("closed");
  });

  it("half-opens after the cooldown and lets exactly one probe through", async () => {
    const { circuit, fail, advance } = setup();
    for (let i = 0; i < 3; i++) await fail().catch(() => {});
    advance(1_000);
    expect(circuit.getState()).toBe("half_open");
    let release!: () => void;
    const probe = circuit.run(() => new Promise<string>((resolve) => (release = () => resolve("ok"))));
    const second = await providerError(circuit.run(async () => "no"));
    expect(second.kind).toBe("circuit_open");
    release();
    await expect(probe).resolves.toBe("ok");
    expect(circuit.getState()).toBe("closed");
  });

  it("a failed probe re-opens for another cooldown", async () => {
    const { circuit, fail, advance } = setup();
    for (let i = 0; i < 3; i++) await fail().catch(() => {});
    advance(1_000);
    await fail().catch(() => {});
    expect(circuit.getState()).toBe("open");
    advance(999);
    expect(circuit.getState()).toBe("open");
    advance(1);
    expect(circuit.getState()).toBe("half_open");
  });

  it("a cancelled probe leaves it half-open for the next caller", async () => {
    const { circuit, fail, advance, succeed } = setup();
    for (let i = 0; i < 3; i++) await fail().catch(() => {});
    advance(1_000);
    const controller = new AbortController();
    controller.abort();
    await circuit.run(() => Promise.reject(new ProviderError("provider_b", "timeout", "request cancelled")), controller.signal).catch(() => {});
    expect(circuit.getState()).toBe("half_open");
    await succeed();
    expect(circuit.getState()).toBe("closed");
  });
});
