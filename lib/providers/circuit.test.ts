import { describe, expect, it } from "vitest";
import { CircuitBreaker, upperQuantile } from "./circuit";
import { DEFAULT_HTTP_POLICY, errorForStatus, parseRetryAfter, readText, send } from "./http";
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

/**
 * Hang detection, driven by an injected clock and scheduler: no real time passes, and every upstream call is counted.
 * The fake upstream goes through send() like every client, so answers and the cut are reported the real way.
 */
function hangSetup() {
  let now = 0;
  const timers: { at: number; fn: () => void; live: boolean }[] = [];
  const circuit = new CircuitBreaker("provider_a", {
    failureThreshold: 5,
    cooldownMs: 30_000,
    now: () => now,
    schedule: (fn, ms) => {
      const timer = { at: now + ms, fn, live: true };
      timers.push(timer);
      return () => {
        timer.live = false;
      };
    },
  });
  let upstreamCalls = 0;
  let hanging = false;
  let failNext: Response | undefined;
  const pending: (() => void)[] = [];
  /** The upstream: answers at once (after `latencyMs` of injected time is simulated by the caller) or never. */
  const fetch = (_url: string, init: RequestInit) => {
    upstreamCalls++;
    const failure = failNext;
    failNext = undefined;
    if (failure) return Promise.resolve(failure);
    if (!hanging) return Promise.resolve(new Response("ok"));
    return new Promise<Response>((resolve, reject) => {
      init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      pending.push(() => resolve(new Response("late")));
    });
  };
  const request = (lane: "text" | "speech" = "text") =>
    circuit.run(
      () =>
        send({
          provider: "provider_a",
          fetch,
          policy: { ...DEFAULT_HTTP_POLICY, attemptTimeoutMs: 60_000 },
          url: "http://upstream.test/x",
          init: { method: "POST" },
          deadline: Date.now() + 60_000,
          handle: async (res, signal) => {
            const text = await readText(res, "provider_a", DEFAULT_HTTP_POLICY.maxBodyBytes, signal);
            if (!res.ok) throw errorForStatus("provider_a", res.status, parseRetryAfter(res.headers.get("retry-after")));
            return text;
          },
        }),
      undefined,
      lane,
    );
  const advance = async (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = timers.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      now = due.at;
      due.live = false;
      due.fn();
      await new Promise((r) => setImmediate(r));
    }
    now = end;
    await new Promise((r) => setImmediate(r));
  };
  /** Five answers that each took `ms`, so the lane has a recent p90 to judge by. */
  const warm = async (ms: number, lane: "text" | "speech" = "text") => {
    for (let i = 0; i < 5; i++) {
      const p = request(lane);
      now += ms; // the fake fetch answers synchronously; the answer time is what the clock says
      await p;
    }
  };
  return {
    circuit,
    request,
    advance,
    warm,
    hang: (on: boolean) => (hanging = on),
    /** The next upstream answer is this one (a 503 with Retry-After, say), whatever else is set. */
    answerNextWith: (res: Response) => (failNext = res),
    releaseAll: () => {
      for (const release of pending.splice(0)) release();
    },
    upstreamCalls: () => upstreamCalls,
  };
}

