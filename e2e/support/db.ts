import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/**
 * Direct database access for tests that must look behind the API (expiry set in the past, "is the plain key
 * anywhere in the database?"). PostgreSQL is reached while the app runs; a PGlite directory only after the app
 * has stopped (PGlite allows one process per data directory).
 */
// biome-ignore lint/suspicious/noExplicitAny: tests read rows column by column and assert each one
export async function sql<T = any>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  if (databaseUrl.startsWith("pglite:")) {
    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(databaseUrl.slice("pglite:".length));
    try {
      return (await db.query<T>(text, params)).rows;
    } finally {
      await db.close();
    }
  }
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Everything the database holds, as text: every row for PostgreSQL; every file of the data directory for PGlite. */
export async function dumpDatabase(databaseUrl: string): Promise<string> {
  if (databaseUrl.startsWith("pglite:")) {
    const dir = databaseUrl.slice("pglite:".length);
    const chunks: string[] = [];
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const p = path.join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else chunks.push(readFileSync(p).toString("latin1"));
      }
    };
    walk(dir);
    return chunks.join("\n");
  }
  return dumpPostgresRows(databaseUrl);
}

/**
 * Every row of every table the database holds, one JSON line each: what `pg_dump --data-only` would print, without
 * needing a pg_dump binary of the server's own version.
 */
async function dumpPostgresRows(databaseUrl: string): Promise<string> {
  const tables = await sql<{ name: string }>(
    databaseUrl,
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const lines: string[] = [];
  for (const { name } of tables) {
    const rows = await sql<{ row: string }>(databaseUrl, `SELECT row_to_json(t)::text AS row FROM ${name} t`);
    lines.push(`-- ${name}`, ...rows.map((r) => r.row));
  }
  return lines.join("\n");
}
