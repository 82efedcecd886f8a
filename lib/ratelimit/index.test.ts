import { afterEach, describe, expect, test, vi } from "vitest";
import { createRateLimiter, parseRule, rateLimiterConfig, rateLimiterStatus, ruleFor } from "./index";

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
  test("defaults: the published per-minute limits; RATE_LIMIT_<BUCKET> overrides, a malformed value is ignored", () => {
    for (const b of ["TRANSLATE", "BATCH", "STT", "TTS", "DEFAULT"]) vi.stubEnv(`RATE_LIMIT_${b}`, undefined);
    vi.stubEnv("RATE_LIMIT_ISSUANCE", "30/10m");
    vi.stubEnv("RATE_LIMIT_AUTH_FAILURES", undefined);
    vi.stubEnv("RATE_LIMIT_DEFAULT", "lots");
    vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(ruleFor("translate")).toEqual({ limit: 60, windowMs: 60_000 });
      expect(ruleFor("batch")).toEqual({ limit: 10, windowMs: 60_000 });
      expect(ruleFor("stt")).toEqual({ limit: 20, windowMs: 60_000 });
      expect(ruleFor("tts")).toEqual({ limit: 20, windowMs: 60_000 });
      expect(ruleFor("default")).toEqual({ limit: 120, windowMs: 60_000 });
      expect(ruleFor("issuance")).toEqual({ limit: 30, windowMs: 600_000 });
      expect(ruleFor("auth_failures")).toEqual({ limit: 30, windowMs: 60_000 });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("rateLimiterConfig: store selection and settings", () => {
  const upstash = { UPSTASH_REDIS_REST_URL: "https://eu1.upstash.io", UPSTASH_REDIS_REST_TOKEN: "t" };

  test("Upstash wins when URL and token are set, then REDIS_URL, then memory", () => {
    expect(rateLimiterConfig({ ...upstash, REDIS_URL: "redis://r:6379" }).backend).toBe("upstash");
    expect(rateLimiterConfig({ REDIS_URL: "redis://r:6379" }).backend).toBe("redis");
    expect(rateLimiterConfig({}).backend).toBe("memory");
  });

  test("half an Upstash configuration is not used, and says so", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(rateLimiterConfig({ UPSTASH_REDIS_REST_URL: upstash.UPSTASH_REDIS_REST_URL, REDIS_URL: "redis://r" }).backend).toBe("redis");
    expect(warn).toHaveBeenCalledOnce();
  });

  test("defaults: 300 ms timeout, fail open", () => {
    expect(rateLimiterConfig({})).toEqual({ backend: "memory", timeoutMs: 300, failMode: "open" });
  });

  test("settings are read, and malformed ones fall back to the defaults with a warning", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(rateLimiterConfig({ RATE_LIMIT_TIMEOUT_MS: "150", RATE_LIMIT_FAIL_MODE: "Closed" })).toMatchObject({ timeoutMs: 150, failMode: "closed" });
    expect(rateLimiterConfig({ RATE_LIMIT_TIMEOUT_MS: "0", RATE_LIMIT_FAIL_MODE: "sometimes" })).toMatchObject({ timeoutMs: 300, failMode: "open" });
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe("createRateLimiter", () => {
  test("an unusable Upstash URL behaves like a store that is down: the fail mode decides, /health says why", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const env = { UPSTASH_REDIS_REST_URL: "not a url", UPSTASH_REDIS_REST_TOKEN: "t" };
    const open = createRateLimiter(env);
    expect(open.name).toBe("upstash");
    expect((await open.check("translate", "k", { limit: 1, windowMs: 1_000 })).allowed).toBe(true);
    expect(await open.health()).toMatchObject({ ok: false });
    const closed = createRateLimiter({ ...env, RATE_LIMIT_FAIL_MODE: "closed" });
    await expect(closed.check("translate", "k", { limit: 1, windowMs: 1_000 })).rejects.toMatchObject({ name: "RateLimiterUnavailableError" });
  });

  test("rateLimiterStatus reports the process-wide store", async () => {
    const status = await rateLimiterStatus();
    const config = rateLimiterConfig();
    expect(status).toMatchObject({ backend: config.backend, fail_mode: config.failMode });
    if (config.backend === "memory") expect(status.ok).toBe(true);
  });
});
