import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteExecutor } from "@/lib/db/embedded";
import { applyMigrations } from "@/lib/db/migrate";
import { writeSql } from "./usage-buffer";

/**
 * The usage write runs every flush interval (50 ms) under load, as a prepared statement, so with PostgreSQL's generic
 * plan. Its cost must not grow with the request log: the expiry of old lines has to use the (key_id, at) index, not
 * scan the table. Checked on the migrated schema, with a log of some thousands of lines and no statistics (the embedded
 * PGlite runs no autovacuum, so it never has any), in the plan PostgreSQL caches for a prepared statement
 * (plan_cache_mode = force_generic_plan).
 */
let pglite: PGlite;
const keyId = randomUUID();
beforeAll(async () => {
  pglite = new PGlite();
  await applyMigrations(pgliteExecutor(pglite));
  await pglite.query(
    `INSERT INTO api_keys (id, name, key_hash, display_prefix, expires_at) VALUES ($1, 'plan', $2, 'lg_plan', now() + interval '1 year')`,
    [keyId, randomUUID()],
  );
  await pglite.query(
    `INSERT INTO request_log (key_id, at, request_id, endpoint, status, latency_ms, provider, model, cache)
     SELECT $1::uuid, now() - (g || ' minutes')::interval, 'req_' || g, 'POST /api/v1/translate', 200, 3, 'provider_a', 'm', ''
       FROM generate_series(1, 5000) AS g`,
    [keyId],
  );
}, 60_000);
afterAll(() => pglite.close());

describe("the usage write's plan", () => {
  it("expires old request log lines through the index, without scanning the log", async () => {
    await pglite.exec(`PREPARE usage_write(jsonb, jsonb, jsonb, jsonb) AS ${writeSql()}`);
    await pglite.exec("SET plan_cache_mode = force_generic_plan");
    const now = new Date().toISOString();
    const line = { id: keyId, at: now, q: "req_x", e: "POST /api/v1/translate", s: 200, l: 3, p: "provider_a", m: "m", c: "" };
    const args = [[{ id: keyId, n: 1, last_used: now }], [], [], [line]].map((a) => `'${JSON.stringify(a)}'`);
    const { rows } = await pglite.query<{ "QUERY PLAN": string }>(`EXPLAIN EXECUTE usage_write(${args.join(", ")})`);
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    const expiry = plan.slice(plan.indexOf("CTE expired"));
    expect(expiry).toMatch(/Index Scan|Index Only Scan|Bitmap Index Scan/);
    expect(plan).not.toMatch(/Seq Scan on request_log/);
  });
});
