import { config, loadConfig } from "@/lib/config";
/**
 * A short-lived, per-instance cache of verified API keys, so the hot path does not read the database on every request.
 *
 * Semantics (README "Performance and the hot path"):
 *  - An entry lives at most KEY_CACHE_TTL_MS (default 5000 ms; 0 disables the cache) from the moment its database
 *    lookup *started*. Only active keys are cached; unknown keys are never cached (nothing to gain, and a flood of
 *    random keys must not evict real ones — the cache is also bounded, oldest entry out first).
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

/** KEY_CACHE_TTL_MS (lib/config: 0–300000, default 5000). */
export function keyCacheTtlFromEnv(env?: Record<string, string | undefined>): number {
  return (env ? loadConfig(env) : config()).KEY_CACHE_TTL_MS;
}

export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly revoked = new Map<string, number>();

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
    private readonly now: () => number = Date.now,
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
    if (this.ttlMs <= 0 || this.revoked.has(key.id)) return;
    if (!this.entries.has(hash) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.delete(hash); // re-insert at the end: Map order is the eviction order
    this.entries.set(hash, { key, fetchedAt });
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
}
