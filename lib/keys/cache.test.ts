import { describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { KeyCache, VERIFIED_MEMORY_MS, type VerifiedKey } from "./cache";

const keyCacheTtlFromEnv = (env: Record<string, string>) => loadConfig(env).KEY_CACHE_TTL_MS;

const key = (id: string, expiresAt = 1_000_000): VerifiedKey => ({
  id,
  name: id,
  displayPrefix: "svc_0000",
  createdAt: new Date(0),
  expiresAt: new Date(expiresAt),
});

describe("KeyCache", () => {
  it("serves an entry for at most its TTL, counted from when the lookup started", () => {
    let now = 1_000;
    const cache = new KeyCache(5_000, 100, () => now);
    cache.set("h", key("a"), 900);
    expect(cache.get("h")?.id).toBe("a");
    now = 5_899;
    expect(cache.get("h")?.id).toBe("a");
    now = 5_900;
    expect(cache.get("h")).toBeUndefined();
  });

  it("refuses a cached key once its expires_at has passed", () => {
    let now = 1_000;
    const cache = new KeyCache(60_000, 100, () => now);
    cache.set("h", key("a", 2_000), now);
    expect(cache.get("h")).toBeDefined();
    now = 2_000;
    expect(cache.get("h")).toBeUndefined();
  });

  it("drops a revoked key at once, and a lookup that was in flight cannot put it back", () => {
    const cache = new KeyCache(60_000, 100, () => 1_000);
    cache.set("h", key("a"), 1_000);
    cache.revoke("a");
    expect(cache.get("h")).toBeUndefined();
    expect(cache.isRevoked("a")).toBe(true);
    cache.set("h", key("a"), 999); // the racing lookup
    expect(cache.get("h")).toBeUndefined();
  });

  it("is bounded: the oldest entry goes first", () => {
    const cache = new KeyCache(60_000, 3, () => 1_000);
    for (const id of ["a", "b", "c", "d"]) cache.set(id, key(id), 1_000);
    expect(cache.size).toBe(3);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("d")?.id).toBe("d");
  });

  it("TTL 0 disables caching", () => {
    const cache = new KeyCache(0, 100, () => 1_000);
    cache.set("h", key("a"), 1_000);
    expect(cache.get("h")).toBeUndefined();
  });

  it("remembers a hash that matched no key for the negative TTL, bounded apart from verified keys", () => {
    let now = 1_000;
    const cache = new KeyCache(60_000, 3, () => now, 30_000);
    cache.set("good", key("a"), now);
    for (const h of ["x1", "x2", "x3", "x4"]) cache.setUnknown(h, now);
    expect(cache.unknownSize).toBe(3);
    expect(cache.isUnknown("x1")).toBe(false); // oldest out first
    expect(cache.isUnknown("x4")).toBe(true);
    expect(cache.get("good")?.id).toBe("a"); // a flood of unknown hashes never evicts a verified key
    now += 29_999;
    expect(cache.isUnknown("x4")).toBe(true);
    now += 1;
    expect(cache.isUnknown("x4")).toBe(false);
  });

  it("a key issued after a miss for its hash is not shadowed, even by a lookup that started before the issue", () => {
    let now = 1_000;
    const cache = new KeyCache(5_000, 100, () => now, 30_000);
    cache.setUnknown("h", now); // someone sent the key before it existed
    now += 10;
    cache.forgetUnknown("h"); // issued
    expect(cache.isUnknown("h")).toBe(false);
    cache.setUnknown("h", now - 5); // a lookup that started before the insert and missed it
    cache.setUnknown("h", now); // …or started in the same millisecond
    expect(cache.isUnknown("h")).toBe(false);
    cache.set("h", key("a"), now + 1); // the next lookup finds it
    expect(cache.get("h")?.id).toBe("a");
  });

  it("a found key clears its negative entry; a revoked key's misses are remembered", () => {
    const now = 1_000;
    const cache = new KeyCache(5_000, 100, () => now, 30_000);
    cache.setUnknown("h", now - 1);
    cache.set("h", key("a"), now);
    expect(cache.isUnknown("h")).toBe(false);
    cache.revoke("a");
    cache.setUnknown("h", now); // the next lookup finds it revoked
    expect(cache.isUnknown("h")).toBe(true);
  });

  it("remembers verified hashes beyond the cache TTL (for the failed-auth throttle), also with the cache disabled", () => {
    let now = 1_000;
    const cache = new KeyCache(0, 100, () => now);
    cache.set("h", key("a"), now);
    expect(cache.get("h")).toBeUndefined();
    now += VERIFIED_MEMORY_MS - 1;
    expect(cache.wasVerified("h")).toBe(true);
    expect(cache.wasVerified("other")).toBe(false);
    now += 1;
    expect(cache.wasVerified("h")).toBe(false);
  });

  it("reads KEY_CACHE_TTL_MS, defaulting to 5 s", () => {
    expect(keyCacheTtlFromEnv({})).toBe(5_000);
    expect(keyCacheTtlFromEnv({ KEY_CACHE_TTL_MS: "0" })).toBe(0);
    expect(keyCacheTtlFromEnv({ KEY_CACHE_TTL_MS: "250" })).toBe(250);
    expect(() => keyCacheTtlFromEnv({ KEY_CACHE_TTL_MS: "-1" })).toThrow(/KEY_CACHE_TTL_MS must be at least 0/);
  });
});
