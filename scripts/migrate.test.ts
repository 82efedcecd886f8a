import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

/**
 * `npm run db:migrate` reads the `.env*` files Next.js reads (as `next start` and `npm start` do): the database named in
 * `.env.local` is the one migrated, not the default one.
 */
const repo = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "lugha-migrate-env-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("migrates the DATABASE_URL of .env.local, which wins over .env", async () => {
  const database = path.join(dir, "from-env-local");
  writeFileSync(path.join(dir, ".env"), `DATABASE_URL=pglite:${path.join(dir, "from-env")}\n`);
  writeFileSync(path.join(dir, ".env.local"), `DATABASE_URL=pglite:${database}\n`);
  symlinkSync(path.join(repo, "prisma"), path.join(dir, "prisma")); // the migrations, read from the project directory
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(repo, "node_modules/tsx/dist/cli.mjs"), path.join(repo, "scripts/migrate.ts")],
    {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TSX_TSCONFIG_PATH: path.join(repo, "tsconfig.json") } as unknown as NodeJS.ProcessEnv,
    },
  );
  expect(stdout).toContain(`PGlite at ${database} is up to date.`);
  expect(existsSync(path.join(database, "PG_VERSION"))).toBe(true);
  expect(existsSync(path.join(dir, "from-env"))).toBe(false);
  expect(existsSync(path.join(dir, ".data"))).toBe(false);
}, 60_000);
