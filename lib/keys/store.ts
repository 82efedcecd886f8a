import { hash } from "node:crypto";
import { getPrisma } from "@/lib/db";
import { KeyCache, keyCacheTtlFromEnv, type VerifiedKey } from "./cache";
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedKey } from "./format";
import { databaseUsageWriter, type RequestOutcome, UsageBuffer, usageFlushIntervalFromEnv } from "./usage-buffer";

const DAY_MS = 86_400_000;

export interface AuthenticatedKey {
  id: string;
  name: string;
  displayPrefix: string;
  createdAt: Date;
  expiresAt: Date;
  /** The use before this one. Only from authenticateAndCount (exact routes); null on the cached path. */
  lastUsedAt: Date | null;
  /** Includes the request being served. Only from authenticateAndCount (exact routes); null on the cached path. */
  requestsTotal: number | null;
}

/*
 * The hot path (README "Performance and the hot path"): a request with a key costs no database round trip.
 *   authenticateKey      verified-key cache (lib/keys/cache.ts) → on a miss one indexed SELECT by hash (concurrent
 *                        misses for the same key share it) → the request is counted in memory (usage-buffer.ts) and
 *                        written in a batch after the response (flushUsageAfterResponse, called through after()).
 *   authenticateAndCount the exact path for GET/DELETE /keys/me: this instance's pending counts are written first,
 *                        then one statement authenticates against the database and counts the request, so the
 *                        requests_total it returns includes this request and every earlier one of this instance.
 * Both live on globalThis: Next.js may evaluate this module once per route bundle, and a revocation seen by the
 * DELETE route must reach the cache the translate route reads.
 */
interface HotPath {
  cache: KeyCache;
  usage: UsageBuffer;
  inflight: Map<string, Promise<VerifiedKey | null>>;
  /** hashApiKey's answers by the key's plain SHA-256 (storedHash). */
  hashes: Map<string, string>;
}
const HOT_PATH = Symbol.for("lugha.keys.hotpath");

function hotPath(): HotPath {
  const g = globalThis as typeof globalThis & { [HOT_PATH]?: HotPath };
  if (!g[HOT_PATH]) {
    const cache = new KeyCache(keyCacheTtlFromEnv());
    const usage = new UsageBuffer(databaseUsageWriter, usageFlushIntervalFromEnv());
    usage.onInactive = (id) => cache.revoke(id);
    g[HOT_PATH] = { cache, usage, inflight: new Map(), hashes: new Map() };
    process.once("exit", () => {
      const left = usage.backlog();
      if (left.keys > 0)
        console.error(`[usage] exiting with usage not written: ${left.requests} requests, ${left.characters} characters for ${left.keys} keys`);
    });
  }
  return g[HOT_PATH];
}

/** How long, at most, the after-response task keeps retrying a failed usage write (a serverless function or a
 * stopping server waits this long for it at worst). */
const USAGE_DRAIN_MS = 5_000;

/** The after-response task of every counted request: write the counts, retrying for a while if the database is out. */
export async function flushUsageAfterResponse(): Promise<void> {
  const { usage } = hotPath();
  if (!(await usage.flush())) await usage.drain(USAGE_DRAIN_MS);
}

/**
 * Called once a request's counts are recorded: whether it must schedule flushUsageAfterResponse itself, or the task of
 * an earlier request, not yet started or still waiting for its write, will write them too (UsageBuffer.claimFlushTask).
 */
export function usageFlushNeeded(): boolean {
  return hotPath().usage.claimFlushTask();
}

/** Writes this instance's pending counts now (read paths such as the portal call it so they show every request). */
export async function flushUsage(): Promise<void> {
  await hotPath().usage.flush(true);
}

const STORED_HASHES_MAX = 10_000;

/**
 * hashApiKey, remembered per instance under the key's plain SHA-256 (never the key itself; it reveals nothing of a
 * 160-bit key): the same few keys come back on every request, and in a busy server setting up Node's HMAC costs
 * 10–20 µs of a request's CPU (2–3 µs in a loop of its own), against well under 1 µs for a one-shot SHA-256.
 * Bounded: emptied when full, so a flood of made-up keys costs a re-hash, never memory.
 */
function storedHash(plainKey: string): string {
  const { hashes } = hotPath();
  const digest = hash("sha256", plainKey);
  let stored = hashes.get(digest);
  if (stored === undefined) {
    if (hashes.size >= STORED_HASHES_MAX) hashes.clear();
    stored = hashApiKey(plainKey);
    hashes.set(digest, stored);
  }
  return stored;
}

/**
 * The hot path: a well-formed, known, unexpired, unrevoked key → its record, and the request counted (in memory, written
 * after the response); anything else → null (INVALID_API_KEY). Throws only when the database is needed and unreachable.
 */
