import { PrismaClient } from "@/lib/generated/prisma/client";
import { errorFields, processLog } from "@/lib/kit/log";
import { inSpan, tracingOn } from "@/lib/kit/telemetry";
import { openPglite, pgliteExecutor } from "./embedded";
import { applyMigrations } from "./migrate";
import type { DatabaseTarget } from "./target";

/**
 * The database behind Lugha: one Prisma schema and client for both engines.
 *  - DATABASE_URL unset            → PGlite (Postgres in WASM, in-process) at .data/pglite, migrated on first use
 *  - DATABASE_URL=pglite:<dir>     → PGlite at <dir>;  pglite:memory → in-memory PGlite (tests)
 *  - DATABASE_URL=postgres(ql)://  → PostgreSQL through @prisma/adapter-pg; migrate with `npm run db:migrate`
 */
export { type DatabaseKind, type DatabaseTarget, databaseTarget, PgliteOnServerlessError } from "./target";

interface DatabaseBase {
  prisma: PrismaClient;
  /** Cheap liveness probe for /health. */
  ping(): Promise<void>;
}

export type Database = (DatabaseBase & { kind: "postgres" }) | (DatabaseBase & { kind: "pglite"; pglite: PGliteInstance });

type PGliteInstance = import("@electric-sql/pglite").PGlite;

/** The database, opened on first use and shared (lib/server builds one per process). */
export type DatabaseSource = () => Promise<Database>;

export interface DatabaseOptions {
  /** PostgreSQL connections per instance (DATABASE_POOL_SIZE). */
  poolSize: number;
}

/**
 * Opens `target` on the first call and hands every later call the same database. A failed open is forgotten, so the
 * next call tries again (e.g. PostgreSQL was restarting). One per process: PGlite allows one process per data directory.
 * `target` may be a function, read at the first open, so a target that cannot be used here (PGlite on Vercel) is an
 * error of the calls that need the database — /health's "down" — rather than of building the services.
 */
export function databaseSource(target: DatabaseTarget | (() => DatabaseTarget), options: DatabaseOptions): DatabaseSource {
  let opening: Promise<Database> | undefined;
  return () => {
    opening ??= Promise.resolve()
      .then(() => openDatabase(typeof target === "function" ? target() : target, options))
      .catch((err) => {
        opening = undefined;
        throw err;
      });
    return opening;
  };
}

/** How long a PostgreSQL connection may sit idle in the pool before it is closed. */
export const IDLE_TIMEOUT_MS = 5_000;
/**
 * With tracing on (OTEL_EXPORTER_OTLP_ENDPOINT), every Prisma query runs in a span `db <Model>.<operation>`; without,
 * the client is returned as it is (no extension on the query path).
 */
function traced(prisma: PrismaClient): PrismaClient {
  if (!tracingOn()) return prisma;
  return prisma.$extends({
    query: {
      $allOperations({ model, operation, args, query }) {
        const attributes = { "db.system.name": "postgresql", "db.operation.name": operation, ...(model ? { "db.collection.name": model } : {}) };
        return inSpan(`db ${model ?? "raw"}.${operation}`, attributes, () => query(args));
      },
    },
  }) as unknown as PrismaClient;
}

async function openDatabase(target: DatabaseTarget, options: DatabaseOptions): Promise<Database> {
  if (target.kind === "postgres") {
    const [{ PrismaPg }, { default: pg }, { attachDatabasePool }] = await Promise.all([
      import("@prisma/adapter-pg"),
      import("pg"),
      import("@vercel/functions"),
    ]);
    const pool = new pg.Pool({
      connectionString: target.location,
      max: options.poolSize,
      connectionTimeoutMillis: 5_000,
      // A dead server must fail requests quickly (clean 503s), not hang them.
      query_timeout: 10_000,
      // Short-lived instances: an idle connection is closed after 5 s rather than left to be cut by a pooler, a
      // firewall or a suspended function (the next query would find it dead).
      idleTimeoutMillis: IDLE_TIMEOUT_MS,
    });
    // A pooled connection that dies while idle (server restart, pg_terminate_backend, a pooler's timeout) emits
    // "error" on the pool; unhandled, that would end the process. The pool drops it and the next query opens another.
    pool.on("error", (err) =>
      processLog().warn(
        { event: "database_idle_connection_closed", ...errorFields(err) },
        "an idle connection was closed; the next query opens a new one",
      ),
    );
    // On Vercel: keeps a suspended function alive until its idle connections are released, so none is leaked (a
    // no-op elsewhere).
    attachDatabasePool(pool);
    const adapter = new PrismaPg(pool);
    const prisma = traced(new PrismaClient({ adapter }));
    // Loads Prisma's query compiler (a WebAssembly module) now, not in the first request; opens no connection.
    await prisma.$connect();
    return { kind: "postgres", prisma, ping: async () => void (await prisma.$queryRaw`SELECT 1`) };
  }

  // Imported by Node.js at run time, neither bundled nor traced (turbopackIgnore): the embedded database serves one
  // long-lived server with a disk, never a serverless function (databaseTarget refuses it on Vercel), so the functions
  // Vercel deploys do not carry its 20 MB. `next start` finds it in node_modules.
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([
    import(/* turbopackIgnore: true */ "@electric-sql/pglite"),
    import(/* turbopackIgnore: true */ "pglite-prisma-adapter"),
  ]);
  const pglite = await openPglite(PGlite, target.location);
  const prisma = traced(new PrismaClient({ adapter: new PrismaPGlite(pglite) }));
  // Prisma's query compiler (a WebAssembly module) loads while PGlite starts, rather than after it in the first query:
  // ≈0.1 s off a cold start (docs/benchmark.md "The hot path"). Connecting the adapter sends no SQL, so nothing runs before migrating.
  await Promise.all([pglite.waitReady.then(() => applyMigrations(pgliteExecutor(pglite))), prisma.$connect()]);
  return { kind: "pglite", prisma, pglite, ping: async () => void (await pglite.query("SELECT 1")) };
}

const preparedStatements = new WeakMap<PGliteInstance, Map<string, Promise<unknown>>>();

/**
 * Runs `sql` (parameters $1…$n of the given types) on PGlite as a statement prepared once per database session. PGlite
 * parses and plans every other statement on each call, and it does so on the server's own thread: for the usage write
 * that costs more than running it (≈1.3 → 0.5 ms of CPU per write). PGlite's query API has no named statements, so
 * the arguments travel as SQL string literals (quotes doubled; standard_conforming_strings is on, as by default).
 */
export async function runPrepared<T>(pglite: PGliteInstance, name: string, sql: string, types: string[], args: string[]): Promise<T[]> {
  let prepared = preparedStatements.get(pglite);
  if (!prepared) preparedStatements.set(pglite, (prepared = new Map()));
  let ready = prepared.get(name);
  if (!ready) {
    ready = pglite.exec(`PREPARE ${name}(${types.join(", ")}) AS ${sql}`);
    prepared.set(name, ready);
    ready.catch(() => prepared.delete(name)); // the next call prepares again
  }
  await ready;
  const literals = args.map((arg) => {
    if (arg.includes("\0")) throw new Error("a PostgreSQL text value cannot contain NUL");
    return `'${arg.replaceAll("'", "''")}'`;
  });
  // The simple query protocol: one message, where query() sends five.
  const results = await pglite.exec(`EXECUTE ${name}(${literals.join(", ")})`);
  return (results.at(-1)?.rows ?? []) as T[];
}
