import { createRedisClient } from "../ratelimit/redis";
import { createUpstashClient } from "../ratelimit/upstash";

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

export class RedisAvailabilityStore implements AvailabilityStore {
  readonly name = "redis" as const;
  private readonly client;
  constructor(options: { url: string; timeoutMs: number }) {
    this.client = createRedisClient(options.url, options.timeoutMs);
  }
  async getMany(keys: readonly string[]) {
    return keys.length === 0 ? [] : this.client.mget(...keys);
  }
  async set(key: string, value: string, ttlMs: number) {
    await this.client.set(key, value, "PX", Math.max(1, Math.round(ttlMs)));
  }
  close() {
    this.client.disconnect();
  }
}

export class UpstashAvailabilityStore implements AvailabilityStore {
  readonly name = "upstash" as const;
  private readonly redis;
  constructor(options: { url: string; token: string; timeoutMs: number }) {
    this.redis = createUpstashClient(options);
  }
  async getMany(keys: readonly string[]) {
    if (keys.length === 0) return [];
    // The client parses JSON replies itself; hand back text either way.
    const values = await this.redis.mget<unknown[]>(...keys);
    return values.map((v) => (v === null || v === undefined ? null : typeof v === "string" ? v : JSON.stringify(v)));
  }
  async set(key: string, value: string, ttlMs: number) {
    await this.redis.set(key, value, { px: Math.max(1, Math.round(ttlMs)) });
  }
}
