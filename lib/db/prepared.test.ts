import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPrepared } from "./index";

// A private in-memory PGlite (no migrations needed): runPrepared is what the usage write uses on PGlite.
let pglite: PGlite;
beforeAll(async () => {
  pglite = new PGlite();
  await pglite.exec("CREATE TABLE notes (id int PRIMARY KEY, body jsonb NOT NULL)");
}, 60_000);
afterAll(() => pglite.close());

const INSERT = "INSERT INTO notes SELECT (x->>'id')::int, x FROM jsonb_array_elements($1::jsonb) AS x RETURNING id, body->>'text' AS text";

describe("runPrepared (PGlite)", () => {
  it("prepares once and runs again with new arguments, quotes and backslashes intact", async () => {
    const hostile = `it's a "test" \\ with '' quotes'); DROP TABLE notes; --`;
    const first = await runPrepared<{ id: number; text: string }>(
      pglite,
      "insert_notes",
      INSERT,
      ["jsonb"],
      [JSON.stringify([{ id: 1, text: hostile }])],
    );
    expect(first).toEqual([{ id: 1, text: hostile }]);
    const second = await runPrepared<{ id: number; text: string }>(
      pglite,
      "insert_notes",
      INSERT,
      ["jsonb"],
      [JSON.stringify([{ id: 2, text: "ok" }])],
    );
    expect(second).toEqual([{ id: 2, text: "ok" }]);
    const stored = await pglite.query<{ n: number }>("SELECT count(*)::int AS n FROM notes");
    expect(stored.rows[0].n).toBe(2);
    const statements = await pglite.query<{ name: string }>("SELECT name FROM pg_prepared_statements");
    expect(statements.rows.map((r) => r.name)).toEqual(["insert_notes"]);
  });

  it("refuses a NUL character (PostgreSQL text cannot hold it) without running anything", async () => {
    await expect(runPrepared(pglite, "insert_notes", INSERT, ["jsonb"], ['[{"id": 3, "text": "a\0b"}]'])).rejects.toThrow(/NUL/);
    const stored = await pglite.query<{ n: number }>("SELECT count(*)::int AS n FROM notes WHERE id = 3");
    expect(stored.rows[0].n).toBe(0);
  });

  it("prepares again on the next call when preparing failed", async () => {
    await pglite.exec("CREATE TABLE later (id int)");
    await pglite.exec("DROP TABLE later");
    const select = "SELECT count(*)::int AS n FROM later WHERE id <> $1::int";
    await expect(runPrepared(pglite, "count_later", select, ["int"], ["0"])).rejects.toThrow(/later/);
    await pglite.exec("CREATE TABLE later (id int)");
    expect(await runPrepared<{ n: number }>(pglite, "count_later", select, ["int"], ["0"])).toEqual([{ n: 0 }]);
  });
});
