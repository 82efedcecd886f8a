/**
 * Applies the committed migrations to the database (PostgreSQL or PGlite):
 *   DATABASE_URL=postgres://user:pass@host:5432/lugha npm run db:migrate
 * The URL is the direct one when a database integration provides both (lib/config DATABASE_URL_PRECEDENCE.migrations:
 * DATABASE_URL_UNPOOLED, POSTGRES_URL_NON_POOLING, then the server's own). Like `next start` and `npm start`, it reads
 * the `.env*` files of the directory first (Next.js's loader, the same files in the same order; a variable already in
 * the environment wins), so the database of `.env.local` is the one migrated.
 * The embedded PGlite database is migrated automatically on first use; PostgreSQL only by this command
 * (run it once per deploy, before the new version takes traffic; on Vercel the build command runs it).
 */
import { loadEnvConfig } from "@next/env";
import pg from "pg";
import { config, migrationDatabaseUrl } from "../lib/config";
import { databaseSource, databaseTarget } from "../lib/db";
import { applyMigrations } from "../lib/db/migrate";

async function main() {
  loadEnvConfig(process.cwd(), process.env.NODE_ENV === "development");
  const c = config();
  const target = databaseTarget(migrationDatabaseUrl(c), Boolean(c.VERCEL));
  if (target.kind === "pglite") {
    await databaseSource(target, { poolSize: 1 })(); // opening PGlite applies pending migrations
    console.log(`PGlite at ${target.location ?? "memory"} is up to date.`);
    return;
  }
  const client = new pg.Client({ connectionString: target.location, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const applied = await applyMigrations({
      exec: async (sql) => void (await client.query(sql)),
      query: async (sql, params) => (await client.query(sql, params as unknown[])).rows,
    });
    console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.");
  } finally {
    await client.end();
  }
}

main().catch((err) => {
  console.error(`Migration failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
