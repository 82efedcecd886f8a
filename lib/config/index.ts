import { z } from "zod";
import { parseBudget } from "@/lib/budgets/rules";
import { parseBytes } from "@/lib/cache/bytes";
import { DEFAULT_RULES, parseRule } from "@/lib/ratelimit/rules";
import type { RateLimitBucket, RateLimitRule } from "@/lib/ratelimit/types";

/**
 * The service's configuration: one zod schema over the environment, parsed once (config()), every problem listed
 * together. The policy:
 *  - every variable is optional; unset (or blank) means today's default;
 *  - a value that is set but malformed — a number that is not one or is out of range, a URL that is not one, a rate
 *    limit that is not N/W, an unknown mode — stops start-up (instrumentation.ts; on Vercel already at build,
 *    scripts/check-config.ts) with one message naming every such variable. A typo must not silently run the service
 *    on a default the operator did not choose;
 *  - in production (NODE_ENV=production, on Vercel or on an external PostgreSQL) a NEXTAUTH_SECRET shorter than 32
 *    characters is such a problem too; no secret at all only turns the portal's sign-in off (lib/auth/secret.ts).
 * Tests build a configuration from an explicit environment with loadConfig(env).
 */

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v);

/** An integer in [min, max], default `fallback` (undefined: the variable's reader keeps its own default). */
function int<F extends number | undefined>(fallback: F, min: number, max = Number.MAX_SAFE_INTEGER) {
  const schema = z
    .string()
    .regex(/^-?\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
  return z.preprocess(
    blank,
    schema.optional().transform((v) => v ?? fallback),
  ) as unknown as z.ZodType<F extends number ? number : number | undefined>;
}

function url(protocols: string[]) {
  return z.preprocess(
    blank,
    z
      .string()
      .refine((v) => URL.canParse(v) && protocols.includes(new URL(v).protocol), `must be a URL (${protocols.map((p) => `${p}//`).join(" or ")}…)`)
      .optional(),
  );
}

const text = () => z.preprocess(blank, z.string().optional());

function oneOf<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return z.preprocess(
    (v) => (typeof blank(v) === "string" ? (blank(v) as string).toLowerCase() : blank(v)),
    z
      .enum(values, { error: () => `must be one of ${values.join(", ")}` })
      .optional()
      .transform((v) => v ?? fallback),
  ) as unknown as z.ZodType<T[number]>;
}

function rule(bucket: RateLimitBucket) {
  return z.preprocess(
    blank,
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        const parsed = parseRule(v ?? DEFAULT_RULES[bucket]);
        if (!parsed) {
          ctx.addIssue({ code: "custom", message: 'must be "N/W" with unit ms, s, m or h (e.g. 60/60s)' });
          return z.NEVER;
        }
        return parsed;
      }),
  ) as unknown as z.ZodType<RateLimitRule>;
}

/** An upstream budget (lib/budgets): validated here, read (with its default) by lib/budgets. */
const budget = () =>
  z.preprocess(
    blank,
    z
      .string()
      .refine((v) => parseBudget(v) !== undefined, 'must be "N/W[,N/W...]" with unit ms, s, m or h (e.g. 50/60s,500/24h) or unlimited')
      .optional(),
  );

const bool = (fallback?: boolean) =>
  z.preprocess(
    (v) => (typeof blank(v) === "string" ? (blank(v) as string).toLowerCase() : blank(v)),
    z
      .enum(["true", "false"], { error: () => "must be true or false" })
      .optional()
      .transform((v) => (v === undefined ? fallback : v === "true")),
  );

const HTTP = ["http:", "https:"];