describe("CircuitBreaker: hang detection", () => {
  it("ten callers waiting on a silent provider are cut at max(3 × p90, 2 s), the circuit opens, the next call never reaches it", async () => {
    const t = hangSetup();
    await t.warm(100);
    expect(t.circuit.hangLimitMs("text")).toBe(2_000);
    t.hang(true);
    const settled: unknown[] = [];
    const callers = Array.from({ length: 10 }, () => t.request().catch((e: unknown) => settled.push(e)));
    await t.advance(1_999);
    expect(settled).toHaveLength(0);
    await t.advance(1);
    await Promise.all(callers);
    expect(settled).toHaveLength(10);
    for (const err of settled) expect(err).toMatchObject({ kind: "timeout", message: "provider stopped answering" });
    expect(t.upstreamCalls()).toBe(5 + 10); // one attempt each: a cut call is not retried
    expect(t.circuit.getState()).toBe("open");
    const next = await providerError(t.request());
    expect(next.kind).toBe("circuit_open");
    expect(t.upstreamCalls()).toBe(15);
  });

  it("a call cut while it waits to retry sends the provider nothing more", async () => {
    const t = hangSetup();
    await t.warm(100);
    t.answerNextWith(new Response("busy", { status: 503, headers: { "retry-after": "0.2" } }));
    const retrying = t.request().catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20)); // answered 503: it now waits 200 ms (real time) before its retry
    expect(t.upstreamCalls()).toBe(6);
    t.hang(true);
    const silent = t.request().catch((e: unknown) => e);
    await t.advance(2_000);
    expect(await retrying).toMatchObject({ kind: "timeout", message: "provider stopped answering" });
    expect(await silent).toMatchObject({ kind: "timeout", message: "provider stopped answering" });
    await new Promise((r) => setTimeout(r, 300)); // past the retry's wait
    expect(t.upstreamCalls()).toBe(7); // the 503, the silent call; no retry
  });

  it("the limit follows recent answer times: 3 × p90 above the floor", async () => {
    const t = hangSetup();
    await t.warm(1_000);
    expect(t.circuit.hangLimitMs("text")).toBe(3_000);
    t.hang(true);
    const call = t.request().catch((e: unknown) => e);
    await t.advance(2_999);
    expect(t.circuit.getState()).toBe("closed");
    await t.advance(1);
    expect(await call).toMatchObject({ kind: "timeout" });
  });

  it("a provider that answers other calls is not hung, however long one call takes", async () => {
    const t = hangSetup();
    await t.warm(100);
    t.hang(true);
    const slow = t.request();
    t.hang(false);
    for (let i = 0; i < 10; i++) {
      await t.advance(1_000);
      await t.request(); // answered: a sign of life
    }
    expect(t.circuit.getState()).toBe("closed");
    t.releaseAll();
    await expect(slow).resolves.toBe("late");
  });

  it("before enough answers the cold limit applies (3.5 s for text, 30 s for speech)", async () => {
    const t = hangSetup();
    t.hang(true);
    const text = t.request().catch((e: unknown) => e);
    await t.advance(3_499);
    expect(t.circuit.getState()).toBe("closed");
    await t.advance(1);
    expect(await text).toMatchObject({ kind: "timeout" });

    const s = hangSetup();
    await s.warm(100); // text answers say nothing about speech
    s.hang(true);
    const speech = s.request("speech").catch((e: unknown) => e);
    await s.advance(29_999);
    expect(s.circuit.getState()).toBe("closed");
    await s.advance(1);
    expect(await speech).toMatchObject({ kind: "timeout" });
  });

  it("recovery is by the probe, which is never cut: a slow answer after the cooldown closes the circuit", async () => {
    const t = hangSetup();
    await t.warm(100);
    t.hang(true);
    const first = t.request().catch(() => {});
    await t.advance(2_000);
    await first;
    await t.advance(30_000);
    expect(t.circuit.getState()).toBe("half_open");
    const probe = t.request();
    await t.advance(10_000); // far past the limit: the probe keeps its full timeouts
    expect((await providerError(t.request())).kind).toBe("circuit_open");
    t.releaseAll();
    await expect(probe).resolves.toBe("late");
    expect(t.circuit.getState()).toBe("closed");
  });
});

describe("upperQuantile", () => {
  it("is the nearest-rank quantile a full sort gives, for any order and with repeats", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 1000;
    for (const n of [1, 2, 5, 9, 10, 11, 49, 50]) {
      for (let round = 0; round < 20; round++) {
        const values = Array.from({ length: n }, () => Math.round(random() / (round % 3 === 0 ? 100 : 1)));
        for (const q of [0.5, 0.9, 0.99, 1]) {
          const sorted = [...values].sort((a, b) => a - b);
          expect(upperQuantile(values, q)).toBe(sorted[Math.min(n - 1, Math.ceil(n * q) - 1)]);
        }
      }
    }
  });
});
