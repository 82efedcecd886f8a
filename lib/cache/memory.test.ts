import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, test } from "vitest";
import { describeCacheContract } from "@/e2e/support/cache-contract";
import { ENTRY_OVERHEAD_BYTES, heapBytes, MemoryCacheStore } from "./memory";

let clock = 1_000_000;
describeCacheContract("memory", {
  create: () => new MemoryCacheStore({ maxBytes: 1 << 20, now: () => clock }),
  shared: false,
  advance: async (ms) => void (clock += ms),
});

describe("memory cache store specifics", () => {
  test("heapBytes: one byte per unit for Latin-1 text, two as soon as one character is outside it", () => {
    expect(heapBytes("hello")).toBe(5);
    expect(heapBytes("café")).toBe(4);
    expect(heapBytes("Ɔkɔɔ")).toBe(8);
    expect(heapBytes("👍")).toBe(4); // a surrogate pair: two UTF-16 units
  });

  test("the byte bound holds: the least recently used entries leave first", async () => {
    const value = { translated_text: "x".repeat(1_000) };
    const perEntry = heapBytes(JSON.stringify(value)) + heapBytes("k00") + ENTRY_OVERHEAD_BYTES;
    const store = new MemoryCacheStore({ maxBytes: perEntry * 10 });
    for (let i = 0; i < 10; i++) await store.set(`k0${i}`, value, 60_000);
    expect(store.entries).toBe(10);
    expect(await store.get("k00")).toBeDefined(); // k00 is now the most recently used
    await store.set("k10", value, 60_000);
    expect(store.entries).toBe(10);
    expect(store.bytes).toBeLessThanOrEqual(perEntry * 10);
    expect(await store.get("k01")).toBeUndefined(); // the least recently used went
    expect(await store.get("k00")).toBeDefined();
    expect(await store.get("k10")).toBeDefined();
  });

  test("an entry larger than the whole bound is not stored and evicts nothing", async () => {
    const store = new MemoryCacheStore({ maxBytes: 2_000 });
    await store.set("small", { t: "a" }, 60_000);
    await store.set("huge", { t: "x".repeat(5_000) }, 60_000);
    expect(await store.get("huge")).toBeUndefined();
    expect(await store.get("small")).toEqual({ t: "a" });
  });

  test("the bytes charged cover the heap a filled cache really uses (Latin-1, Twi and short texts)", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const texts = [(i: number) => `Hello there ${i} `.repeat(8), (i: number) => `Ɛyɛ papa ${i} `.repeat(8), (i: number) => `Hi ${i}`];
    for (const text of texts) {
      const store = new MemoryCacheStore({ maxBytes: 1 << 30 });
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 30_000; i++) {
        const key = `lugha:tc:v1:key:cm${i.toString(36).padStart(22, "0")}:${"f".repeat(64)}`;
        await store.set(key, { translated_text: text(i), provider: "provider_b", model_used: "khaya", quality_score: 0.9 }, 60_000);
      }
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      expect(grown, text(1)).toBeLessThanOrEqual(store.bytes);
      expect(grown, text(1)).toBeGreaterThan(store.bytes * 0.7); // the charge is an estimate, not a wild overstatement
    }
  });
});
