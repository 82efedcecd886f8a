// Run by `npm start`'s launcher (scripts/start.mjs) in a child process, before the server: creates and migrates the
// embedded PGlite data directory when it does not exist yet, then exits. Creating a PGlite database runs initdb in a
// WebAssembly instance of its own, which briefly takes more memory than the whole server then needs (docs/benchmark.md
// "Memory"); here that memory is returned to the system when this process ends, before the server starts, so a first
// start peaks no higher than any later one. An existing directory is left to the server, which applies any pending
// migration itself when it opens it (it must not be opened twice at once: a server may already be running on it).
//
// Plain Node.js: the launcher runs before any build, so the TypeScript files read here (lib/db/target.ts,
// lib/db/embedded.ts, lib/db/migrate.ts) import nothing but types and node: modules, and Node.js strips their types.
import { existsSync } from "node:fs";
import path from "node:path";
import { openPglite, pgliteExecutor } from "../lib/db/embedded.ts";
import { applyMigrations } from "../lib/db/migrate.ts";
import { databaseTarget } from "../lib/db/target.ts";

let target;
try {
  target = databaseTarget(process.env.DATABASE_URL || undefined, Boolean(process.env.VERCEL));
} catch {
  // Not a database this script can prepare (a malformed URL, PGlite on Vercel): the server's configuration check and
  // /health say what is wrong with it, in their own words.
  process.exit(0);
}
// PostgreSQL is migrated by `npm run db:migrate`, an in-memory PGlite by the server; PG_VERSION marks a data directory
// initdb has finished.
if (target.kind === "pglite" && target.location && !existsSync(path.join(target.location, "PG_VERSION"))) {
  const started = performance.now();
  const { PGlite } = await import("@electric-sql/pglite");
  const pglite = await openPglite(PGlite, target.location);
  await pglite.waitReady;
  const applied = await applyMigrations(pgliteExecutor(pglite));
  await pglite.close();
  console.log(`Created the embedded database at ${target.location} (${applied.length} migrations, ${Math.round(performance.now() - started)} ms).`);
}
