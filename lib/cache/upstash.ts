import type { Redis } from "@upstash/redis";
import { pingHealth } from "@/lib/store";
import { createUpstashClient } from "@/lib/store/upstash";
import type { CacheStore, CacheValue } from "./types";

export interface UpstashCacheOptions {
  url: string;
  token: string;
  /** Bound on every REST call. */
  timeoutMs: number;
}

/** The cache in Upstash Redis over REST (UPSTASH_REDIS_REST_URL/TOKEN): SET key value PX ttl, GET key. */
export class UpstashCacheStore implements CacheStore {
  readonly name = "upstash" as const;
  private readonly redis: Redis;

  constructor(options: UpstashCacheOptions) {
    this.redis = createUpstashClient(options);
  }

  async get(key: string): Promise<CacheValue | undefined> {
    // The client parses JSON replies by itself; a value stored by another client as plain text still comes back whole.
    const raw = await this.redis.get<unknown>(key);
    if (raw === null || raw === undefined) return undefined;
    const value = typeof raw === "string" ? (JSON.parse(raw) as unknown) : raw;
    return typeof value === "object" && value !== null ? value : undefined;
  }

  async set(key: string, value: CacheValue, ttlMs: number): Promise<void> {
    await this.redis.set(key, JSON.stringify(value), { px: Math.max(1, Math.round(ttlMs)) });
  }

  health() {
    return pingHealth("upstash", () => this.redis.ping());
  }
}
