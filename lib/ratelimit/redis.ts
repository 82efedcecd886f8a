import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { pingHealth } from "@/lib/store";
import { createRedisClient } from "@/lib/store/redis";
import { allowedDecision, deniedDecision } from "./decision";
import type { RateLimitDecision, RateLimitRule, RateLimitStore, StoreBucket } from "./types";

/**
 * Exact sliding-window log in one Lua script, so check-and-record is atomic however many app instances share the
 * Redis. Time comes from the Redis server (TIME), so instances with skewed clocks still share one timeline.
 * A hit at t counts while now < t + window (same rule as the memory store). The ZSET member is unique per request
 * (not the timestamp, which two concurrent requests can share, so one would hide the other); a refused request is not recorded.
 *
 * KEYS[1] the log; ARGV window ms, limit, member.
 * Returns {1, used, now, resetAt} when admitted, {0, used, now, retryAt, resetAt} when refused (Redis clock, ms).
 */
const SLIDING_LOG_LUA = `
if redis.replicate_commands then redis.replicate_commands() end -- Redis < 5: allow TIME before writes
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local used = redis.call('ZCARD', key)
if used < limit then
  redis.call('ZADD', key, now, ARGV[3])
  redis.call('PEXPIRE', key, window)
  return {1, used + 1, now, now + window}
end
local oldest = redis.call('ZRANGE', key, used - limit, used - limit, 'WITHSCORES')
local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
return {0, used, now, tonumber(oldest[2]) + window, tonumber(newest[2]) + window}
`;

type ScriptReply = [admitted: 0 | 1, used: number, now: number, at: number, resetAt?: number];
type ScriptedRedis = Redis & {
  lughaSlidingLog(key: string, windowMs: number, limit: number, member: string): Promise<ScriptReply>;
};

export interface RedisStoreOptions {
  url: string;
  /** Per-command bound (RATE_LIMIT_TIMEOUT_MS); the guard applies the same bound around the whole check. */
  timeoutMs: number;
  prefix?: string;
}

/** Plain Redis (REDIS_URL) for self-hosted fleets. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly name = "redis" as const;
  private readonly client: ScriptedRedis;
  private readonly prefix: string;
  // Unique members without a random draw per request: one id per store instance plus a counter.
  private readonly instance = randomUUID();
  private sequence = 0;

  constructor(options: RedisStoreOptions) {
    this.prefix = options.prefix ?? "lugha:rl:log";
    this.client = createRedisClient(options.url, options.timeoutMs) as ScriptedRedis;
    this.client.defineCommand("lughaSlidingLog", { numberOfKeys: 1, lua: SLIDING_LOG_LUA });
  }

  async check(bucket: StoreBucket, identifier: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const member = `${this.instance}:${++this.sequence}`;
    const [admitted, used, now, at, resetAt] = await this.client.lughaSlidingLog(
      `${this.prefix}:${bucket}:${identifier}`,
      rule.windowMs,
      rule.limit,
      member,
    );
    // Durations come from the Redis clock; resetAt is shifted onto this instance's clock for the header.
    const shift = Date.now() - now;
    return admitted === 1 ? allowedDecision(rule, used, at + shift) : deniedDecision(rule, at - now, (resetAt ?? at) + shift);
  }

  health() {
    return pingHealth("redis", () => this.client.ping());
  }

  /** Closes the connection (tests; a server keeps its store for its lifetime). */
  async close(): Promise<void> {
    this.client.disconnect();
  }
}
