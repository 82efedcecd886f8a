/**
 * A short-lived, per-instance cache of verified API keys, so the hot path does not read the database on every request.
 *
 * Semantics (docs/benchmark.md "The hot path"):
 *  - An entry lives at most KEY_CACHE_TTL_MS (default 5000 ms; 0 disables the cache) from the moment its database
 *    lookup *started*. The cache is bounded, oldest entry out first.
 *  - Hashes that matched no active key are remembered apart (the negative cache: UNKNOWN_KEY_TTL_MS, bounded on its
 *    own so a flood of random keys never evicts a verified one), so a repeated bad key costs no lookup. A hash stops
 *    matching an active key only for good (revocation and expiry are final), and it can start matching only by being
 *    issued: issuing a key drops its hash here and refuses a miss from a lookup that started before (forgetUnknown).
 *    Another instance could hold a negative entry for a new key only if someone had sent that exact key before it
 *    was generated, i.e. guessed 160 random bits; even then it lasts at most UNKNOWN_KEY_TTL_MS.
 *  - Hashes verified in the last VERIFIED_MEMORY_MS are remembered (hash only), so a throttled address — a shared NAT
 *    under a flood of bad keys from a neighbour — can still use a key it has used before (lib/ratelimit/auth-throttle.ts).
 *  - Expiry is checked on every request against the cached expires_at: an expired key is refused even while cached.
 *  - Revocation takes effect at once on the instance that revoked (the entry is dropped and the id remembered, so a
 *    lookup that was already in flight cannot put it back). On other instances it takes effect at the latest when
 *    their entry expires (≤ KEY_CACHE_TTL_MS), and usually sooner: every usage flush reports revoked keys back.
 *  - /keys/me (GET and DELETE) never uses the cache: it authenticates with the database, exactly.
 * Entries hold no secret: they are keyed by the key's HMAC, the same value the database indexes.
 */
export interface VerifiedKey {
  id: string;
  name: string;
  displayPrefix: string;
  createdAt: Date;
  expiresAt: Date;
}

interface Entry {
  key: VerifiedKey;
  /** Date.now() when the lookup that produced it started. */
  fetchedAt: number;
}

const DEFAULT_MAX_ENTRIES = 10_000;
/** How long a locally revoked id is remembered (to refuse racing lookups), at least. */
const REVOKED_MEMORY_MS = 60_000;
/** How long a hash that matched no active key is refused without a lookup. */
export const UNKNOWN_KEY_TTL_MS = 30_000;
/** How long a hash that once verified may pass the failed-authentication throttle. */
export const VERIFIED_MEMORY_MS = 3_600_000;

export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly revoked = new Map<string, number>();
  /** Hash → when the lookup that found no active key started. */
  private readonly unknown = new Map<string, number>();
  /** Hash → when it was issued here (a lookup that started before cannot mark it unknown). */
  private readonly minted = new Map<string, number>();
  /** Hash → when a lookup last found it active. */
  private readonly verified = new Map<string, number>();

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
    private readonly now: () => number = Date.now,
    readonly unknownTtlMs = UNKNOWN_KEY_TTL_MS,
  ) {}

  /** The key cached under this hash, if still fresh, unexpired and not revoked here. */
  get(hash: string): VerifiedKey | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    const now = this.now();
    if (now - entry.fetchedAt >= this.ttlMs || entry.key.expiresAt.getTime() <= now || this.revoked.has(entry.key.id)) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.key;
  }

  /** Caches an active key found by a lookup that started at `fetchedAt`. Ignored for keys revoked here meanwhile. */
  set(hash: string, key: VerifiedKey, fetchedAt: number): void {
    if (this.revoked.has(key.id)) return;
    this.unknown.delete(hash);
    putBounded(this.verified, hash, fetchedAt, this.maxEntries);
    if (this.ttlMs <= 0) return;
    if (!this.entries.has(hash) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.delete(hash); // re-insert at the end: Map order is the eviction order
    this.entries.set(hash, { key, fetchedAt });
  }

  /** A lookup that started at `startedAt` found no active key for this hash. */
  setUnknown(hash: string, startedAt: number): void {
    if (this.unknownTtlMs <= 0) return;
    const mintedAt = this.minted.get(hash);
    if (mintedAt !== undefined && startedAt <= mintedAt) return; // the key was issued while the lookup ran
    putBounded(this.unknown, hash, startedAt, this.maxEntries);
  }

  /** Whether this hash matched no active key within the last UNKNOWN_KEY_TTL_MS (refuse it without a lookup). */
  isUnknown(hash: string): boolean {
    const at = this.unknown.get(hash);
    if (at === undefined) return false;
    if (this.now() - at < this.unknownTtlMs) return true;
    this.unknown.delete(hash);
    return false;
  }

  /** A key with this hash was just issued: it is no longer unknown, and a lookup already in flight cannot say so. */
  forgetUnknown(hash: string): void {
    this.unknown.delete(hash);
    putBounded(this.minted, hash, this.now(), this.maxEntries);
    const forgetBefore = this.now() - this.unknownTtlMs * 2;
    for (const [h, at] of this.minted) {
      if (at >= forgetBefore) break; // insertion order = time order
      this.minted.delete(h);
    }
  }

  /** Whether a lookup found this hash active within the last VERIFIED_MEMORY_MS (it may have been revoked since). */
  wasVerified(hash: string): boolean {
    const at = this.verified.get(hash);
    if (at === undefined) return false;
    if (this.now() - at < VERIFIED_MEMORY_MS) return true;
    this.verified.delete(hash);
    return false;
  }

  /** The key was revoked (here, or reported by the database): forget it and refuse it from now on. */
  revoke(id: string): void {
    const now = this.now();
    this.revoked.delete(id); // re-insert at the end: insertion order stays time order
    this.revoked.set(id, now);
    for (const [hash, entry] of this.entries) if (entry.key.id === id) this.entries.delete(hash);
    const forgetBefore = now - Math.max(REVOKED_MEMORY_MS, this.ttlMs * 2);
    for (const [rid, at] of this.revoked) {
      if (at >= forgetBefore) break; // insertion order = time order
      this.revoked.delete(rid);
    }
  }

  isRevoked(id: string): boolean {
    return this.revoked.has(id);
  }

  get size(): number {
    return this.entries.size;
  }

  get unknownSize(): number {
    return this.unknown.size;
  }
}

/** Sets `key` as the newest entry of `map`, dropping the oldest when it is full. */
function putBounded(map: Map<string, number>, key: string, value: number, max: number): void {
  map.delete(key); // re-insert at the end: Map order is the eviction order
  if (map.size >= max) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
  map.set(key, value);
}
