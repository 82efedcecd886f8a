import { getPrisma } from "@/lib/db";
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedKey } from "./format";

const DAY_MS = 86_400_000;

export interface AuthenticatedKey {
  id: string;
  name: string;
  displayPrefix: string;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  /** Includes the request being served. */
  requestsTotal: number;
}

export async function issueKey(name: string, lifetimeDays = 365, now = new Date()) {
  const prisma = await getPrisma();
  const apiKey = generateApiKey();
  // Timestamps are stored at millisecond precision; truncate first so the response equals what /keys/me returns.
  const createdAt = new Date(Math.floor(now.getTime()));
  const row = await prisma.apiKey.create({
    data: {
      name,
      keyHash: hashApiKey(apiKey),
      displayPrefix: displayPrefix(apiKey),
      createdAt,
      expiresAt: new Date(createdAt.getTime() + lifetimeDays * DAY_MS),
    },
  });
  return { apiKey, row };
}

interface AuthRow {
  id: string;
  name: string;
  display_prefix: string;
  created_at: Date;
  expires_at: Date;
  prev_last_used_at: Date | null;
  requests_total: bigint;
}

/**
 * Looks the key up by hash and, in the same statement, counts this request: requests_total + 1, last_used_at and
 * today's usage row. One round trip, atomic under any concurrency, and a key that is unknown, expired or revoked
 * matches nothing (so is never counted). Returns null for all of those: the caller answers INVALID_API_KEY.
 */
export async function authenticateAndCount(plainKey: string): Promise<AuthenticatedKey | null> {
  if (!isWellFormedKey(plainKey)) return null;
  const prisma = await getPrisma();
  const rows = await prisma.$queryRaw<AuthRow[]>`
    WITH k AS (
      UPDATE api_keys AS a
         SET requests_total = a.requests_total + 1, last_used_at = now()
        FROM api_keys AS before
       WHERE a.key_hash = ${hashApiKey(plainKey)} AND before.id = a.id
         AND a.revoked_at IS NULL AND a.expires_at > now()
      RETURNING a.id, a.name, a.display_prefix, a.created_at, a.expires_at, a.requests_total,
                before.last_used_at AS prev_last_used_at
    ), u AS (
      INSERT INTO usage_daily (key_id, day, requests)
      SELECT id, (now() AT TIME ZONE 'UTC')::date, 1 FROM k
      ON CONFLICT (key_id, day) DO UPDATE SET requests = usage_daily.requests + 1
    )
    SELECT * FROM k`;
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    name: r.name,
    displayPrefix: r.display_prefix,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    lastUsedAt: r.prev_last_used_at,
    requestsTotal: Number(r.requests_total),
  };
}

/** Marks the key revoked; from then on it authenticates nothing. Idempotent. */
export async function revokeKey(id: string, now = new Date()): Promise<void> {
  const prisma = await getPrisma();
  await prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
}

/** Adds translated characters to today's usage row (the dashboard's second series). */
export async function recordCharactersTranslated(keyId: string, characters: number): Promise<void> {
  if (characters <= 0) return;
  const prisma = await getPrisma();
  await prisma.$executeRaw`
    INSERT INTO usage_daily (key_id, day, requests, characters_translated)
    VALUES (${keyId}::uuid, (now() AT TIME ZONE 'UTC')::date, 0, ${characters})
    ON CONFLICT (key_id, day) DO UPDATE SET characters_translated = usage_daily.characters_translated + ${characters}`;
}