export async function authenticateKey(plainKey: string): Promise<AuthenticatedKey | null> {
  if (!isWellFormedKey(plainKey)) return null;
  const hp = hotPath();
  const hash = storedHash(plainKey);
  if (hp.cache.isUnknown(hash)) return null;
  let key = hp.cache.get(hash) ?? (await lookupActiveKey(hp, hash));
  if (key && hp.cache.isRevoked(key.id)) key = null; // revoked here while the lookup was in flight
  if (!key) return null;
  hp.usage.record(key.id, 1);
  return { ...key, lastUsedAt: null, requestsTotal: null };
}

/** One indexed SELECT by hash; concurrent misses for the same key share it. Caches an active key. */
function lookupActiveKey(hp: HotPath, hash: string): Promise<VerifiedKey | null> {
  let pending = hp.inflight.get(hash);
  if (!pending) {
    const startedAt = Date.now();
    pending = (async () => {
      const prisma = await getPrisma();
      const rows = await prisma.$queryRaw<{ id: string; name: string; display_prefix: string; created_at: Date; expires_at: Date }[]>`
        SELECT id, name, display_prefix, created_at, expires_at FROM api_keys
         WHERE key_hash = ${hash} AND revoked_at IS NULL AND expires_at > now()`;
      const r = rows[0];
      if (!r) {
        hp.cache.setUnknown(hash, startedAt);
        return null;
      }
      const key: VerifiedKey = { id: r.id, name: r.name, displayPrefix: r.display_prefix, createdAt: r.created_at, expiresAt: r.expires_at };
      hp.cache.set(hash, key, startedAt);
      return key;
    })().finally(() => hp.inflight.delete(hash));
    hp.inflight.set(hash, pending);
  }
  return pending;
}

/**
 * For the failed-authentication throttle (lib/http/auth-throttle.ts): whether this key may still be tried from an
 * address that is over its budget — it is verified in the cache now, or was verified here recently (the lookup it
 * then costs is bounded by the number of real keys, which an attacker cannot inflate).
 */
export function isRecentlyVerifiedKey(plainKey: string): boolean {
  if (!isWellFormedKey(plainKey)) return false;
  const { cache } = hotPath();
  const hash = storedHash(plainKey);
  return cache.get(hash) !== undefined || cache.wasVerified(hash);
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
  // A key is random, so no lookup can have missed it before; should one have (a 160-bit guess), it must not shadow
  // the key. After the insert: a lookup that started before it may still miss, and forgetUnknown refuses that miss.
  hotPath().cache.forgetUnknown(row.keyHash);
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
  const hp = hotPath();
  // Bring the database up to date with this instance's counts first. If that fails (they stay queued), the pending
  // ones are added to the figure returned below instead.
  await hp.usage.flush(true);
  const startedAt = Date.now();
  const hash = storedHash(plainKey);
  if (hp.cache.isUnknown(hash)) return null;
  const prisma = await getPrisma();
  const rows = await prisma.$queryRaw<AuthRow[]>`
    WITH k AS (
      UPDATE api_keys AS a
         SET requests_total = a.requests_total + 1, last_used_at = now()
        FROM api_keys AS before
       WHERE a.key_hash = ${hash} AND before.id = a.id
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
  if (!r) {
    hp.cache.setUnknown(hash, startedAt);
    return null;
  }
  const key: VerifiedKey = { id: r.id, name: r.name, displayPrefix: r.display_prefix, createdAt: r.created_at, expiresAt: r.expires_at };
  if (hp.cache.isRevoked(key.id)) return null;
  hp.cache.set(hash, key, startedAt);
  return { ...key, lastUsedAt: r.prev_last_used_at, requestsTotal: Number(r.requests_total) + hp.usage.pendingRequests(r.id) };
}

/**
 * Marks the key revoked and deletes its glossaries (in one transaction); from then on it authenticates nothing — on
 * this instance at once, on others within the key cache's lifetime (KEY_CACHE_TTL_MS). Idempotent.
 */
export async function revokeKey(id: string, now = new Date()): Promise<void> {
  const prisma = await getPrisma();
  await prisma.$transaction([
    prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } }),
    prisma.glossary.deleteMany({ where: { keyId: id } }),
  ]);
  hotPath().cache.revoke(id);
}

/**
 * Counts how an authenticated request ended — endpoint, status, language pair, provider, characters sent upstream,
 * cache hits — for GET /api/v1/usage and the dashboard. Tallied in memory and written with the request counts by the
 * next batched flush (never a write of its own, never blocks the response).
 */
export function recordRequestOutcome(keyId: string, outcome: RequestOutcome): void {
  hotPath().usage.recordOutcome(keyId, outcome);
}
