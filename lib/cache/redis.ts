import type { Redis } from "ioredis";
import { pingHealth } from "@/lib/store";
import { createRedisClient } from "@/lib/store/redis";
import type { CacheStore, CacheValue } from "./types";

export interface RedisCacheOptions {
  url: string;
  /** Per-command bound; the guard applies the same bound around each call. */
  timeoutMs: number;
}

/** The cache in plain Redis (REDIS_URL), shared by every instance: SET key value PX ttl, GET key. */
export class RedisCacheStore implements CacheStore {
  readonly name = "redis" as const;
  private readonly client: Redis;

  constructor(options: RedisCacheOptions) {
    this.client = createRedisClient(options.url, options.timeoutMs);
  }

  async get(key: string): Promise<CacheValue | undefined> {
    const raw = await this.client.get(key);
    return raw === null ? undefined : (JSON.parse(raw) as CacheValue);
  }

  async set(key: string, value: CacheValue, ttlMs: number): Promise<void> {
    await this.client.set(key, JSON.stringify(value), "PX", Math.max(1, Math.round(ttlMs)));
  }

  health() {
    return pingHealth("redis", () => this.client.ping());
  }

  /** Closes the connection (tests; a server keeps its store for its lifetime). */
  async close(): Promise<void> {
    this.client.disconnect();
  }
}
