import { hash, randomUUID } from "node:crypto";
import type { DatabaseSource } from "@/lib/db";
import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import { processLog } from "@/lib/kit/log";
import { KeyCache, type VerifiedKey } from "./cache";
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedKey } from "./format";
import { type KeyRecord, type KeyRow, keyRecord, UUID } from "./record";

export type { KeyRecord, KeyStatus } from "./record";

import { databaseUsageWriter, type RequestLogEntry, type RequestOutcome, UsageBuffer } from "./usage-buffer";

const DAY_MS = 86_400_000;

/**
 * A KeyRow's columns (./record.ts), named as it names them. The key store's queries are SQL, not Prisma's model API,
 * whose first run of each query shape in a process costs tens of ms (docs/deploy.md "Database").
 */
const KEY_COLUMNS = Prisma.raw(
  `id, name, display_prefix AS "displayPrefix", created_at AS "createdAt", expires_at AS "expiresAt", revoked_at AS "revokedAt", last_used_at AS "lastUsedAt", requests_total AS "requestsTotal"`,
);

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
 * The hot path (docs/benchmark.md "The hot path"): a request with a key costs no database round trip.
 *   authenticateKey      verified-key cache (lib/keys/cache.ts) → on a miss one indexed SELECT by hash (concurrent
 *                        misses for the same key share it) → the request is counted in memory (usage-buffer.ts) and
 *                        written in a batch after the response (flushUsageAfterResponse, called through after()).
 *   authenticateAndCount the exact path for GET/DELETE /keys/me: this instance's pending counts are written first,
 *                        then one statement authenticates against the database and counts the request, so the
 *                        requests_total it returns includes this request and every earlier one of this instance.
 * One KeyStore per process (lib/server builds it): a revocation seen by the DELETE route must reach the cache the
 * translate route reads.
 */
export interface KeyStoreSettings {
  /** API_KEY_HASH_SECRET: mixed into key hashes (HMAC) when set. */
  hashSecret: string | undefined;
  /** KEY_CACHE_TTL_MS: how long a verified key is trusted without a lookup. */
  cacheTtlMs: number;
  /** USAGE_FLUSH_INTERVAL_MS: the usage writes' coalescing interval. */
  flushIntervalMs: number;
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

/** How long, at most, the after-response task keeps retrying a failed usage write (a serverless function or a
 * stopping server waits this long for it at worst). */
const USAGE_DRAIN_MS = 5_000;
const STORED_HASHES_MAX = 10_000;

/** The keys: issuing, authenticating (the hot path above), counting, revoking, and the portal's read-only lookups. */
export class KeyStore {
  readonly cache: KeyCache;
  readonly usage: UsageBuffer;
  private readonly inflight = new Map<string, Promise<VerifiedKey | null>>();
  /** hashApiKey's answers by the key's plain SHA-256 (storedHash). */
  private readonly hashes = new Map<string, string>();

  constructor(
    private readonly database: DatabaseSource,
    private readonly settings: KeyStoreSettings,
  ) {
    this.cache = new KeyCache(settings.cacheTtlMs);
    this.usage = new UsageBuffer(databaseUsageWriter(database), settings.flushIntervalMs);
    this.usage.onInactive = (id) => this.cache.revoke(id);
  }

  /** Warns, at exit, of counts that could not be written (lib/server registers it once per process). */
  reportBacklogAtExit(): void {
    process.once("exit", () => {
      const left = this.usage.backlog();
      if (left.keys > 0)
        processLog().error(
          { event: "usage_lost_at_exit", requests: left.requests, characters: left.characters, keys: left.keys },
          "exiting with usage not written",
        );
    });
  }

  async prisma(): Promise<PrismaClient> {
    return (await this.database()).prisma;
  }

  /** The after-response task of every counted request: write the counts, retrying for a while if the database is out. */
  async flushUsageAfterResponse(): Promise<void> {
    const { usage } = this;
    if (!(await usage.flush())) await usage.drain(USAGE_DRAIN_MS);
  }

  /**
   * Called once a request's counts are recorded: whether it must schedule flushUsageAfterResponse itself, or the task of
   * an earlier request, not yet started or still waiting for its write, will write them too (UsageBuffer.claimFlushTask).
   */
  usageFlushNeeded(): boolean {
    return this.usage.claimFlushTask();
  }

