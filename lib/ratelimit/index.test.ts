import { afterEach, describe, expect, test, vi } from "vitest";
import { ConfigError, loadConfig, parseRule } from "@/lib/config";
import { ruleOf, storeSettings } from "@/lib/server/settings";
import { createRateLimiter, rateLimiterStatus } from "./index";

/** The limiter's settings an environment configures, as the composition root reads them. */
function rateLimiterConfig(env: Record<string, string>) {
  const c = loadConfig(env);
  const { backend, timeoutMs } = storeSettings(c, c.RATE_LIMIT_TIMEOUT_MS);
  return { backend, timeoutMs, failMode: c.RATE_LIMIT_FAIL_MODE };
}
const ruleFor = (bucket: Parameters<typeof ruleOf>[1]) => ruleOf(loadConfig({}), bucket);

afterEach(() => vi.restoreAllMocks());

describe("parseRule", () => {
  test.each([
    ["60/60s", { limit: 60, windowMs: 60_000 }],
    ["10/60", { limit: 10, windowMs: 60_000 }],
    [" 3 / 2s ", { limit: 3, windowMs: 2_000 }],
    ["5/500ms", { limit: 5, windowMs: 500 }],
    ["100/1h", { limit: 100, windowMs: 3_600_000 }],
    ["20/1.5m", { limit: 20, windowMs: 90_000 }],
  ])("%s", (text, rule) => expect(parseRule(text)).toEqual(rule));

  test.each(["", "60", "0/60s", "-1/60s", "60/0s", "60/60d", "a/60s", "60/60s extra"])("rejects %j", (text) =>
    expect(parseRule(text)).toBeUndefined(),
  );
});

describe("ruleFor", () => {
  test("defaults: the published per-minute limits; RATE_LIMIT_<BUCKET> overrides; a malformed value stops start-up", () => {
    // The test process sets none of them.
    expect(ruleFor("translate")).toEqual({ limit: 60, windowMs: 60_000 });
    expect(ruleFor("batch")).toEqual({ limit: 10, windowMs: 60_000 });
    expect(ruleFor("stt")).toEqual({ limit: 20, windowMs: 60_000 });
    expect(ruleFor("tts")).toEqual({ limit: 20, windowMs: 60_000 });
    expect(ruleFor("default")).toEqual({ limit: 120, windowMs: 60_000 });
    expect(ruleFor("issuance")).toEqual({ limit: 100, windowMs: 3_600_000 });
    expect(ruleFor("auth_failures")).toEqual({ limit: 30, windowMs: 60_000 });
    expect(loadConfig({ RATE_LIMIT_ISSUANCE: "30/10m" }).RATE_LIMIT_ISSUANCE).toEqual({ limit: 30, windowMs: 600_000 });
    expect(() => loadConfig({ RATE_LIMIT_DEFAULT: "lots" })).toThrow(/RATE_LIMIT_DEFAULT must be "N\/W"/);
  });
});

describe("rateLimiterConfig: store selection and settings", () => {
  const upstash = { UPSTASH_REDIS_REST_URL: "https://eu1.upstash.io", UPSTASH_REDIS_REST_TOKEN: "t" };

  test("Upstash wins when URL and token are set, then REDIS_URL, then memory", () => {
    expect(rateLimiterConfig({ ...upstash, REDIS_URL: "redis://r:6379" }).backend).toBe("upstash");
    expect(rateLimiterConfig({ REDIS_URL: "redis://r:6379" }).backend).toBe("redis");
    expect(rateLimiterConfig({}).backend).toBe("memory");
  });

  test("half an Upstash configuration stops start-up, naming the missing variable", () => {
    expect(() => rateLimiterConfig({ UPSTASH_REDIS_REST_URL: upstash.UPSTASH_REDIS_REST_URL, REDIS_URL: "redis://r" })).toThrow(
      /UPSTASH_REDIS_REST_TOKEN must be set together/,
    );
  });

  test("defaults: 300 ms timeout, fail open", () => {
    expect(rateLimiterConfig({})).toEqual({ backend: "memory", timeoutMs: 300, failMode: "open" });
  });

  test("settings are read, and malformed ones stop start-up, both named in one error", () => {
    expect(rateLimiterConfig({ RATE_LIMIT_TIMEOUT_MS: "150", RATE_LIMIT_FAIL_MODE: "Closed" })).toMatchObject({ timeoutMs: 150, failMode: "closed" });
    const err = (() => {
      try {
        rateLimiterConfig({ RATE_LIMIT_TIMEOUT_MS: "0", RATE_LIMIT_FAIL_MODE: "sometimes" });
      } catch (e) {
        return e as ConfigError;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err?.problems).toEqual(["RATE_LIMIT_TIMEOUT_MS must be at least 1", "RATE_LIMIT_FAIL_MODE must be one of open, closed"]);
  });
});

describe("createRateLimiter", () => {
  test("an unusable Upstash or Redis URL stops start-up instead of running on a store that can never answer", () => {
    expect(() => rateLimiterConfig({ UPSTASH_REDIS_REST_URL: "not a url", UPSTASH_REDIS_REST_TOKEN: "t" })).toThrow(
      /UPSTASH_REDIS_REST_URL must be a URL/,
    );
    expect(() => rateLimiterConfig({ REDIS_URL: "localhost:6379" })).toThrow(/REDIS_URL must be a URL \(redis:\/\/ or rediss:\/\//);
  });

  test("rateLimiterStatus reports the store, its fail mode and whether it answers", async () => {
    const c = loadConfig({ RATE_LIMIT_FAIL_MODE: "closed" });
    const store = createRateLimiter({ store: storeSettings(c, c.RATE_LIMIT_TIMEOUT_MS), failMode: c.RATE_LIMIT_FAIL_MODE });
    expect(await rateLimiterStatus(store)).toEqual({ backend: "memory", ok: true, fail_mode: "closed", detail: "memory (per instance)" });
  });

  test("KV_REST_API_URL / KV_REST_API_TOKEN (Vercel's Upstash integration) select Upstash; UPSTASH_REDIS_REST_* win", () => {
    const kv = { KV_REST_API_URL: "https://kv.upstash.io", KV_REST_API_TOKEN: "kv-token" };
    const c = loadConfig({ ...kv, REDIS_URL: "redis://r:6379" });
    expect(storeSettings(c, 300)).toEqual({ backend: "upstash", upstash: { url: "https://kv.upstash.io", token: "kv-token" }, timeoutMs: 300 });
    const both = loadConfig({ ...kv, UPSTASH_REDIS_REST_URL: "https://eu1.upstash.io", UPSTASH_REDIS_REST_TOKEN: "t" });
    expect(storeSettings(both, 300).upstash).toEqual({ url: "https://eu1.upstash.io", token: "t" });
    expect(() => loadConfig({ KV_REST_API_URL: kv.KV_REST_API_URL })).toThrow(/KV_REST_API_TOKEN must be set together/);
  });
});
