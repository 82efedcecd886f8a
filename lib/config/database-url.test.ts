import { expect, it } from "vitest";
import { loadConfig, migrationDatabaseUrl } from "./index";

/** docs/deploy.md "Database URL": the names each integration sets, and which URL serves queries and migrations. */
const pooled = "postgres://u:p@pooler.example:6543/db";
const direct = "postgres://u:p@db.example:5432/db";

it.each([
  ["Neon", { DATABASE_URL: pooled, DATABASE_URL_UNPOOLED: direct, POSTGRES_URL: pooled, POSTGRES_URL_NON_POOLING: direct }, pooled, direct],
  ["Supabase", { POSTGRES_URL: pooled, POSTGRES_PRISMA_URL: `${pooled}?pgbouncer=true`, POSTGRES_URL_NON_POOLING: direct }, pooled, direct],
  ["Supabase (Prisma URL only)", { POSTGRES_PRISMA_URL: pooled, POSTGRES_URL_NON_POOLING: direct }, pooled, direct],
  [
    "Prisma Postgres",
    { DATABASE_URL: direct, POSTGRES_URL: direct, PRISMA_DATABASE_URL: "prisma+postgres://accelerate.prisma-data.net/?api_key=k" },
    direct,
    direct,
  ],
  ["DATABASE_URL alone", { DATABASE_URL: direct }, direct, direct],
  ["an operator's DATABASE_URL over an integration's", { DATABASE_URL: direct, POSTGRES_URL: pooled }, direct, direct],
])("%s: queries and migrations use the right URL", (_name, env, queries, migrations) => {
  const c = loadConfig(env);
  expect(c.DATABASE_URL).toBe(queries);
  expect(migrationDatabaseUrl(c)).toBe(migrations);
});

it("nothing set: the embedded database", () => {
  expect(loadConfig({}).DATABASE_URL).toBeUndefined();
  expect(migrationDatabaseUrl(loadConfig({}))).toBeUndefined();
});

it("an integration's URL that is not PostgreSQL is refused by name", () => {
  expect(() => loadConfig({ POSTGRES_URL_NON_POOLING: "mysql://x" })).toThrow(/POSTGRES_URL_NON_POOLING must be postgres/);
});

it("the pool is small on Vercel (one per function instance) unless DATABASE_POOL_SIZE says otherwise", () => {
  expect(loadConfig({}).DATABASE_POOL_SIZE).toBe(10);
  expect(loadConfig({ VERCEL: "1", DATABASE_URL: direct }).DATABASE_POOL_SIZE).toBe(3);
  expect(loadConfig({ VERCEL: "1", DATABASE_URL: direct, DATABASE_POOL_SIZE: "8" }).DATABASE_POOL_SIZE).toBe(8);
});

it("STT uploads fit Vercel's 4.5 MB request body there: 4 MiB by default and at most; 10 MiB elsewhere", () => {
  expect(loadConfig({}).SPEECH_MAX_UPLOAD_BYTES).toBe(10 * 1024 * 1024);
  expect(loadConfig({ SPEECH_MAX_UPLOAD_BYTES: "20000000" }).SPEECH_MAX_UPLOAD_BYTES).toBe(20_000_000);
  expect(loadConfig({ VERCEL: "1" }).SPEECH_MAX_UPLOAD_BYTES).toBe(4 * 1024 * 1024);
  expect(loadConfig({ VERCEL: "1", SPEECH_MAX_UPLOAD_BYTES: "1000000" }).SPEECH_MAX_UPLOAD_BYTES).toBe(1_000_000);
  expect(() => loadConfig({ VERCEL: "1", SPEECH_MAX_UPLOAD_BYTES: "10485760" })).toThrow(
    /SPEECH_MAX_UPLOAD_BYTES is 10485760; on Vercel a request body is at most 4.5 MB, so it must be at most 4194304/,
  );
});
