import { describe, expect, it } from "vitest";
import { authConfigured, authSecret, MissingAuthSecretError } from "@/lib/api/auth/secret";
import { ConfigError, loadConfig } from "./index";

const problemsOf = (env: Record<string, string | undefined>) => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe("loadConfig", () => {
  it("runs on today's defaults with nothing set; blank values count as unset", () => {
    const c = loadConfig({ KEY_CACHE_TTL_MS: "  ", PROVIDER_MODE: "" });
    expect(c).toMatchObject({
      DATABASE_POOL_SIZE: 10,
      RATE_LIMIT_TIMEOUT_MS: 300,
      RATE_LIMIT_FAIL_MODE: "open",
      RATE_LIMIT_TRANSLATE: { limit: 60, windowMs: 60_000 },
      PROVIDER_MODE: "auto",
      KEY_CACHE_TTL_MS: 5_000,
      USAGE_FLUSH_INTERVAL_MS: 50,
      TRUST_PROXY: undefined,
      NEXTAUTH_SECRET: undefined,
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it("lists every malformed value together, naming the variable and never quoting the value", () => {
    const problems = problemsOf({
      DATABASE_POOL_SIZE: "ten",
      REDIS_URL: "http://cache:6379",
      RATE_LIMIT_BATCH: "10 per minute",
      PROVIDER_TIMEOUT_MS: "1.5",
      SUNBIRD_API_URL: "api.sunbird.ai",
      PROVIDER_MODE: "fast",
      TRUST_PROXY: "yes",
      USAGE_FLUSH_INTERVAL_MS: "60000",
      NEXTAUTH_URL: "localhost:3000",
      UPSTASH_REDIS_REST_TOKEN: "tok-secret-value",
    });
    expect(problems.map((p) => p.split(" ")[0]).sort()).toEqual(
      [
        "DATABASE_POOL_SIZE",
        "REDIS_URL",
        "RATE_LIMIT_BATCH",
        "PROVIDER_TIMEOUT_MS",
        "SUNBIRD_API_URL",
        "PROVIDER_MODE",
        "TRUST_PROXY",
        "USAGE_FLUSH_INTERVAL_MS",
        "NEXTAUTH_URL",
        "UPSTASH_REDIS_REST_URL",
      ].sort(),
    );
    expect(problems.join("\n")).not.toMatch(/tok-secret-value|sunbird|ten\b|fast/);
  });

  it("accepts what today's readers accept: case-insensitive modes, trimmed numbers, 0 where 0 means off", () => {
    expect(
      loadConfig({
        PROVIDER_MODE: " Sandbox ",
        RATE_LIMIT_FAIL_MODE: "Closed",
        KEY_CACHE_TTL_MS: "0",
        PROVIDER_MAX_RETRIES: "0",
        TRUST_PROXY: "TRUE",
      }),
    ).toMatchObject({ PROVIDER_MODE: "sandbox", RATE_LIMIT_FAIL_MODE: "closed", KEY_CACHE_TTL_MS: 0, PROVIDER_MAX_RETRIES: 0, TRUST_PROXY: true });
  });
});

describe("upstream budgets", () => {
  it("accept N/W lists and unlimited; anything else stops start-up, naming the variable", () => {
    expect(
      problemsOf({ UPSTREAM_BUDGET_PROVIDER_A: "50/60s, 500/24h", UPSTREAM_BUDGET_PROVIDER_B: "Unlimited", UPSTREAM_BUDGET_PROVIDER_C: " " }),
    ).toEqual([]);
    expect(problemsOf({ UPSTREAM_BUDGET_PROVIDER_A: "fifty a minute", UPSTREAM_BUDGET_PROVIDER_C: "50/60s," }).map((p) => p.split(" ")[0])).toEqual([
      "UPSTREAM_BUDGET_PROVIDER_A",
      "UPSTREAM_BUDGET_PROVIDER_C",
    ]);
  });
});

describe("translation cache variables", () => {
  it("accepts the documented forms and refuses malformed ones, each named", () => {
    expect(
      problemsOf({
        TRANSLATION_CACHE: "OFF",
        TRANSLATION_CACHE_SCOPE: "Global",
        TRANSLATION_CACHE_TTL_SECONDS: "60",
        TRANSLATION_CACHE_MAX_BYTES: "64MB",
        TRANSLATION_CACHE_TIMEOUT_MS: "50",
      }),
    ).toEqual([]);
    const problems = problemsOf({
      TRANSLATION_CACHE: "maybe",
      TRANSLATION_CACHE_SCOPE: "team",
      TRANSLATION_CACHE_TTL_SECONDS: "0",
      TRANSLATION_CACHE_MAX_BYTES: "lots",
      TRANSLATION_CACHE_TIMEOUT_MS: "60001",
    });
    expect(problems.map((p) => p.split(" ")[0]).sort()).toEqual(
      [
        "TRANSLATION_CACHE",
        "TRANSLATION_CACHE_SCOPE",
        "TRANSLATION_CACHE_TTL_SECONDS",
        "TRANSLATION_CACHE_MAX_BYTES",
        "TRANSLATION_CACHE_TIMEOUT_MS",
      ].sort(),
    );
  });
});

describe("LUGHA_HEAP_MB (the heap cap of npm start)", () => {
  it("takes whole MiB from 64 up; anything else stops start-up, naming the variable", () => {
    expect(loadConfig({ LUGHA_HEAP_MB: " 512 " }).LUGHA_HEAP_MB).toBe(512);
    expect(loadConfig({}).LUGHA_HEAP_MB).toBeUndefined(); // scripts/start.mjs keeps the default
    for (const value of ["lots", "1.5", "32", "-1"])
      expect(problemsOf({ LUGHA_HEAP_MB: value }).map((p) => p.split(" ")[0])).toEqual(["LUGHA_HEAP_MB"]);
  });
});

describe("NEXTAUTH_SECRET in production", () => {
  const deployed: Record<string, string>[] = [
    { NODE_ENV: "production", VERCEL: "1" },
    { NODE_ENV: "production", DATABASE_URL: "postgres://u@db:5432/lugha" },
  ];

  it.each(deployed)("a secret shorter than 32 characters stops start-up (%o)", (env) => {
    for (const secret of ["x", "a".repeat(31)]) {
      expect(problemsOf({ ...env, NEXTAUTH_SECRET: secret })).toEqual([
        `NEXTAUTH_SECRET is ${secret.length} characters; in production it must be at least 32 (e.g. \`openssl rand -base64 32\`)`,
      ]);
      expect(() => authSecret({ ...env, NEXTAUTH_SECRET: secret })).toThrow(ConfigError);
    }
    expect(problemsOf({ ...env, AUTH_SECRET: "short" })[0]).toMatch(/^AUTH_SECRET is 5 characters/);
    expect(authSecret({ ...env, NEXTAUTH_SECRET: "a".repeat(32) })).toBe("a".repeat(32));
  });

  it("without a secret the configuration is valid: the portal's sign-in is off, nothing else", () => {
    for (const env of deployed) {
      expect(problemsOf(env)).toEqual([]);
      expect(() => authSecret(env)).toThrow(MissingAuthSecretError);
      expect(authConfigured(env)).toBe(false);
    }
  });

  it("outside production a short secret is accepted (development, tests, the embedded single machine)", () => {
    expect(problemsOf({ NODE_ENV: "development", VERCEL: "1", NEXTAUTH_SECRET: "x" })).toEqual([]);
    expect(problemsOf({ NODE_ENV: "production", DATABASE_URL: "pglite:.data/pglite", NEXTAUTH_SECRET: "x" })).toEqual([]);
  });
});
