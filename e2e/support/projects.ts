import { describe, inject, it } from "vitest";

/*
 * The api-* projects run the same files on two databases. A test about one database only (a PostgreSQL restart, two
 * processes sharing one database, a deployment without PostgreSQL) is registered on that project alone: on the other
 * it does not apply, so it is neither run nor reported as skipped.
 */
type Database = "pglite" | "postgres";

export function describeOn(database: Database, name: string, body: () => void) {
  if (inject("database") === database) describe(name, body);
}

export function itOn(database: Database, name: string, body: () => Promise<void>, timeout?: number) {
  if (inject("database") === database) it(name, body, timeout);
}
