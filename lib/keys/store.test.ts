import { beforeAll, describe, expect, it } from "vitest";
import { databaseSource } from "@/lib/db";
import { KeyStore } from "./store";

// An in-memory PGlite, migrated with the committed migrations (lib/db), private to this test file. The key store's
// queries are SQL (docs/deploy.md "Database"): these check what the portal reads and what revoking does.
const db = databaseSource({ kind: "pglite" }, { poolSize: 1 });
const keys = new KeyStore(db, { hashSecret: "a secret of the test", cacheTtlMs: 5_000, flushIntervalMs: 0 });

beforeAll(async () => void (await db()), 60_000);

describe("key store", () => {
  it("issues a key that the portal's lookups find as issued, by id and by the plain key", async () => {
    const now = new Date("2026-11-29T06:00:00.123Z");
    const { apiKey, row } = await keys.issueKey("portal", 30, now);
    const expected = {
      id: row.id,
      name: "portal",
      displayPrefix: row.displayPrefix,
      createdAt: now,
      expiresAt: new Date(now.getTime() + 30 * 86_400_000),
      revokedAt: null,
      lastUsedAt: null,
      requestsTotal: 0,
      status: "active",
    };
    expect(apiKey.startsWith(row.displayPrefix)).toBe(true);
    expect(await keys.findKeyById(row.id, now)).toEqual(expected);
    expect(await keys.findActiveKey(apiKey, now)).toEqual(expected);
    expect(await keys.findKeyById("00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await keys.findKeyById("not-a-uuid")).toBeNull();
    expect(await keys.findActiveKey(`${apiKey.slice(0, -1)}${apiKey.endsWith("a") ? "b" : "a"}`, now)).toBeNull();
  });

  it("counts requests, and the portal sees the count and the last use", async () => {
    const { apiKey, row } = await keys.issueKey("counted");
    expect(await keys.authenticateAndCount(apiKey)).toMatchObject({ id: row.id, requestsTotal: 1 });
    expect(await keys.authenticateAndCount(apiKey)).toMatchObject({ id: row.id, requestsTotal: 2 });
    const record = await keys.findKeyById(row.id);
    expect(record).toMatchObject({ requestsTotal: 2, status: "active" });
    expect(record?.lastUsedAt).toBeInstanceOf(Date);
  });

  it("an expired key is found by id with its status, and not as an active key", async () => {
    const issued = new Date(Date.now() - 3 * 86_400_000);
    const { apiKey, row } = await keys.issueKey("expired", 1, issued);
    expect(await keys.findKeyById(row.id)).toMatchObject({ status: "expired" });
    expect(await keys.findActiveKey(apiKey)).toBeNull();
    expect(await keys.authenticateAndCount(apiKey)).toBeNull();
  });

  it("revoking marks the key once, and it no longer authenticates", async () => {
    const { apiKey, row } = await keys.issueKey("revoked");
    const at = new Date("2026-11-29T06:30:00.000Z");
    await keys.revokeKey(row.id, at);
    await keys.revokeKey(row.id, new Date("2026-11-30T00:00:00.000Z")); // idempotent: the first time stays
    expect(await keys.findKeyById(row.id)).toMatchObject({ status: "revoked", revokedAt: at });
    expect(await keys.findActiveKey(apiKey)).toBeNull();
    expect(await keys.authenticateAndCount(apiKey)).toBeNull();
  });
});
