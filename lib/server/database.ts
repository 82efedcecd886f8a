import type { Config } from "@/lib/config";
import { type DatabaseSource, databaseSource, databaseTarget } from "@/lib/db";

/**
 * The process's one database, kept on globalThis. Start-up (instrumentation.ts) opens it — and on PGlite migrates it —
 * before the first request, and the services (./index.ts) use the same one: PGlite allows one process per data
 * directory, and the instrumentation hook is compiled apart from the routes, so a module-level value would not be shared.
 */
const DATABASE = Symbol.for("lugha.database");
type WithDatabase = typeof globalThis & { [DATABASE]?: DatabaseSource };

export function processDatabase(c: Config): DatabaseSource {
  const g = globalThis as WithDatabase;
  return (g[DATABASE] ??= databaseSource(() => databaseTarget(c.DATABASE_URL, Boolean(c.VERCEL)), { poolSize: c.DATABASE_POOL_SIZE }));
}
