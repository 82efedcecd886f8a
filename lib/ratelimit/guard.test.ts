import { afterEach, describe, expect, test, vi } from "vitest";
import { processLog } from "@/lib/kit/log";
import { describeFailure } from "@/lib/store";
import { GuardedRateLimitStore, RateLimiterUnavailableError } from "./guard";
import type { RateLimitStore } from "./types";

const rule = { limit: 2, windowMs: 60_000 };

/** A store whose behaviour the test switches: answer, fail, or hang. */
function scripted() {
  let mode: "ok" | "fail" | "hang" = "ok";
  const store: RateLimitStore = {
    name: "redis",
    check: async () => {
      if (mode === "fail") throw Object.assign(new Error("connect ECONNREFUSED 10.1.2.3:6379"), { code: "ECONNREFUSED" });
      if (mode === "hang") return new Promise(() => {});
      return { allowed: true, limit: 99, remaining: 98, resetAt: 1, retryAfterSeconds: 0 };
    },
    health: async () => {
      if (mode === "hang") return new Promise(() => {});
      return mode === "ok" ? { ok: true, detail: "redis ping 1 ms" } : { ok: false, detail: "redis unreachable (ECONNREFUSED)" };
    },
  };
  return { store, set: (m: typeof mode) => void (mode = m) };
}

afterEach(() => vi.restoreAllMocks());

describe("GuardedRateLimitStore", () => {
  test("fail-open: a hanging store answers within the timeout, with real per-instance limits", async () => {
    vi.spyOn(processLog(), "warn").mockImplementation(() => {});
    const { store, set } = scripted();
    set("hang");
    const guarded = new GuardedRateLimitStore(store, { timeoutMs: 50, failMode: "open" });
    const started = Date.now();
    const first = await guarded.check("translate", "k", rule);
    expect(Date.now() - started).toBeLessThan(500);
    expect(first).toMatchObject({ allowed: true, limit: 2, remaining: 1, retryAfterSeconds: 0 });
    await guarded.check("translate", "k", rule);
    expect(await guarded.check("translate", "k", rule)).toMatchObject({ allowed: false, remaining: 0 });
  });

  test("fail-closed: a failing store raises RateLimiterUnavailableError naming the backend", async () => {
    vi.spyOn(processLog(), "warn").mockImplementation(() => {});
    const { store, set } = scripted();
    set("fail");
    const guarded = new GuardedRateLimitStore(store, { timeoutMs: 50, failMode: "closed" });
    const err = await guarded.check("translate", "k", rule).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimiterUnavailableError);
    expect(err).toMatchObject({ backend: "redis", code: "RATE_LIMITER_UNAVAILABLE" });
    expect((err as Error).cause).toBeInstanceOf(Error);
  });

  test("the store is used again as soon as it answers, and each transition is logged once", async () => {
    const warn = vi.spyOn(processLog(), "warn").mockImplementation(() => {});
    const { store, set } = scripted();
    const guarded = new GuardedRateLimitStore(store, { timeoutMs: 50, failMode: "open" });
    set("fail");
    for (let i = 0; i < 5; i++) await guarded.check("translate", `k${i}`, rule);
    expect(warn).toHaveBeenCalledTimes(1);
    set("ok");
    expect((await guarded.check("translate", "k", rule)).limit).toBe(99); // from the store, not the fallback
    expect(warn).toHaveBeenCalledTimes(2);
  });

  test("health: passes the store's report through, and reports a hang as a timeout", async () => {
    const { store, set } = scripted();
    const guarded = new GuardedRateLimitStore(store, { timeoutMs: 50, failMode: "open" });
    expect(await guarded.health()).toEqual({ ok: true, detail: "redis ping 1 ms" });
    set("hang");
    expect(await guarded.health()).toEqual({ ok: false, detail: "redis no answer within 50 ms" });
  });
});

describe("describeFailure", () => {
  test("names the error code (also nested in cause), never the message with hosts", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.1.2.3:6379"), { code: "ECONNREFUSED" });
    expect(describeFailure(refused)).toBe("unreachable (ECONNREFUSED)");
    expect(describeFailure(new TypeError("fetch failed", { cause: refused }))).toBe("unreachable (ECONNREFUSED)");
    expect(describeFailure(new Error("Command timed out"))).toBe("timed out");
    expect(describeFailure(new Error("secret host redis.internal:6379"))).toBe("Error");
  });
});