export const ConfigSchema = z.object({
  // Platform: set by the host, not by the operator (not in the README's table).
  NODE_ENV: text(),
  VERCEL: text(),
  /** Open the database on the first request instead of at start-up. */
  LUGHA_LAZY_DB: bool(false),

  DATABASE_URL: z.preprocess(
    blank,
    z
      .string()
      .regex(/^(postgres(ql)?:\/\/.+|pglite:.*)$/, "must be postgres://…, postgresql://…, pglite:<dir> or pglite:memory")
      .optional(),
  ),
  DATABASE_POOL_SIZE: int(10, 1, 1_000),

  UPSTASH_REDIS_REST_URL: url(HTTP),
  UPSTASH_REDIS_REST_TOKEN: text(),
  REDIS_URL: url(["redis:", "rediss:"]),
  RATE_LIMIT_TRANSLATE: rule("translate"),
  RATE_LIMIT_BATCH: rule("batch"),
  RATE_LIMIT_STT: rule("stt"),
  RATE_LIMIT_TTS: rule("tts"),
  RATE_LIMIT_DEFAULT: rule("default"),
  RATE_LIMIT_ISSUANCE: rule("issuance"),
  RATE_LIMIT_AUTH_FAILURES: rule("auth_failures"),
  RATE_LIMIT_TIMEOUT_MS: int(300, 1, 60_000),
  RATE_LIMIT_FAIL_MODE: oneOf(["open", "closed"], "open"),

  // Providers (read by lib/providers, lib/translate, lib/speech, lib/languages; validated here, defaults kept there).
  PROVIDER_MODE: oneOf(["auto", "live", "sandbox"], "auto"),
  SUNBIRD_API_URL: url(HTTP),
  SUNBIRD_API_TOKEN: text(),
  KHAYA_API_URL: url(HTTP),
  KHAYA_API_KEY: text(),
  HF_API_URL: url(HTTP),
  HF_TOKEN: text(),
  PROVIDER_TIMEOUT_MS: int(undefined, 1),
  PROVIDER_SPEECH_TIMEOUT_MS: int(undefined, 1),
  PROVIDER_MAX_RETRIES: int(undefined, 0, 10),
  CIRCUIT_FAILURE_THRESHOLD: int(undefined, 1),
  CIRCUIT_COOLDOWN_MS: int(undefined, 1),
  UPSTREAM_BUDGET_PROVIDER_A: budget(),
  UPSTREAM_BUDGET_PROVIDER_B: budget(),
  UPSTREAM_BUDGET_PROVIDER_C: budget(),
  TRANSLATE_DEADLINE_MS: int(undefined, 100),
  BATCH_DEADLINE_MS: int(undefined, 100),
  BATCH_CONCURRENCY_PER_PROVIDER: int(undefined, 1, 256),
  HF_MODEL_MAP: text(),
  HF_HUB_URL: url(HTTP),
  AVAILABILITY_TTL_SECONDS: int(undefined, 1, 604_800),
  AVAILABILITY_SYNC_SECONDS: int(undefined, 1, 604_800),
  HF_ASR_MODEL: z.preprocess(
    blank,
    z
      .string()
      .regex(/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/, 'must be a model id "org/name"')
      .optional(),
  ),
  SPEECH_MAX_UPLOAD_BYTES: int(undefined, 1),
  SPEECH_MAX_AUDIO_SECONDS: int(undefined, 1),
  SPEECH_DEADLINE_MS: int(undefined, 100),

  API_KEY_HASH_SECRET: text(),
  NEXTAUTH_SECRET: text(),
  /** next-auth's newer name for NEXTAUTH_SECRET; NEXTAUTH_SECRET wins when both are set. */
  AUTH_SECRET: text(),
  NEXTAUTH_URL: url(HTTP),
  /** Bearer token that adds the operator details to /health (lib/health.ts). */
  HEALTH_OPERATOR_TOKEN: text(),
  TRUST_PROXY: bool(),
  /** V8 heap cap of `npm start` in MiB (scripts/start.mjs applies it and keeps the default). */
  LUGHA_HEAP_MB: int(undefined, 64, 65_536),
  KEY_CACHE_TTL_MS: int(5_000, 0, 300_000),
  USAGE_FLUSH_INTERVAL_MS: int(50, 0, 10_000),

  // The translation cache (read by lib/cache/config.ts; validated here, defaults kept there).
  TRANSLATION_CACHE: oneOf(["on", "off"], "on"),
  TRANSLATION_CACHE_SCOPE: oneOf(["key", "global"], "key"),
  TRANSLATION_CACHE_TTL_SECONDS: int(undefined, 1, 365 * 24 * 3600),
  TRANSLATION_CACHE_MAX_BYTES: z.preprocess(
    blank,
    z
      .string()
      .refine((v) => parseBytes(v) !== undefined, 'must be a size in bytes ("67108864", "64MB", "512k")')
      .optional(),
  ),
  TRANSLATION_CACHE_TIMEOUT_MS: int(undefined, 1, 60_000),
});

/** Rules over several variables; on the raw values, so they are reported even when another variable is malformed. */
function crossProblems(raw: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (Boolean(raw.UPSTASH_REDIS_REST_URL) !== Boolean(raw.UPSTASH_REDIS_REST_TOKEN)) {
    problems.push(
      `${raw.UPSTASH_REDIS_REST_URL ? "UPSTASH_REDIS_REST_TOKEN" : "UPSTASH_REDIS_REST_URL"} must be set together with the other Upstash variable`,
    );
  }
  const secretName = raw.NEXTAUTH_SECRET ? "NEXTAUTH_SECRET" : "AUTH_SECRET";
  const secret = raw[secretName];
  if (secret !== undefined && isProductionDeployment(raw) && secret.length < MIN_SECRET_LENGTH) {
    problems.push(
      `${secretName} is ${secret.length} characters; in production it must be at least ${MIN_SECRET_LENGTH} (e.g. \`openssl rand -base64 32\`)`,
    );
  }
  return problems;
}

/** Shortest NEXTAUTH_SECRET accepted in production: 32 characters, about the 256 bits of `openssl rand -base64 32`. */
export const MIN_SECRET_LENGTH = 32;

export type Config = Readonly<z.output<typeof ConfigSchema>>;
type Env = Record<string, string | undefined>;

/** Every variable the schema reads (platform ones included). */
export const CONFIG_VARIABLES = Object.keys(ConfigSchema.shape) as (keyof Config)[];
/** Set by the host, not listed in the README's table. */
export const PLATFORM_VARIABLES: readonly (keyof Config)[] = ["NODE_ENV", "VERCEL", "LUGHA_LAZY_DB", "AUTH_SECRET"];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * "Deployed" = NODE_ENV=production and either on Vercel or on an external PostgreSQL: several instances must share
 * one secret, and only the operator can provide it.
 */
export function isProductionDeployment(c: { NODE_ENV?: string; VERCEL?: string; DATABASE_URL?: string }): boolean {
  return c.NODE_ENV === "production" && (Boolean(c.VERCEL) || /^postgres(ql)?:\/\//.test(c.DATABASE_URL ?? ""));
}

/** Parses an environment; throws ConfigError listing every problem (the values themselves are never quoted: secrets). */
export function loadConfig(env: Env): Config {
  const raw = Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, blank(env[name]) as string | undefined]));
  const result = ConfigSchema.safeParse(raw);
  const problems = [
    ...(result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".") || "environment"} ${issue.message}`)),
    ...crossProblems(raw),
  ];
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return Object.freeze(result.data);
}

const CACHED = Symbol.for("lugha.config");
type WithConfig = typeof globalThis & { [CACHED]?: Config };

/** The process's configuration, parsed from process.env on first use. */
export function config(): Config {
  const g = globalThis as WithConfig;
  g[CACHED] ??= loadConfig(process.env);
  return g[CACHED];
}
