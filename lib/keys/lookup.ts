import { getPrisma } from "@/lib/db";
import { hashApiKey, isWellFormedKey } from "./format";
import { flushUsage } from "./store";

/**
 * Read-only key lookups for the developer portal. Unlike authenticateAndCount (lib/keys/store.ts), nothing here
 * counts a request, touches last_used_at or spends a rate limit: the portal reads a key, it does not use it.
 */
export type KeyStatus = "active" | "expired" | "revoked";

export interface KeyRecord {
  id: string;
  name: string;
  displayPrefix: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  requestsTotal: number;
  status: KeyStatus;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function statusOf(row: { revokedAt: Date | null; expiresAt: Date }, now: Date): KeyStatus {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}

type Row = {
  id: string;
  name: string;
  displayPrefix: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  requestsTotal: bigint;
};

function toRecord(row: Row, now: Date): KeyRecord {
  return {
    id: row.id,
    name: row.name,
    displayPrefix: row.displayPrefix,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
    requestsTotal: Number(row.requestsTotal),
    status: statusOf(row, now),
  };
}

/** The key by its id (the portal session holds only this), whatever its status; null when there is no such key. */
export async function findKeyById(id: string, now = new Date()): Promise<KeyRecord | null> {
  if (!UUID.test(id)) return null;
  await flushUsage(); // counts are written just after each response; make sure this instance's are in
  const prisma = await getPrisma();
  const row = await prisma.apiKey.findUnique({ where: { id } });
  return row ? toRecord(row, now) : null;
}

/**
 * The key a plain-text value names, when it is well formed, known, unexpired and unrevoked; otherwise null.
 * Lookup is by hash (the plain key is never compared or stored). Does not count as a request.
 */
export async function findActiveKey(plainKey: string, now = new Date()): Promise<KeyRecord | null> {
  if (!isWellFormedKey(plainKey)) return null;
  const prisma = await getPrisma();
  const row = await prisma.apiKey.findUnique({ where: { keyHash: hashApiKey(plainKey) } });
  if (!row) return null;
  const record = toRecord(row, now);
  return record.status === "active" ? record : null;
}
