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

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function statusOf(row: { revokedAt: Date | null; expiresAt: Date }, now: Date): KeyStatus {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}

export type KeyRow = {
  id: string;
  name: string;
  displayPrefix: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  requestsTotal: bigint;
};

export function keyRecord(row: KeyRow, now: Date): KeyRecord {
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
