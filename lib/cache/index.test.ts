import { afterEach, describe, expect, test, vi } from "vitest";
import { defaultCacheMaxBytes, loadConfig, parseBytes } from "@/lib/config";
import { processLog } from "@/lib/kit/log";
import { cacheSettings } from "@/lib/server/settings";
import { createTranslationCache } from "./index";

afterEach(() => vi.restoreAllMocks());

/** The cache an environment configures, as the composition root builds it. */
const cacheFor = (env: Record<string, string>, now?: () => number) => createTranslationCache(cacheSettings(loadConfig(env)), now);

describe("the cache's settings (cacheSettings over the configuration)", () => {
  test("defaults: on, per key, 7 days, in-process, 64 MiB (or an eighth of a smaller heap)", () => {
    expect(cacheSettings(loadConfig({}))).toEqual({
      enabled: true,
      scope: "key",
      ttlMs: 7 * 24 * 3600 * 1000,
      maxBytes: defaultCacheMaxBytes(),
      store: { backend: "memory", timeoutMs: 200 },
    });
    expect(defaultCacheMaxBytes(4 * 1024 ** 3)).toBe(64 * 1024 ** 2);
    expect(defaultCacheMaxBytes(256 * 1024 ** 2)).toBe(32 * 1024 ** 2);
  });

  test("reads every variable; the store follows the rate limiter's choice", () => {
    const config = cacheSettings(
      loadConfig({
        TRANSLATION_CACHE: "OFF",
        TRANSLATION_CACHE_SCOPE: "global",
        TRANSLATION_CACHE_TTL_SECONDS: "60",
        TRANSLATION_CACHE_MAX_BYTES: "16MB",
        TRANSLATION_CACHE_TIMEOUT_MS: "50",
        REDIS_URL: "redis://127.0.0.1:1",
      }),
    );
    expect(config).toEqual({
      enabled: false,
      scope: "global",
      ttlMs: 60_000,
      maxBytes: 16 * 1024 ** 2,
      store: { backend: "redis", redisUrl: "redis://127.0.0.1:1", timeoutMs: 50 },
    });
    const both = { REDIS_URL: "redis://x", UPSTASH_REDIS_REST_URL: "https://u", UPSTASH_REDIS_REST_TOKEN: "t" };
    expect(cacheSettings(loadConfig(both)).store.backend).toBe("upstash");
  });

  test("a malformed value stops start-up, naming every such variable", () => {
    expect(() =>
      loadConfig({
        TRANSLATION_CACHE: "maybe",
        TRANSLATION_CACHE_SCOPE: "team",
        TRANSLATION_CACHE_TTL_SECONDS: "-5",
        TRANSLATION_CACHE_MAX_BYTES: "lots",
      }),
    ).toThrow(
      /TRANSLATION_CACHE must.*\n.*TRANSLATION_CACHE_SCOPE must.*\n.*TRANSLATION_CACHE_TTL_SECONDS must.*\n.*TRANSLATION_CACHE_MAX_BYTES must/s,
    );
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
    const perKey = cacheFor({});
    await perKey.set(perKey.keyFor("keyA", input), { translated_text: "Hɛlo" });
    expect(await perKey.get(perKey.keyFor("keyA", input))).toEqual({ translated_text: "Hɛlo" });
    expect(await perKey.get(perKey.keyFor("keyB", input))).toBeUndefined();

    const global = cacheFor({ TRANSLATION_CACHE_SCOPE: "global" });
    await global.set(global.keyFor("keyA", input), { translated_text: "Hɛlo" });
    expect(await global.get(global.keyFor("keyB", input))).toEqual({ translated_text: "Hɛlo" });
  });

  test("entries live for TRANSLATION_CACHE_TTL_SECONDS (injected clock)", async () => {
    let now = 1_000_000;
    const cache = cacheFor({ TRANSLATION_CACHE_TTL_SECONDS: "60" }, () => now);
    const key = cache.keyFor("k", input);
    await cache.set(key, { translated_text: "x" });
    now += 59_999;
    expect(await cache.get(key)).toBeDefined();
    now += 2;
    expect(await cache.get(key)).toBeUndefined();
  });

  test("TRANSLATION_CACHE=off: nothing is stored, every get misses, status says so", async () => {
    const cache = cacheFor({ TRANSLATION_CACHE: "off" });
    const key = cache.keyFor("k", input);
    await cache.set(key, { translated_text: "x" });
    expect(await cache.get(key)).toBeUndefined();
    expect(cache.enabled).toBe(false);
    expect(await cache.status()).toMatchObject({ enabled: false, backend: "memory", degraded: false });
  });

  test("status for /health: backend, scope, TTL, occupancy", async () => {
    const status = await cacheFor({}).status();
    expect(status).toMatchObject({ enabled: true, backend: "memory", ok: true, degraded: false, scope: "key", ttl_seconds: 604_800 });
    expect(status.detail).toMatch(/^memory \(per instance\) 0 entries, 0 of \d+ bytes$/);
  });

  test("a malformed store URL degrades to no cache, shown in status, without throwing", async () => {
    vi.spyOn(processLog(), "error").mockImplementation(() => {});
    vi.spyOn(processLog(), "warn").mockImplementation(() => {});
    const cache = createTranslationCache({
      ...cacheSettings(loadConfig({})),
      store: { backend: "upstash", upstash: { url: "not a url", token: "t" }, timeoutMs: 200 },
    });
    const key = cache.keyFor("k", input);
    await expect(cache.set(key, { translated_text: "x" })).resolves.toBeUndefined();
    expect(await cache.get(key)).toBeUndefined();
    expect(await cache.status()).toMatchObject({ enabled: true, backend: "upstash", ok: false, degraded: true });
  });
});
