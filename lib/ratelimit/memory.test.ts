import { describe, expect, test } from "vitest";
import { describeStoreContract } from "@/e2e/support/ratelimit-contract";
import { MemoryRateLimitStore } from "./memory";

describeStoreContract("memory", { create: () => new MemoryRateLimitStore(), shared: false });

/** A store on a hand-driven clock, for the window arithmetic to the millisecond. */
function clocked() {
  let now = 0;
  const store = new MemoryRateLimitStore(() => now);
  return { store, at: (t: number) => void (now = t) };
}

describe("memory store on an injected clock", () => {
  test("a hit counts while now < hit + window; Retry-After is the wait to the next free slot, rounded up", async () => {
    const { store, at } = clocked();
    const rule = { limit: 2, windowMs: 1_000 };
    at(0);
    expect(await store.check("translate", "k", rule)).toEqual({ allowed: true, limit: 2, remaining: 1, resetAt: 1_000, retryAfterSeconds: 0 });
    at(100);
    expect(await store.check("translate", "k", rule)).toEqual({ allowed: true, limit: 2, remaining: 0, resetAt: 1_100, retryAfterSeconds: 0 });
    at(999);
    expect(await store.check("translate", "k", rule)).toEqual({ allowed: false, limit: 2, remaining: 0, resetAt: 1_100, retryAfterSeconds: 1 });
    at(1_000); // the hit at 0 has left the window
    expect(await store.check("translate", "k", rule)).toMatchObject({ allowed: true, remaining: 0, resetAt: 2_000 });
    at(1_050);
    expect(await store.check("translate", "k", rule)).toMatchObject({ allowed: false, resetAt: 2_000, retryAfterSeconds: 1 });
    at(1_100);
    expect((await store.check("translate", "k", rule)).allowed).toBe(true);
  });

  test("Retry-After for a minute window: whole seconds, never shorter than the wait, at most 1 s longer", async () => {
    const { store, at } = clocked();
    const rule = { limit: 1, windowMs: 60_000 };
    at(0);
    await store.check("translate", "k", rule);
    for (const [t, seconds] of [
      [1, 60],
      [500, 60],
      [1_000, 59],
      [58_999, 2],
      [59_000, 1],
      [59_999, 1],
    ]) {
      at(t);
      expect((await store.check("translate", "k", rule)).retryAfterSeconds, `at ${t} ms`).toBe(seconds);
    }
    at(60_000);
    expect((await store.check("translate", "k", rule)).allowed).toBe(true);
  });

  test("refusals are not recorded: hammering through the window does not extend the lockout", async () => {
    const { store, at } = clocked();
    const rule = { limit: 3, windowMs: 10_000 };
    for (const t of [0, 1, 2]) {
      at(t);
      await store.check("stt", "k", rule);
    }
    for (let t = 3; t < 10_000; t += 7) {
      at(t);
      expect((await store.check("stt", "k", rule)).allowed).toBe(false);
    }
    at(10_000); // only the hit at 0 has left the window
    expect(await store.check("stt", "k", rule)).toMatchObject({ allowed: true, remaining: 0 });
    at(10_002);
    expect(await store.check("stt", "k", rule)).toMatchObject({ allowed: true, remaining: 1 });
  });

  test("idle logs are swept, but not logs still inside a long window", async () => {
    const { store, at } = clocked();
    at(0);
    await store.check("translate", "a", { limit: 5, windowMs: 60_000 });
    await store.check("issuance", "203.0.113.9", { limit: 1, windowMs: 2 * 3_600_000 });
    at(61 * 60_000);
    await store.check("default", "trigger", { limit: 5, windowMs: 60_000 });
    expect(store.size).toBe(2); // "translate:a" dropped; the issuance log and the trigger remain
    expect((await store.check("issuance", "203.0.113.9", { limit: 1, windowMs: 2 * 3_600_000 })).allowed).toBe(false);
  });
});
