// `npm start`: `next start` (arguments passed through) with the V8 heap capped at LUGHA_HEAP_MB. Without a cap V8 sizes
// the heap from the machine's memory and collects lazily, so a busy server grows to gigabytes of garbage on a large
// host; capped, it collects sooner and stays inside a container's memory. The translation cache's default bound is at
// most an eighth of the heap limit (lib/cache/config.ts). The value is validated with the rest of the configuration at
// start-up (lib/config): a malformed one is not applied here, and the server then stops naming it. A
// --max-old-space-size already in NODE_OPTIONS comes after ours, so it wins.
//
// The default depends on the database (measured with `npm run bench -- --check`, docs/benchmark.md): on PostgreSQL the
// server's live heap stays well under 384 MiB; with the embedded PGlite it does not, and below about 1 GiB the server
// spends its time collecting garbage (at 256 MiB a translation cost 1.7× the CPU).
//
// --no-memory-reducer: after a few seconds without requests V8's memory reducer shrinks the heap to a fraction of its
// working size (and the young generation with it). The next burst then ran at 1.5-2x the CPU per translation for tens of
// seconds while the heap grew back (measured: 10 s rounds of load 15 s apart, PGlite, 2.0-3.3 ms per request instead of
// 1.4-1.6; docs/benchmark.md "The hot path"). A server's traffic comes in bursts, and its memory is bounded by the heap cap above
// anyway, so the memory handed back while idle is not worth that. A V8 flag that NODE_OPTIONS does not accept, so it
// is passed as an argument.
//
// On the embedded PGlite, two more things happen (measured in docs/benchmark.md "Memory"):
// - A data directory that does not exist yet is created and migrated first, by scripts/prepare-pglite.mjs in a child
//   process that exits before the server starts: creating it runs initdb, which for a moment takes more memory than the
//   server ever needs (a first start peaked at ≈1.2 GB in the server), and that memory is handed back with the process.
// - --liftoff-only: V8 compiles PGlite's WebAssembly with its baseline compiler only. The optimising compiler, working
//   on PostgreSQL's largest functions while the database opens, took ≈530 MB for a few hundred milliseconds (peak
//   ≈780 MB for a server that then idles at ≈280 MB); baseline-compiled, the database is slower per query, and the
//   request path runs almost none (keys are cached, usage counts are written in batches).
//
// process.execve replaces this process with the server (same pid, signals and exit code; no second Node process).
//
// The `.env*` files are read first, by Next.js's own loader (the files `next start` reads, in the same order; a
// variable already in the environment wins), so the heap default sees the DATABASE_URL of `.env.local`.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import nextEnv from "@next/env";

nextEnv.loadEnvConfig(process.cwd(), false);
const databaseUrl = ["DATABASE_URL", "POSTGRES_URL", "POSTGRES_PRISMA_URL"].map((name) => process.env[name]?.trim()).find(Boolean);
const onPostgres = /^postgres(ql)?:\/\//.test(databaseUrl ?? "");
const DEFAULT_HEAP_MB = onPostgres ? 384 : 1024;

const raw = process.env.LUGHA_HEAP_MB?.trim();
const heapMb = raw ? (/^\d+$/.test(raw) ? Number(raw) : undefined) : DEFAULT_HEAP_MB;
const nodeOptions = [heapMb ? `--max-old-space-size=${heapMb}` : "", process.env.NODE_OPTIONS ?? ""].join(" ").trim();

/** V8 flags for the database's WebAssembly, given to the preparing child and the server alike. */
const wasmFlags = onPostgres ? [] : ["--liftoff-only"];
if (!onPostgres) {
  const prepare = path.join(import.meta.dirname, "prepare-pglite.mjs");
  // Node.js warns that it had to guess the module type of the TypeScript files the script reads (package.json names none).
  const r = spawnSync(process.execPath, [...wasmFlags, "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", prepare], {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: databaseUrl ?? "" },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const next = createRequire(import.meta.url).resolve("next/dist/bin/next");
process.execve(process.execPath, [process.execPath, "--no-memory-reducer", ...wasmFlags, next, "start", ...process.argv.slice(2)], {
  ...process.env,
  NODE_OPTIONS: nodeOptions,
});
