/**
 * How the embedded PGlite database is started, shared by the server (./index.ts) and the child process that prepares a
 * new data directory before the server starts (scripts/prepare-pglite.mjs, run by `npm start`'s launcher with Node.js's
 * own type stripping: so it imports nothing but types and node: modules).
 */
import { mkdir } from "node:fs/promises";
import type { PGlite } from "@electric-sql/pglite";
import type { SqlExecutor } from "./migrate";

/**
 * PGlite reserves shared_buffers inside its WebAssembly memory, which never shrinks: the default 128 MB is most of the
 * embedded database's resident size, for tables of a few kilobytes. 16 MB takes about 130 MB off the server's RSS and
 * 0.1 s off opening it (docs/benchmark.md "The hot path"). A start parameter, so a data directory's own postgresql.conf
 * is untouched.
 */
const SHARED_BUFFERS = "16MB";

/** PGlite's start parameters: its defaults (`PGlite.defaultStartParams`) with the smaller shared_buffers. */
function pgliteStartParams(defaults: readonly string[]): string[] {
  return [...defaults, "-c", `shared_buffers=${SHARED_BUFFERS}`];
}

/**
 * A PGlite instance on `location` (a data directory; undefined: in memory), with the start parameters above. The
 * directory and its parents are created first: PGlite's own mkdir is not recursive, so on a fresh clone the default
 * `.data/pglite` failed because `.data/` did not exist yet.
 */
export async function openPglite(PGliteClass: typeof PGlite, location: string | undefined): Promise<PGlite> {
  if (location) await mkdir(location, { recursive: true });
  return new PGliteClass(location, { startParams: pgliteStartParams(PGliteClass.defaultStartParams) });
}

/** The migrator's view of a PGlite instance (./migrate.ts). */
export function pgliteExecutor(pglite: PGlite): SqlExecutor {
  return {
    exec: async (sql) => void (await pglite.exec(sql)),
    query: async <T>(sql: string, params?: unknown[]) => (await pglite.query<T>(sql, params)).rows,
  };
}
