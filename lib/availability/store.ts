/**
 * Where availability knowledge lives: the rate limiter's backends (Upstash over REST, plain Redis, or this instance's
 * memory), so every instance sharing the store learns what one instance found out. Values are JSON text with their
 * own expiry (readers check it against their clock); the store's own TTL only collects the garbage.
 */
export interface AvailabilityStore {
  readonly name: "memory" | "redis" | "upstash";
  getMany(keys: readonly string[]): Promise<(string | null)[]>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

export class MemoryAvailabilityStore implements AvailabilityStore {
  readonly name = "memory" as const;
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  async getMany(keys: readonly string[]) {
    return keys.map((key) => {
      const entry = this.entries.get(key);
      if (!entry || entry.expiresAt <= this.now()) return null;
      return entry.value;
    });
  }

  async set(key: string, value: string, ttlMs: number) {
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
  }
}
