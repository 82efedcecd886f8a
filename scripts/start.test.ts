import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadMigrations } from "../lib/db/migrate";

/**
 * `npm start`'s launcher (scripts/start.mjs), run for real: it replaces itself with `next start` under the NODE_OPTIONS
 * it computed. A probe preloaded through the caller's NODE_OPTIONS reports what the server process got — its V8 heap
 * limit, NODE_OPTIONS, pid and arguments — and exits before Next.js starts.
 */
const dir = mkdtempSync(path.join(tmpdir(), "lugha-start-"));
const probe = path.join(dir, "probe.cjs");
writeFileSync(
  probe,
  `// The launcher runs with the caller's NODE_OPTIONS too: only the process it becomes reports.
if (!/next[\\/]dist[\\/]bin[\\/]next$/.test(process.argv[1] ?? "")) return;
const v8 = require("node:v8");
process.stdout.write(JSON.stringify({
  heapLimitMb: Math.round(v8.getHeapStatistics().heap_size_limit / 1048576),
  nodeOptions: process.env.NODE_OPTIONS,
  pid: process.pid,
  argv: process.argv.slice(1),
  execArgv: process.execArgv,
}));
process.exit(0);
`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Probe {
  heapLimitMb: number;
  nodeOptions: string;
  pid: number;
  argv: string[];
  execArgv: string[];
}

/** An embedded database that is never created on disk (the default would be the checkout's .data/pglite). */
const PGLITE = { DATABASE_URL: "pglite:memory" };
const POSTGRES = { DATABASE_URL: "postgres://lugha@127.0.0.1:5432/lugha" };

function launch(env: Record<string, string>, args: string[] = []): Probe & { launcherPid: number; printed: string[] } {
  const r = spawnSync(process.execPath, ["scripts/start.mjs", ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      ...env,
      NODE_OPTIONS: `${env.NODE_OPTIONS ?? ""} --require ${probe}`.trim(),
    },
    encoding: "utf8",
    timeout: 90_000,
  });
  expect(r.status, r.stderr).toBe(0);
  // The probe's line comes last (the launcher may print before it).
  const lines = r.stdout.trim().split("\n");
  return { ...(JSON.parse(lines.at(-1)!) as Probe), launcherPid: r.pid ?? -1, printed: lines.slice(0, -1) };
}

/** The heap limit V8 reports for a plain process given this old-space cap (it adds the young generation). */
function heapLimitWith(oldSpaceMb: number): number {
  const r = spawnSync(
    process.execPath,
    [`--max-old-space-size=${oldSpaceMb}`, "-p", 'Math.round(require("node:v8").getHeapStatistics().heap_size_limit / 1048576)'],
    { encoding: "utf8" },
  );
  return Number(r.stdout.trim());
}

describe("npm start's launcher (scripts/start.mjs)", () => {
  it("caps the heap at 1024 MiB on the embedded PGlite and 384 MiB on PostgreSQL", () => {
    const pglite = launch(PGLITE);
    expect(pglite.nodeOptions).toMatch(/^--max-old-space-size=1024 /);
    expect(pglite.heapLimitMb).toBe(heapLimitWith(1024));
    const postgres = launch(POSTGRES);
    expect(postgres.nodeOptions).toMatch(/^--max-old-space-size=384 /);
    expect(postgres.heapLimitMb).toBe(heapLimitWith(384));
  });

  it("takes LUGHA_HEAP_MB, and a --max-old-space-size already in NODE_OPTIONS wins over it", () => {
    expect(launch({ ...PGLITE, LUGHA_HEAP_MB: "512" }).heapLimitMb).toBe(heapLimitWith(512));
    expect(launch({ ...PGLITE, LUGHA_HEAP_MB: "512", NODE_OPTIONS: "--max-old-space-size=300" }).heapLimitMb).toBe(heapLimitWith(300));
  });

  it("applies no cap for a malformed LUGHA_HEAP_MB (the server's configuration check then stops it, naming the variable)", () => {
    expect(launch({ ...PGLITE, LUGHA_HEAP_MB: "lots" }).nodeOptions).not.toMatch(/max-old-space-size/);
  });

  it("becomes next start itself, in the same process, with the arguments passed through", () => {
    const p = launch(PGLITE, ["-p", "4321", "-H", "127.0.0.1"]);
    expect(p.pid).toBe(p.launcherPid);
    expect(p.argv.at(0)).toMatch(/next[/\\]dist[/\\]bin[/\\]next$/);
    expect(p.argv.slice(1)).toEqual(["start", "-p", "4321", "-H", "127.0.0.1"]);
  });

  it("runs the server without V8's memory reducer, and on PGlite with WebAssembly compiled by the baseline compiler only", () => {
    expect(launch(PGLITE).execArgv).toEqual(["--no-memory-reducer", "--liftoff-only"]);
    expect(launch(POSTGRES).execArgv).toEqual(["--no-memory-reducer"]);
  });

  it("leaves a DATABASE_URL it cannot use to the server, which names the problem (the launcher still becomes next start)", () => {
    const p = launch({ DATABASE_URL: "mysql://lugha@127.0.0.1/lugha" });
    expect(p.printed).toEqual([]);
    expect(p.argv.at(0)).toMatch(/next[/\\]dist[/\\]bin[/\\]next$/);
  });

  it("creates and migrates a new PGlite data directory in a child process before the server starts, and only once", async () => {
    // Its parent does not exist either, as `.data/` on a fresh clone.
    const data = path.join(dir, "fresh", "data");
    const first = launch({ DATABASE_URL: `pglite:${data}` });
    // The probe stops the server before Next.js starts: the directory was made by the launcher's child.
    expect(first.printed.join("\n")).toMatch(/^Created the embedded database at .+data \(\d+ migrations, \d+ ms\)\.$/);
    expect(existsSync(path.join(data, "PG_VERSION"))).toBe(true);
    const second = launch({ DATABASE_URL: `pglite:${data}` });
    expect(second.printed).toEqual([]);

    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(data);
    try {
      const { rows } = await db.query<{ migration_name: string }>(
        `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name`,
      );
      expect(rows.map((r) => r.migration_name)).toEqual((await loadMigrations()).map((m) => m.name));
    } finally {
      await db.close();
    }
  }, 120_000); // initdb runs in the launcher's child: tens of seconds on a busy machine
});
