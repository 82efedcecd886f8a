import { getHeapStatistics } from "node:v8";
import { z } from "zod";
import { parseBudget, parseBytes, parseRule, type RateLimitRule } from "./values";

export { parseBudget, parseBytes, parseRule, type RateLimitRule } from "./values";

/**
 * The service's configuration: one zod schema over the environment, parsed once (config()), every problem listed
 * together. The only module of lib/ that reads process.env: the composition root (lib/server) builds every service
 * from the parsed values, and the features take those values as arguments. The policy:
 *  - every variable is optional; unset (or blank) means its default, and every default is written here;
 *  - a value that is set but malformed — a number that is not one or is out of range, a URL that is not one, a rate
 *    limit that is not N/W, an unknown mode — stops start-up (instrumentation.ts; on Vercel already at build,
 *    scripts/check-config.ts) with one message naming every such variable. A typo must not silently run the service
 *    on a default the operator did not choose;
 *  - in production (NODE_ENV=production, on Vercel or on an external PostgreSQL) a NEXTAUTH_SECRET shorter than 32
 *    characters is such a problem too; no secret at all only turns the portal's sign-in off (lib/auth/secret.ts).
 * Tests build a configuration from an explicit environment with loadConfig(env).
 */

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v);

/** An integer in [min, max], default `fallback`. */
function int(fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) {
  const schema = z
    .string()
    .regex(/^-?\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
  return z.preprocess(
    blank,
    schema.optional().transform((v) => v ?? fallback),
  ) as unknown as z.ZodType<number>;
}

/**
 * A URL with one of `protocols`; without `fallback` unset stays undefined. `credentials: false` refuses a URL with
 * user:password in it (an upstream's base URL: its credential has a variable of its own, and would be logged with the URL).
 */
function url<F extends string | undefined = undefined>(protocols: string[], options: { fallback?: F; credentials?: false } = {}) {
  return z.preprocess(
    blank,
    z
      .string()
      .refine((v) => URL.canParse(v) && protocols.includes(new URL(v).protocol), `must be a URL (${protocols.map((p) => `${p}//`).join(" or ")}…)`)
      .refine(
        (v) => options.credentials !== false || !URL.canParse(v) || (!new URL(v).username && !new URL(v).password),
        "must not contain credentials",
      )
      .optional()
      .transform((v) => (v ?? options.fallback)?.replace(/\/+$/, "")),
  ) as unknown as z.ZodType<F extends string ? string : string | undefined>;
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

/** A rate limit "N/W", parsed; `fallback` is the default. */
function rule(fallback: string) {
  return z.preprocess(
    blank,
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        const parsed = parseRule(v ?? fallback);
        if (!parsed) {
          ctx.addIssue({ code: "custom", message: 'must be "N/W" with unit ms, s, m or h (e.g. 60/60s)' });
          return z.NEVER;
        }
        return parsed;
      }),
  ) as unknown as z.ZodType<RateLimitRule>;
}

/** An upstream budget (lib/budgets), parsed to its windows (shortest first; [] = unlimited); `fallback` is the default. */
const budget = (fallback: string) =>
  z.preprocess(
    blank,
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        const parsed = parseBudget(v ?? fallback);
        if (!parsed) {
          ctx.addIssue({ code: "custom", message: 'must be "N/W[,N/W...]" with unit ms, s, m or h (e.g. 50/60s,500/24h) or unlimited' });
          return z.NEVER;
        }
        return parsed;
      }),
  ) as unknown as z.ZodType<RateLimitRule[]>;

/** A size in bytes ("67108864", "64MB", "512k"); `fallback` is the default. */
const bytes = (fallback: () => number) =>
  z.preprocess(
    blank,
    z
      .string()
      .refine((v) => parseBytes(v) !== undefined, 'must be a size in bytes ("67108864", "64MB", "512k")')
      .optional()
      .transform((v) => (v === undefined ? fallback() : parseBytes(v)!)),
  ) as unknown as z.ZodType<number>;

/**
 * The in-process translation cache's default bound: 64 MiB, or an eighth of the heap limit when the heap is capped
 * lower (node --max-old-space-size), so a full cache always leaves the heap most of its room.
 */