  /** Writes this instance's pending counts now (read paths such as the portal call it so they show every request). */
  async flushUsage(): Promise<void> {
    await this.usage.flush(true);
  }

  /**
   * hashApiKey, remembered per instance under the key's plain SHA-256 (never the key itself; it reveals nothing of a
   * 160-bit key): the same few keys come back on every request, and in a busy server setting up Node's HMAC costs
   * 10–20 µs of a request's CPU (2–3 µs in a loop of its own), against well under 1 µs for a one-shot SHA-256.
   * Bounded: emptied when full, so a flood of made-up keys costs a re-hash, never memory.
   */
  private storedHash(plainKey: string): string {
    const { hashes } = this;
    const digest = hash("sha256", plainKey);
    let stored = hashes.get(digest);
    if (stored === undefined) {
      if (hashes.size >= STORED_HASHES_MAX) hashes.clear();
      stored = hashApiKey(plainKey, this.settings.hashSecret);
      hashes.set(digest, stored);
    }
    return stored;
  }

  /**
   * The hot path: a well-formed, known, unexpired, unrevoked key → its record, and the request counted (in memory, written
   * after the response); anything else → null (INVALID_API_KEY). Throws only when the database is needed and unreachable.
   */
  async authenticateKey(plainKey: string): Promise<AuthenticatedKey | null> {
    if (!isWellFormedKey(plainKey)) return null;
    const hash = this.storedHash(plainKey);
    if (this.cache.isUnknown(hash)) return null;
    let key = this.cache.get(hash) ?? (await this.lookupActiveKey(hash));
    if (key && this.cache.isRevoked(key.id)) key = null; // revoked here while the lookup was in flight
    if (!key) return null;
    this.usage.record(key.id, 1);
    return { ...key, lastUsedAt: null, requestsTotal: null };
  }

  /** One indexed SELECT by hash; concurrent misses for the same key share it. Caches an active key. */
  private lookupActiveKey(hash: string): Promise<VerifiedKey | null> {
    let pending = this.inflight.get(hash);
    if (!pending) {
      const startedAt = Date.now();
      pending = (async () => {
        const prisma = await this.prisma();
        const rows = await prisma.$queryRaw<{ id: string; name: string; display_prefix: string; created_at: Date; expires_at: Date }[]>`
          SELECT id, name, display_prefix, created_at, expires_at FROM api_keys
           WHERE key_hash = ${hash} AND revoked_at IS NULL AND expires_at > now()`;
        const r = rows[0];
        if (!r) {
          this.cache.setUnknown(hash, startedAt);
          return null;
        }
        const key: VerifiedKey = { id: r.id, name: r.name, displayPrefix: r.display_prefix, createdAt: r.created_at, expiresAt: r.expires_at };
        this.cache.set(hash, key, startedAt);
        return key;
      })().finally(() => this.inflight.delete(hash));
      this.inflight.set(hash, pending);
    }
    return pending;
  }

  /**
   * For the failed-authentication throttle (lib/ratelimit/auth-throttle.ts): whether this key may still be tried from an
   * address that is over its budget — it is verified in the cache now, or was verified here recently (the lookup it
   * then costs is bounded by the number of real keys, which an attacker cannot inflate).
   */
  isRecentlyVerifiedKey(plainKey: string): boolean {
    if (!isWellFormedKey(plainKey)) return false;
    const { cache } = this;
    const hash = this.storedHash(plainKey);
    return cache.get(hash) !== undefined || cache.wasVerified(hash);
  }

  async issueKey(name: string, lifetimeDays = 365, now = new Date()) {
    const prisma = await this.prisma();
    const apiKey = generateApiKey();
    // Timestamps are stored at millisecond precision; truncate first so the response equals what /keys/me returns.
    const createdAt = new Date(Math.floor(now.getTime()));
    const row = {
      id: randomUUID(),
      name,
      keyHash: hashApiKey(apiKey, this.settings.hashSecret),
      displayPrefix: displayPrefix(apiKey),
      createdAt,
      expiresAt: new Date(createdAt.getTime() + lifetimeDays * DAY_MS),
    };
    await prisma.$executeRaw`
      INSERT INTO api_keys (id, name, key_hash, display_prefix, created_at, expires_at)
      VALUES (${row.id}::uuid, ${row.name}, ${row.keyHash}, ${row.displayPrefix}, ${row.createdAt}::timestamptz, ${row.expiresAt}::timestamptz)`;
    // A key is random, so no lookup can have missed it before; should one have (a 160-bit guess), it must not shadow
    // the key. After the insert: a lookup that started before it may still miss, and forgetUnknown refuses that miss.
    this.cache.forgetUnknown(row.keyHash);
    // A key issued here is verified here: its first requests need no lookup, and it passes the failed-authentication
    // throttle of its address (lib/ratelimit/auth-throttle.ts), so a neighbour's flood of bad keys behind the same
    // address does not lock out the person who has just minted one.
    this.cache.set(
      row.keyHash,
      { id: row.id, name: row.name, displayPrefix: row.displayPrefix, createdAt: row.createdAt, expiresAt: row.expiresAt },
      Date.now(),
    );
    return { apiKey, row };
  }

