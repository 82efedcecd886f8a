import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { GuardedCacheStore } from "@/lib/cache/guard";
import type { CacheStore } from "@/lib/cache/types";
import { DOWN_LISTENERS, type Restartable, sleep } from "./ratelimit-contract";

/*
 * The behaviour every cache backend must show, run by memory.test.ts, redis.test.ts and upstash.test.ts against a
 * real store; for the shared stores also what the guard makes of a store that is down or slow.
 */

export interface CacheContractTarget {
  /** A store; with `shared`, every store it returns sees the same entries (two app instances, one Redis). */
  create(): CacheStore;
  shared: boolean;
  /** Lets `ms` pass for the store's TTL clock (real sleep for a server, an injected clock for memory). */
  advance(ms: number): Promise<void>;
}

const key = () => `lugha:tc:test:${randomUUID()}`;
const RESULT = {
  translated_text: "Ɔkɔɔ fie. ሰላም 👩🏽‍💻 مرحبا",
  provider: "provider_b",
  model_used: "khaya-v2",
  quality_score: 0.9,
  detected_source_language: null,
  nested: { list: [1, "two", { three: true }] },
};

export function describeCacheContract(name: string, target: CacheContractTarget) {
  describe.concurrent(`${name}: cache store contract`, () => {
    test("a key never set is a miss; a set value reads back equal, whatever its script", async ({ expect }) => {
      const store = target.create();
      const k = key();
      expect(await store.get(k)).toBeUndefined();
      await store.set(k, RESULT, 60_000);
      expect(await store.get(k)).toEqual(RESULT);
    });

    test("every read is a fresh copy: changing a hit does not change the cache", async ({ expect }) => {
      const store = target.create();
      const k = key();
      await store.set(k, { translated_text: "a" }, 60_000);
      const hit = (await store.get(k)) as { translated_text: string };
      hit.translated_text = "changed";
      expect(await store.get(k)).toEqual({ translated_text: "a" });
    });

    test("a second set replaces the value; other keys are untouched", async ({ expect }) => {
      const store = target.create();
      const [a, b] = [key(), key()];
      await store.set(a, { v: 1 }, 60_000);
      await store.set(b, { v: 2 }, 60_000);
      await store.set(a, { v: 3 }, 60_000);
      expect(await store.get(a)).toEqual({ v: 3 });
      expect(await store.get(b)).toEqual({ v: 2 });
    });

    test("an entry expires after its TTL, not before", async ({ expect }) => {
      const store = target.create();
      const k = key();
      await store.set(k, RESULT, 1_000);
      await target.advance(500);
      expect(await store.get(k)).toEqual(RESULT);
      await target.advance(700);
      expect(await store.get(k)).toBeUndefined();
    });

    if (target.shared)
      test("two store instances on one backend share entries", async ({ expect }) => {
        const [one, two] = [target.create(), target.create()];
        const k = key();
        await one.set(k, RESULT, 60_000);
        expect(await two.get(k)).toEqual(RESULT);
      });
  });
}

export interface CacheOutageTarget {
  /** A store pointed at 127.0.0.1:port, where nothing listens or a server accepts and never answers. */
  createAt(port: number): CacheStore;
  restartable(): Promise<Restartable<CacheStore>>;
}

/** A store that is down or slow is "no cache": misses and dropped writes within the timeout, never an error. */
export function describeCacheOutageContract(name: string, target: CacheOutageTarget, timeoutMs: number) {
  describe(`${name}: cache store down or slow`, () => {
    beforeEach(() => void vi.spyOn(console, "warn").mockImplementation(() => {}));
    afterEach(() => vi.restoreAllMocks());

    test.each(DOWN_LISTENERS)("%s: get is a miss and set is dropped within the timeout, without an error; status shows it", async (_, listen) => {
      const down = await listen();
      try {
        const cache = new GuardedCacheStore(target.createAt(down.port), { timeoutMs });
        const started = Date.now();
        await expect(cache.set("k", RESULT, 60_000)).resolves.toBeUndefined();
        await expect(cache.get("k")).resolves.toBeUndefined();
        expect(Date.now() - started).toBeLessThan(2 * timeoutMs + 500);
        const status = await cache.status();
        expect(status).toMatchObject({ enabled: true, backend: name, ok: false, degraded: true });
        expect(status.last_error).toMatch(/unreachable|timed out|no answer|Error/);
        // Public-safe: no host or port in what /health shows.
        expect(JSON.stringify(status)).not.toContain(String(down.port));
      } finally {
        await down.close();
      }
    });

    test("an outage is survived: entries are stored and read again once the backend is back", async () => {
      const backend = await target.restartable();
      try {
        const cache = new GuardedCacheStore(backend.store, { timeoutMs });
        await cache.set("before", RESULT, 60_000);
        expect(await cache.get("before")).toEqual(RESULT);

        await backend.down();
        expect(await cache.get("before")).toBeUndefined();
        expect((await cache.status()).degraded).toBe(true);

        await backend.up();
        let stored = false;
        for (let i = 0; i < 50 && !stored; i++) {
          await cache.set("after", RESULT, 60_000);
          stored = (await cache.get("after")) !== undefined;
          if (!stored) await sleep(100);
        }
        expect(stored).toBe(true);
        expect(await cache.status()).toMatchObject({ ok: true, degraded: false });
      } finally {
        await backend.close();
      }
    });
  });
}