export function defaultCacheMaxBytes(heapLimit = getHeapStatistics().heap_size_limit): number {
  return Math.min(64 * 1024 * 1024, Math.floor(heapLimit / 8));
}

const bool = (fallback?: boolean) =>
  z.preprocess(
    (v) => (typeof blank(v) === "string" ? (blank(v) as string).toLowerCase() : blank(v)),
    z
      .enum(["true", "false"], { error: () => "must be true or false" })
      .optional()
      .transform((v) => (v === undefined ? fallback : v === "true")),
  );

const HTTP = ["http:", "https:"];

const postgresUrl = () =>
  z.preprocess(
    blank,
    z
      .string()
      .regex(/^postgres(ql)?:\/\/.+/, "must be postgres://… or postgresql://…")
      .optional(),
  );

/**
 * Where the PostgreSQL URL is read, first set wins: `queries` is the URL the server connects with (a pooled one where
 * the provider offers both), `migrations` the one `npm run db:migrate` uses (the direct one: a transaction-mode pooler
 * does not keep the session a migration needs). The names are those Neon, Supabase and Prisma Postgres set through
 * Vercel's integrations (docs/deploy.md has the table).
 */
export const DATABASE_URL_PRECEDENCE = {
  queries: ["DATABASE_URL", "POSTGRES_URL", "POSTGRES_PRISMA_URL"],
  migrations: ["DATABASE_URL_UNPOOLED", "POSTGRES_URL_NON_POOLING", "DATABASE_URL", "POSTGRES_URL", "POSTGRES_PRISMA_URL"],
} as const;

type DatabaseUrls = Partial<Record<(typeof DATABASE_URL_PRECEDENCE)["migrations"][number], string>>;

/** The URL the server queries (undefined: the embedded PGlite). */
export function queryDatabaseUrl(c: DatabaseUrls): string | undefined {
  return DATABASE_URL_PRECEDENCE.queries.map((name) => c[name]).find(Boolean);
}

/** The URL `npm run db:migrate` migrates. */
export function migrationDatabaseUrl(c: DatabaseUrls): string | undefined {
  return DATABASE_URL_PRECEDENCE.migrations.map((name) => c[name]).find(Boolean);
}

/**
 * Vercel Functions take and give at most 4.5 MB of body each way (base64 inside JSON included); past it the platform
 * answers 413 itself, without Lugha's envelope. The limits below keep every documented answer inside it.
 */
export const PLATFORM_BODY_LIMIT_BYTES = 4_500_000;

/**
 * Defaults that depend on where the server runs (VERCEL set or not), applied by loadConfig:
 *  - DATABASE_POOL_SIZE: 3 on Vercel (every function instance has its own pool, and a few hundred instances must fit
 *    the database's connection limit or its pooler), 10 elsewhere;
 *  - SPEECH_MAX_UPLOAD_BYTES: 4 MiB on Vercel (with the multipart framing still under PLATFORM_BODY_LIMIT_BYTES), and
 *    that is also its maximum there; 10 MiB elsewhere.
 */
export const PLATFORM_DEFAULTS = {
  DATABASE_POOL_SIZE: { vercel: 3, elsewhere: 10 },
  SPEECH_MAX_UPLOAD_BYTES: { vercel: 4 * 1024 * 1024, elsewhere: 10 * 1024 * 1024 },
} as const;

