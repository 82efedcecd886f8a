import { describe, expect, it } from "vitest";
import { KeyCache, keyCacheTtlFromEnv, type VerifiedKey } from "./cache";

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

  it("reads KEY_CACHE_TTL_MS, defaulting to 5 s", () => {
    expect(keyCacheTtlFromEnv({})).toBe(5_000);
    expect(keyCacheTtlFromEnv({ KEY_CACHE_TTL_MS: "0" })).toBe(0);
    expect(keyCacheTtlFromEnv({ KEY_CACHE_TTL_MS: "250" })).toBe(250);
    expect(() => keyCacheTtlFromEnv({ KEY_CACHE_TTL_MS: "-1" })).toThrow(/KEY_CACHE_TTL_MS must be at least 0/);
  });
});
