import { afterEach, describe, expect, test, vi } from "vitest";
import { defaultMaxBytes, parseBytes, translationCacheConfig } from "./config";
import { createTranslationCache } from "./index";

afterEach(() => vi.restoreAllMocks());

describe("translationCacheConfig", () => {
  test("defaults: on, per key, 7 days, in-process, 64 MiB (or an eighth of a smaller heap)", () => {
    expect(translationCacheConfig({})).toEqual({
      enabled: true,
      scope: "key",
      ttlMs: 7 * 24 * 3600 * 1000,
      maxBytes: defaultMaxBytes(),
      timeoutMs: 200,
      backend: "memory",
    });
    expect(defaultMaxBytes(4 * 1024 ** 3)).toBe(64 * 1024 ** 2);
    expect(defaultMaxBytes(256 * 1024 ** 2)).toBe(32 * 1024 ** 2);
  });

  test("reads every variable; the backend follows the rate limiter's choice", () => {
    const config = translationCacheConfig({
      TRANSLATION_CACHE: "OFF",
      TRANSLATION_CACHE_SCOPE: "global",
      TRANSLATION_CACHE_TTL_SECONDS: "60",
      TRANSLATION_CACHE_MAX_BYTES: "16MB",
      TRANSLATION_CACHE_TIMEOUT_MS: "50",
      REDIS_URL: "redis://127.0.0.1:1",
    });
    expect(config).toEqual({ enabled: false, scope: "global", ttlMs: 60_000, maxBytes: 16 * 1024 ** 2, timeoutMs: 50, backend: "redis" });
    expect(translationCacheConfig({ REDIS_URL: "redis://x", UPSTASH_REDIS_REST_URL: "https://u", UPSTASH_REDIS_REST_TOKEN: "t" }).backend).toBe(
      "upstash",
    );
  });

  test("a malformed value warns and keeps the default instead of crashing", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const config = translationCacheConfig({
      TRANSLATION_CACHE: "maybe",
      TRANSLATION_CACHE_SCOPE: "team",
      TRANSLATION_CACHE_TTL_SECONDS: "-5",
      TRANSLATION_CACHE_MAX_BYTES: "lots",
    });
    expect(config).toMatchObject({ enabled: true, scope: "key", ttlMs: 7 * 24 * 3600 * 1000, maxBytes: defaultMaxBytes() });
    expect(warn).toHaveBeenCalledTimes(4);
  });

  test("parseBytes", () => {
    expect(parseBytes("1048576")).toBe(1024 ** 2);
    expect(parseBytes("64MB")).toBe(64 * 1024 ** 2);
    expect(parseBytes("64 MiB")).toBe(64 * 1024 ** 2);
    expect(parseBytes("512k")).toBe(512 * 1024);
    expect(parseBytes("1g")).toBe(1024 ** 3);
    for (const bad of ["", "0", "-1", "64 TB", "1e9", "ten"]) expect(parseBytes(bad), bad).toBeUndefined();
  });
});

describe("TranslationCache", () => {
  const input = { mode: "sandbox", requestedProvider: "auto", source: "en", target: "tw", modelMapVersion: "m1", text: "Hello" };

  test("per-key scope: a second key does not hit the first key's entry; global scope shares it", async () => {
    const perKey = createTranslationCache({});
    await perKey.set(perKey.keyFor("keyA", input), { translated_text: "Hɛlo" });
    expect(await perKey.get(perKey.keyFor("keyA", input))).toEqual({ translated_text: "Hɛlo" });
    expect(await perKey.get(perKey.keyFor("keyB", input))).toBeUndefined();

    const global = createTranslationCache({ TRANSLATION_CACHE_SCOPE: "global" });
    await global.set(global.keyFor("keyA", input), { translated_text: "Hɛlo" });
    expect(await global.get(global.keyFor("keyB", input))).toEqual({ translated_text: "Hɛlo" });
  });

  test("entries live for TRANSLATION_CACHE_TTL_SECONDS (injected clock)", async () => {
    let now = 1_000_000;
    const cache = createTranslationCache({ TRANSLATION_CACHE_TTL_SECONDS: "60" }, () => now);
    const key = cache.keyFor("k", input);
    await cache.set(key, { translated_text: "x" });
    now += 59_999;
    expect(await cache.get(key)).toBeDefined();
    now += 2;
    expect(await cache.get(key)).toBeUndefined();
  });

  test("TRANSLATION_CACHE=off: nothing is stored, every get misses, status says so", async () => {
    const cache = createTranslationCache({ TRANSLATION_CACHE: "off" });
    const key = cache.keyFor("k", input);
    await cache.set(key, { translated_text: "x" });
    expect(await cache.get(key)).toBeUndefined();
    expect(cache.enabled).toBe(false);
    expect(await cache.status()).toMatchObject({ enabled: false, backend: "memory", degraded: false });
  });

  test("status for /health: backend, scope, TTL, occupancy", async () => {
    const status = await createTranslationCache({}).status();
    expect(status).toMatchObject({ enabled: true, backend: "memory", ok: true, degraded: false, scope: "key", ttl_seconds: 604_800 });
    expect(status.detail).toMatch(/^memory \(per instance\) 0 entries, 0 of \d+ bytes$/);
  });

  test("a malformed store URL degrades to no cache, shown in status, without throwing", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const cache = createTranslationCache({ UPSTASH_REDIS_REST_URL: "not a url", UPSTASH_REDIS_REST_TOKEN: "t" });
    const key = cache.keyFor("k", input);
    await expect(cache.set(key, { translated_text: "x" })).resolves.toBeUndefined();
    expect(await cache.get(key)).toBeUndefined();
    expect(await cache.status()).toMatchObject({ enabled: true, backend: "upstash", ok: false, degraded: true });
  });
});