export const ConfigSchema = z.object({
  // Platform: set by the host, not by the operator (not in the configuration table).
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
  /** The direct (non-pooling) URL of the same database, for migrations (DATABASE_URL_PRECEDENCE). */
  DATABASE_URL_UNPOOLED: postgresUrl(),
  // The names Vercel's database integrations set (Supabase; Neon sets these besides DATABASE_URL*): read when
  // DATABASE_URL / DATABASE_URL_UNPOOLED are unset (DATABASE_URL_PRECEDENCE).
  POSTGRES_URL: postgresUrl(),
  POSTGRES_PRISMA_URL: postgresUrl(),
  POSTGRES_URL_NON_POOLING: postgresUrl(),
  /** Unset: 10, or 3 on Vercel (PLATFORM_DEFAULTS). */
  DATABASE_POOL_SIZE: z.preprocess(
    blank,
    z
      .string()
      .regex(/^\d+$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().min(1, "must be at least 1").max(1_000, "must be at most 1000"))
      .optional(),
  ),

  UPSTASH_REDIS_REST_URL: url(HTTP),
  UPSTASH_REDIS_REST_TOKEN: text(),
  /** The names Vercel's Upstash integration sets; the same store as UPSTASH_REDIS_REST_*, which win when both are set. */
  KV_REST_API_URL: url(HTTP),
  KV_REST_API_TOKEN: text(),
  REDIS_URL: url(["redis:", "rediss:"]),
  RATE_LIMIT_TRANSLATE: rule("60/60s"),
  RATE_LIMIT_BATCH: rule("10/60s"),
  RATE_LIMIT_STT: rule("20/60s"),
  RATE_LIMIT_TTS: rule("20/60s"),
  RATE_LIMIT_DEFAULT: rule("120/60s"),
  // A generous burst (a test suite minting one key per test passes) with a low sustained rate (~1.7/min per IP).
  RATE_LIMIT_ISSUANCE: rule("100/3600s"),
  // Failed authentications per client IP; past it, only keys verified before are looked up (lib/api/auth-throttle.ts).
  RATE_LIMIT_AUTH_FAILURES: rule("30/60s"),
  RATE_LIMIT_TIMEOUT_MS: int(300, 1, 60_000),
  RATE_LIMIT_FAIL_MODE: oneOf(["open", "closed"], "open"),

  // Providers. Each provider descriptor (lib/providers/*.descriptor.ts) names its URL and credential variables here.
  PROVIDER_MODE: oneOf(["auto", "live", "sandbox"], "auto"),
  // What the in-process sandbox answers for a translation: the text echoed, or as machine translation at its worst.
  SANDBOX_TRANSLATION: oneOf(["echo", "hostile"], "echo"),
  SUNBIRD_API_URL: url(HTTP, { fallback: "https://api.sunbird.ai", credentials: false }),
  SUNBIRD_API_TOKEN: text(),
  KHAYA_API_URL: url(HTTP, { fallback: "https://translation-api.ghananlp.org", credentials: false }),
  KHAYA_API_KEY: text(),
  HF_API_URL: url(HTTP, { fallback: "https://router.huggingface.co", credentials: false }),
  HF_TOKEN: text(),
  PROVIDER_TIMEOUT_MS: int(15_000, 1),
  PROVIDER_SPEECH_TIMEOUT_MS: int(190_000, 1),
  PROVIDER_MAX_RETRIES: int(2, 0, 10),
  CIRCUIT_FAILURE_THRESHOLD: int(5, 1),
  CIRCUIT_COOLDOWN_MS: int(30_000, 1),
  // Sunbird's free tier: 50 requests a minute, 500 a day, 5,000 a month (a sliding 31 days never admits more than
  // 5,000 in a calendar month). GhanaNLP and Hugging Face publish no fixed request rate: unlimited until set.
  UPSTREAM_BUDGET_PROVIDER_A: budget("50/60s,500/24h,5000/744h"),
  UPSTREAM_BUDGET_PROVIDER_B: budget("unlimited"),
  UPSTREAM_BUDGET_PROVIDER_C: budget("unlimited"),
  TRANSLATE_DEADLINE_MS: int(20_000, 100),
  BATCH_DEADLINE_MS: int(30_000, 100),
  BATCH_CONCURRENCY_PER_PROVIDER: int(8, 1, 256),
  BATCH_PACKING: bool(true),
  /** A file path or inline JSON overriding the built-in Hugging Face model map (lib/languages/hf-models.json). */
  HF_MODEL_MAP: text(),
  HF_HUB_URL: url(HTTP, { fallback: "https://huggingface.co", credentials: false }),
  AVAILABILITY_TTL_SECONDS: int(3_600, 1, 604_800),
  AVAILABILITY_SYNC_SECONDS: int(60, 1, 604_800),
  HF_ASR_MODEL: z.preprocess(
    blank,
    z
      .string()
      .regex(/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/, 'must be a model id "org/name"')
      .optional()
      .transform((v) => v ?? "openai/whisper-large-v3-turbo"),
  ),
  /** Unset: 10 MiB, or 4 MiB on Vercel (PLATFORM_DEFAULTS). */
  SPEECH_MAX_UPLOAD_BYTES: z.preprocess(
    blank,
    z.string().regex(/^\d+$/, "must be a whole number").transform(Number).pipe(z.number().int().min(1, "must be at least 1")).optional(),
  ),
  SPEECH_MAX_AUDIO_SECONDS: int(600, 1),
  SPEECH_DEADLINE_MS: int(270_000, 100),
  /** Hosts whose audio_url may be http or resolve to a private, loopback or link-local address: a comma list. */
  AUDIO_URL_ALLOWED_HOSTS: z.preprocess(
    blank,
    z
      .string()
      .optional()
      .transform((v) =>
        (v ?? "")
          .split(",")
          .map((h) =>
            h
              .trim()
              .toLowerCase()
              .replace(/^\[(.*)\]$/, "$1"),
          )
          .filter(Boolean),
      ),
  ) as unknown as z.ZodType<string[]>,
  AUDIO_URL_MAX_BYTES: bytes(() => 25 * 1024 * 1024),
  AUDIO_URL_TIMEOUT_MS: int(20_000, 100, 600_000),
  /** Bytes all audio_url fetches in flight may hold in one process (each reserves AUDIO_URL_MAX_BYTES). */
  AUDIO_URL_IN_FLIGHT_BYTES: bytes(() => 100 * 1024 * 1024),
  /** The same for the fetches of one API key. */
  AUDIO_URL_IN_FLIGHT_BYTES_PER_KEY: bytes(() => 50 * 1024 * 1024),
  /**
   * provider_a's transcription windows, seconds: its backend gives up on a request after 120 s, so a recording goes in
   * windows it finishes well within that (docs/configuration.md says how 120 was chosen); each window is a quota unit.
   */
  SUNBIRD_STT_WINDOW_SECONDS: int(120, 10, 600),

  API_KEY_HASH_SECRET: text(),
  NEXTAUTH_SECRET: text(),
  /** next-auth's newer name for NEXTAUTH_SECRET; NEXTAUTH_SECRET wins when both are set. */
  AUTH_SECRET: text(),
  NEXTAUTH_URL: url(HTTP),
  /**
   * Hostnames the MCP endpoint (/mcp) answers under (its Host header) and whose pages may call it (their Origin): the
   * protection against DNS rebinding. NEXTAUTH_URL's hostname is allowed as well (lib/server/settings.ts).
   */
  MCP_ALLOWED_HOSTS: z.preprocess(
    blank,
    z
      .string()
      .optional()
      .transform((v) =>
        (v ?? "localhost,127.0.0.1,[::1]")
          .split(",")
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean),
      ),
  ) as unknown as z.ZodType<string[]>,
  /** Bearer token that adds the operator details to /health (lib/server/health.ts). */
  HEALTH_OPERATOR_TOKEN: text(),
  /** Unset: true on Vercel (its edge sets X-Forwarded-For), false elsewhere (lib/server trustsProxy). */
  TRUST_PROXY: bool(),
  /** V8 heap cap of `npm start` in MiB (scripts/start.mjs applies it, with its own default per database). */
  LUGHA_HEAP_MB: z.preprocess(
    blank,
    z
      .string()
      .regex(/^\d+$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().min(64, "must be at least 64").max(65_536, "must be at most 65536"))
      .optional(),
  ),
  KEY_CACHE_TTL_MS: int(5_000, 0, 300_000),
  USAGE_FLUSH_INTERVAL_MS: int(50, 0, 10_000),

  // The translation cache (lib/cache): the same store as the rate limits.
  TRANSLATION_CACHE: oneOf(["on", "off"], "on"),
  TRANSLATION_CACHE_SCOPE: oneOf(["key", "global"], "key"),
  TRANSLATION_CACHE_TTL_SECONDS: int(7 * 24 * 3600, 1, 365 * 24 * 3600),
  TRANSLATION_CACHE_MAX_BYTES: bytes(() => defaultCacheMaxBytes()),
  TRANSLATION_CACHE_TIMEOUT_MS: int(200, 1, 60_000),

  // Operations (docs/operations.md): the log's level, and OpenTelemetry by its standard variables (the exporters read
  // them too; declared here so a malformed value stops the start and the docs list them).
  LOG_LEVEL: oneOf(["fatal", "error", "warn", "info", "debug", "trace", "silent"], "info"),
  /** Unset: no traces and no OTLP metrics (GET /metrics still answers). */
  OTEL_EXPORTER_OTLP_ENDPOINT: url(HTTP),
  OTEL_EXPORTER_OTLP_PROTOCOL: oneOf(["http/protobuf", "http/json"], "http/protobuf"),
  /** `key=value` pairs, comma-separated, sent with every export (an API token of the collector). */
  OTEL_EXPORTER_OTLP_HEADERS: text(),
  OTEL_SERVICE_NAME: text(),
});

