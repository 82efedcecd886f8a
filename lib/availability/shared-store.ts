import { createRedisClient } from "@/lib/store/redis";
import { createUpstashClient } from "@/lib/store/upstash";
import type { AvailabilityStore } from "./store";

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
