import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/**
 * Applies the committed Prisma migrations (prisma/migrations/<name>/migration.sql) in order and records each one in
 * `_prisma_migrations` the way `prisma migrate deploy` does (same table, same sha256 checksum), so a database
 * migrated here can later be managed by Prisma's own CLI and vice versa.
 *
 * Why not `prisma migrate deploy`: it needs Prisma's native schema engine, which offline machines cannot download.
 */
export interface SqlExecutor {
  /** Runs one or more statements without parameters. */
  exec(sql: string): Promise<void>;
  /** Runs one parameterised statement and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

// Read at run time from the checkout (next start, scripts/migrate.ts); not bundled.
export const MIGRATIONS_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations");

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** An arbitrary constant: serialises concurrent migrators (several app instances starting at once). */
const ADVISORY_LOCK_ID = 7_207_316_100;

/** Applies pending migrations; returns the names applied. Refuses to run over an edited, already-applied migration. */
export async function applyMigrations(db: SqlExecutor, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await loadMigrations());
  await db.exec(MIGRATIONS_TABLE);
  await db.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_ID]);
  try {
    const rows = await db.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const applied = new Map(rows.map((r) => [r.migration_name, r]));
    const done: string[] = [];
    for (const m of all) {
      const prior = applied.get(m.name);
      if (prior) {
        if (!prior.finished_at) throw new Error(`Migration ${m.name} started earlier but never finished; fix it by hand.`);
        if (prior.checksum !== m.checksum) throw new Error(`Migration ${m.name} was edited after it was applied.`);
        continue;
      }
      const id = randomUUID();
      await db.exec("BEGIN");
      try {
        await db.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`, [
          id,
          m.checksum,
          m.name,
        ]);
        await db.exec(m.sql);
        await db.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
        await db.exec("COMMIT");
      } catch (err) {
        await db.exec("ROLLBACK");
        throw new Error(`Migration ${m.name} failed: ${(err as Error).message}`);
      }
      done.push(m.name);
    }
    return done;
  } finally {
    await db.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_ID]);
  }
}