/** Rules over several variables; on the raw values, so they are reported even when another variable is malformed. */
function crossProblems(raw: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  for (const [url, token] of [
    ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN"],
    ["KV_REST_API_URL", "KV_REST_API_TOKEN"],
  ]) {
    if (Boolean(raw[url]) !== Boolean(raw[token])) {
      problems.push(`${raw[url] ? token : url} must be set together with the other Upstash variable`);
    }
  }
  const upload = Number(raw.SPEECH_MAX_UPLOAD_BYTES);
  if (raw.VERCEL && upload > PLATFORM_DEFAULTS.SPEECH_MAX_UPLOAD_BYTES.vercel) {
    problems.push(
      `SPEECH_MAX_UPLOAD_BYTES is ${upload}; on Vercel a request body is at most 4.5 MB, so it must be at most ${PLATFORM_DEFAULTS.SPEECH_MAX_UPLOAD_BYTES.vercel}`,
    );
  }
  const secretName = raw.NEXTAUTH_SECRET ? "NEXTAUTH_SECRET" : "AUTH_SECRET";
  const secret = raw[secretName];
  if (secret !== undefined && isProductionDeployment({ ...raw, DATABASE_URL: queryDatabaseUrl(raw) }) && secret.length < MIN_SECRET_LENGTH) {
    problems.push(
      `${secretName} is ${secret.length} characters; in production it must be at least ${MIN_SECRET_LENGTH} (e.g. \`openssl rand -base64 32\`)`,
    );
  }
  return problems;
}

