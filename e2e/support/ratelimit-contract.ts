import { randomUUID } from "node:crypto";
import net from "node:net";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { type FailMode, GuardedRateLimitStore, RateLimiterUnavailableError } from "@/lib/ratelimit/guard";
import type { RateLimitBucket, RateLimitDecision, RateLimitRule, RateLimitStore } from "@/lib/ratelimit/types";
import { freePort } from "./net";
import { startRedis } from "./redis";
import { startUpstashShim } from "./upstash-shim";

/*
 * The behaviour every backend must show, run by memory.test.ts, redis.test.ts and upstash.test.ts against a real
 * store with the real clock (and, for the shared stores, what happens when they are down). Short windows (2 s) keep
 * the waits short; Retry-After is whole seconds, so shorter windows would not test it. Every test uses fresh
 * identifiers, so the tests can run concurrently.
 */

export interface ContractTarget {
  /** A store; with `shared`, every store it returns sees the same state (two app instances, one Redis). */
  create(): RateLimitStore;
  shared: boolean;
  /**
   * Waits until just after a fixed-window boundary. Upstash's sliding window is a two-window counter, so a burst
   * that straddles a boundary is counted by weight; the contract's exact counts assume it does not.
   */
  align?(windowMs: number): Promise<void>;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Sleeps until `marginMs` after the next multiple of `windowMs` of the epoch clock (Upstash's window grid). */
export async function alignToWindow(windowMs: number, marginMs = 30): Promise<void> {
  const now = Date.now();
  await sleep(Math.floor(now / windowMs + 1) * windowMs + marginMs - now);
}

const id = () => `test-${randomUUID()}`;
const SHORT: RateLimitRule = { limit: 3, windowMs: 2_000 };

async function exhaust(store: RateLimitStore, bucket: RateLimitBucket, who: string, rule: RateLimitRule) {
  const admitted: RateLimitDecision[] = [];
  for (let i = 0; i < rule.limit; i++) admitted.push(await store.check(bucket, who, rule));
  const refused = await store.check(bucket, who, rule);
  return { admitted, refused, at: Date.now() };
}

export function describeStoreContract(name: string, target: ContractTarget) {
  const align = (windowMs: number) => target.align?.(windowMs) ?? Promise.resolve();

  describe.concurrent(`${name}: rate-limit store contract`, () => {
    test("admits `limit` requests with counting headers, then refuses; waiting Retry-After seconds succeeds", async ({ expect }) => {
      const store = target.create();
      const who = id();
      await align(SHORT.windowMs);
      const before = Date.now();
      const { admitted, refused } = await exhaust(store, "translate", who, SHORT);

      expect(admitted.map((d) => [d.allowed, d.limit, d.remaining, d.retryAfterSeconds])).toEqual([
        [true, 3, 2, 0],
        [true, 3, 1, 0],
        [true, 3, 0, 0],
      ]);
      for (const d of admitted) {
        expect(d.resetAt).toBeGreaterThan(before);
        expect(d.resetAt).toBeLessThanOrEqual(Date.now() + 2 * SHORT.windowMs);
      }
      expect(refused).toMatchObject({ allowed: false, limit: 3, remaining: 0 });
      expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
      // The budget frees about 2 s after the burst: Retry-After is that, rounded up, never a timestamp.
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(2);

      await sleep(refused.retryAfterSeconds * 1000);
      expect((await store.check("translate", who, SHORT)).allowed).toBe(true);
    });

    test("refused requests are not recorded, and the real wait is Retry-After within a second", async ({ expect }) => {
      const store = target.create();
      const who = id();
      await align(SHORT.windowMs);
      const { refused, at } = await exhaust(store, "translate", who, SHORT);
      const promised = refused.retryAfterSeconds * 1000;

      // Retry every 100 ms. Were refusals recorded in the window, a client that keeps retrying would never get back in.
      let waited = 0;
      for (;;) {
        await sleep(100);
        waited = Date.now() - at;
        if ((await store.check("translate", who, SHORT)).allowed) break;
        expect(waited, "still refused after Retry-After").toBeLessThanOrEqual(promised + 100);
      }
      expect(waited, "Retry-After far longer than the real wait").toBeGreaterThan(promised - 1000 - 150);
    });

    test("two identifiers never share a budget", async ({ expect }) => {
      const store = target.create();
      const [a, b] = [id(), id()];
      await align(SHORT.windowMs);
      expect((await exhaust(store, "translate", a, SHORT)).refused.allowed).toBe(false);
      const { admitted, refused } = await exhaust(store, "translate", b, SHORT);
      expect(admitted.map((d) => [d.allowed, d.remaining])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
      ]);
      expect(refused.allowed).toBe(false);
    });

    test("two buckets never share a budget", async ({ expect }) => {
      const store = target.create();
      const who = id();
      await align(SHORT.windowMs);
      expect((await exhaust(store, "translate", who, SHORT)).refused.allowed).toBe(false);
      for (const bucket of ["batch", "stt", "tts", "default", "issuance", "auth_failures", "upstream"] as const) {
        expect(await store.check(bucket, who, SHORT), bucket).toMatchObject({ allowed: true, remaining: 2 });
      }
    });

    test("50 parallel checks against a limit of 20 admit exactly 20", async ({ expect }) => {
      const store = target.create();
      const who = id();
      const rule = { limit: 20, windowMs: 2_000 };
      await align(rule.windowMs);
      const decisions = await Promise.all(Array.from({ length: 50 }, () => store.check("batch", who, rule)));
      const admitted = decisions.filter((d) => d.allowed);
      expect(admitted).toHaveLength(20);
      // Each admitted request saw its own count: remaining 19, 18, ..., 0 exactly once.
      expect(admitted.map((d) => d.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      for (const d of decisions.filter((d) => !d.allowed)) expect(d.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    });

    // Only a shared store has a backend two instances can share; the in-process store is not registered for it.
    if (target.shared)
      test("two store instances on one backend enforce one combined budget", async ({ expect }) => {
        const [one, two] = [target.create(), target.create()];
        const who = id();
        const rule = { limit: 20, windowMs: 2_000 };
        await align(rule.windowMs);
        const decisions = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? one : two).check("default", who, rule)));
        expect(decisions.filter((d) => d.allowed)).toHaveLength(20);

        const other = id();
        const alternating: boolean[] = [];
        for (let i = 0; i < 6; i++) alternating.push((await (i % 2 ? one : two).check("tts", other, SHORT)).allowed);
        expect(alternating).toEqual([true, true, true, false, false, false]);
      });
  });
}

/** A working store whose backend can be taken down and brought back where the store expects it. */
export interface Restartable<S> {
  store: S;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/** A store on its own redis-server, which `down()` stops and `up()` starts again on the same port. */
export async function restartableRedis<S>(storeAt: (url: string) => S): Promise<Restartable<S>> {
  let redis = await startRedis();
  return {
    store: storeAt(redis.url),
    down: () => redis.stop(),
    up: async () => void (redis = await startRedis({ port: redis.port })),
    close: () => redis.stop(),
  };
}

/** A store on its own Upstash shim: Upstash itself stays up, the Redis behind it goes away and comes back. */
export async function restartableUpstash<S>(storeAt: (url: string, token: string) => S): Promise<Restartable<S>> {
  let redis = await startRedis();
  const shim = await startUpstashShim(redis.url);
  return {
    store: storeAt(shim.url, shim.token),
    down: () => redis.stop(),
    up: async () => void (redis = await startRedis({ port: redis.port })),
    close: async () => {
      await shim.stop();
      await redis.stop();
    },
  };
}

export interface OutageTarget {
  /** A store pointed at 127.0.0.1:port, where nothing listens or a server accepts and never answers. */
  createAt(port: number): RateLimitStore;
  restartable(): Promise<Restartable<RateLimitStore>>;
}

/** Loopback ports where a store is down: one that refuses connections, one that accepts and never answers. */
export const DOWN_LISTENERS: [string, () => Promise<{ port: number; close(): Promise<void> }>][] = [
  ["refuses connections", async () => ({ port: await freePort(), close: async () => {} })],
  ["accepts and never answers", silentServer],
];

/** A TCP server that accepts connections and never writes a byte: a store that hangs rather than refuses. */
async function silentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => void sockets.add(s));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** What the guard makes of a store that is down or slow, and that a store comes back after an outage. */
export function describeOutageContract(name: string, target: OutageTarget, timeoutMs: number) {
  const rule = { limit: 2, windowMs: 60_000 };
  const guard = (store: RateLimitStore, failMode: FailMode) => new GuardedRateLimitStore(store, { timeoutMs, failMode });

  describe(`${name}: store down or slow`, () => {
    beforeEach(() => void vi.spyOn(console, "warn").mockImplementation(() => {}));
    afterEach(() => vi.restoreAllMocks());

    test.each(DOWN_LISTENERS)("%s: fail-open admits within the timeout, fail-closed refuses, health reports it", async (_, listen) => {
      const down = await listen();
      try {
        const open = guard(target.createAt(down.port), "open");
        let started = Date.now();
        // Limits still apply, per instance, from the in-process fallback.
        expect(await open.check("translate", "k", rule)).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
        expect(Date.now() - started).toBeLessThan(1_000);

        const closed = guard(target.createAt(down.port), "closed");
        started = Date.now();
        await expect(closed.check("translate", "k", rule)).rejects.toBeInstanceOf(RateLimiterUnavailableError);
        expect(Date.now() - started).toBeLessThan(1_000);

        const health = await open.health();
        expect(health.ok).toBe(false);
        expect(health.detail).toMatch(new RegExp(`^${name} `));
      } finally {
        await down.close();
      }
    });

    test("an outage is survived: the store is used again once its backend is back (no permanent disable)", async () => {
      const backend = await target.restartable();
      try {
        const limiter = guard(backend.store, "closed");
        expect((await limiter.check("translate", "restart", rule)).allowed).toBe(true);

        await backend.down();
        await expect(limiter.check("translate", "restart", rule)).rejects.toBeInstanceOf(RateLimiterUnavailableError);
        expect((await limiter.health()).ok).toBe(false);

        await backend.up();
        // A fail-closed limiter answers only from the store: its first decision after the outage is the store's. Each
        // try asks for a key no earlier try used: a try that timed out while the store came back may still have been
        // counted there, and a key's budget must not depend on how slowly the machine restarts the store.
        let decision: RateLimitDecision | undefined;
        for (let i = 0; i < 50 && !decision; i++) {
          decision = await limiter.check("translate", `restart-${i}`, rule).catch(() => undefined);
          if (!decision) await sleep(100);
        }
        expect(decision).toMatchObject({ allowed: true, remaining: 1 });
        expect((await limiter.health()).ok).toBe(true);
      } finally {
        await backend.close();
      }
    });
  });
}
