import IORedis, { type Redis } from "ioredis";

/**
 * An ioredis client for a shared store (rate limits, upstream budgets, the translation cache): every command bounded by
 * `timeoutMs`, reconnecting for ever, never replaying a command whose caller has already given up.
 */
export function createRedisClient(url: string, timeoutMs: number): Redis {
  const client = new IORedis(url, {
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(1_000, timeoutMs * 5),
    // Keep reconnecting for ever, backing off to 2 s: a Redis restart must not disable the store for good.
    retryStrategy: (attempt) => Math.min(100 * 2 ** attempt, 2_000),
    // Commands issued while disconnected wait in the offline queue (bounded by commandTimeout), and are flushed at
    // each failed reconnect; nothing that already timed out is sent later, when its request was long answered.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
  });
  // Failures reach callers through rejected commands (and the guards log them once); without a listener ioredis
  // would print every reconnect error.
  client.on("error", () => {});
  return client;
}