/** Shortest NEXTAUTH_SECRET accepted in production: 32 characters, about the 256 bits of `openssl rand -base64 32`. */
export const MIN_SECRET_LENGTH = 32;

type PlatformDefaulted = keyof typeof PLATFORM_DEFAULTS;
export type Config = Readonly<Omit<z.output<typeof ConfigSchema>, PlatformDefaulted> & Record<PlatformDefaulted, number>>;
type Env = Record<string, string | undefined>;

/** Every variable the schema reads (platform ones included). */
export const CONFIG_VARIABLES = Object.keys(ConfigSchema.shape) as (keyof Config)[];
/** Set by the host, not listed in docs/configuration.md's table. */
export const PLATFORM_VARIABLES: readonly (keyof Config)[] = [
  "NODE_ENV",
  "VERCEL",
  "LUGHA_LAZY_DB",
  "AUTH_SECRET",
  // Set by Vercel's database integrations; docs/deploy.md's precedence table lists them.
  "POSTGRES_URL",
  "POSTGRES_PRISMA_URL",
  "POSTGRES_URL_NON_POOLING",
];

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
  const platform = result.data.VERCEL ? "vercel" : "elsewhere";
  return Object.freeze({
    ...result.data,
    DATABASE_URL: queryDatabaseUrl(result.data),
    DATABASE_POOL_SIZE: result.data.DATABASE_POOL_SIZE ?? PLATFORM_DEFAULTS.DATABASE_POOL_SIZE[platform],
    SPEECH_MAX_UPLOAD_BYTES: result.data.SPEECH_MAX_UPLOAD_BYTES ?? PLATFORM_DEFAULTS.SPEECH_MAX_UPLOAD_BYTES[platform],
  });
}

const CACHED = Symbol.for("lugha.config");
type WithConfig = typeof globalThis & { [CACHED]?: Config };

/** The process's configuration, parsed from process.env on first use. */
export function config(): Config {
  const g = globalThis as WithConfig;
  g[CACHED] ??= loadConfig(process.env);
  return g[CACHED];
}

/** Every variable's default: the configuration of an empty environment. */
export const CONFIG_DEFAULTS: Config = loadConfig({});