  /**
   * Looks the key up by hash and, in the same statement, counts this request: requests_total + 1, last_used_at and
   * today's usage row. One round trip, atomic under any concurrency, and a key that is unknown, expired or revoked
   * matches nothing (so is never counted). Returns null for all of those: the caller answers INVALID_API_KEY.
   */
  async authenticateAndCount(plainKey: string): Promise<AuthenticatedKey | null> {
    if (!isWellFormedKey(plainKey)) return null;
    // Bring the database up to date with this instance's counts first. If that fails (they stay queued), the pending
    // ones are added to the figure returned below instead.
    await this.usage.flush(true);
    const startedAt = Date.now();
    const hash = this.storedHash(plainKey);
    if (this.cache.isUnknown(hash)) return null;
    const prisma = await this.prisma();
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
      this.cache.setUnknown(hash, startedAt);
      return null;
    }
    const key: VerifiedKey = { id: r.id, name: r.name, displayPrefix: r.display_prefix, createdAt: r.created_at, expiresAt: r.expires_at };
    if (this.cache.isRevoked(key.id)) return null;
    this.cache.set(hash, key, startedAt);
    return { ...key, lastUsedAt: r.prev_last_used_at, requestsTotal: Number(r.requests_total) + this.usage.pendingRequests(r.id) };
  }

  /**
   * Marks the key revoked and deletes its glossaries and its request log (in one transaction); from then on it authenticates nothing — on
   * this instance at once, on others within the key cache's lifetime (KEY_CACHE_TTL_MS). Idempotent.
   */
  async revokeKey(id: string, now = new Date()): Promise<void> {
    const prisma = await this.prisma();
    await prisma.$transaction([
      prisma.$executeRaw`UPDATE api_keys SET revoked_at = ${now}::timestamptz WHERE id = ${id}::uuid AND revoked_at IS NULL`,
      prisma.$executeRaw`DELETE FROM glossaries WHERE key_id = ${id}::uuid`,
      prisma.$executeRaw`DELETE FROM request_log WHERE key_id = ${id}::uuid`,
    ]);
    this.cache.revoke(id);
  }

  /**
   * Counts how an authenticated request ended — endpoint, status, language pair, provider, characters sent upstream,
   * cache hits — for GET /api/v1/usage and the dashboard. Tallied in memory and written with the request counts by the
   * next batched flush (never a write of its own, never blocks the response).
   */
  recordRequestOutcome(keyId: string, outcome: RequestOutcome, log?: RequestLogEntry): void {
    this.usage.recordOutcome(keyId, outcome, log);
  }
  /** The key by its id (the portal session holds only this), whatever its status; null when there is no such key. */
  async findKeyById(id: string, now = new Date()): Promise<KeyRecord | null> {
    if (!UUID.test(id)) return null;
    await this.flushUsage(); // counts are written just after each response; make sure this instance's are in
    const prisma = await this.prisma();
    const [row] = await prisma.$queryRaw<KeyRow[]>`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ${id}::uuid`;
    return row ? keyRecord(row, now) : null;
  }

  /**
   * The key a plain-text value names, when it is well formed, known, unexpired and unrevoked; otherwise null.
   * Lookup is by hash (the plain key is never compared or stored). Does not count as a request.
   */
  async findActiveKey(plainKey: string, now = new Date()): Promise<KeyRecord | null> {
    if (!isWellFormedKey(plainKey)) return null;
    const prisma = await this.prisma();
    const [row] = await prisma.$queryRaw<KeyRow[]>`
      SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ${hashApiKey(plainKey, this.settings.hashSecret)}`;
    if (!row) return null;
    const record = keyRecord(row, now);
    return record.status === "active" ? record : null;
  }
}
