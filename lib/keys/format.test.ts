import { describe, expect, it } from "vitest";
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedKey } from "./format";

describe("API key format", () => {
  it("is svc_ followed by exactly 40 lowercase hex characters", () => {
    for (let i = 0; i < 100; i++) expect(generateApiKey()).toMatch(/^svc_[0-9a-f]{40}$/);
  });

  it("does not collide over 10,000 keys", () => {
    const keys = new Set(Array.from({ length: 10_000 }, generateApiKey));
    expect(keys.size).toBe(10_000);
  });

  it("recognises only well-formed, case-exact keys", () => {
    const key = generateApiKey();
    expect(isWellFormedKey(key)).toBe(true);
    expect(isWellFormedKey(key.toUpperCase())).toBe(false);
    expect(isWellFormedKey(`SVC_${key.slice(4)}`)).toBe(false);
    expect(isWellFormedKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedKey(`${key}0`)).toBe(false);
    expect(isWellFormedKey(`svc_${"g".repeat(40)}`)).toBe(false);
    expect(isWellFormedKey(` ${key}`)).toBe(false);
  });

  it("shows only a short display prefix", () => {
    const key = generateApiKey();
    expect(displayPrefix(key)).toBe(key.slice(0, 12));
  });

  it("hashes with the server secret when one is set", () => {
    const key = generateApiKey();
    expect(hashApiKey(key, "a")).not.toBe(hashApiKey(key, "b"));
    expect(hashApiKey(key, "a")).toBe(hashApiKey(key, "a"));
    expect(hashApiKey(key, "a")).not.toContain(key.slice(4));
    expect(hashApiKey(key, undefined)).toMatch(/^[0-9a-f]{64}$/);
  });
});
