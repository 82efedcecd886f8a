import { processLog } from "@/lib/kit/log";
import { describeFailure, withTimeout } from "@/lib/store";
import type { CacheStatus, CacheStore, CacheValue } from "./types";

/*
 * What happens when the cache store (Redis or Upstash) is slow or down
 * -------------------------------------------------------------------
 * Every get and set is bounded by TRANSLATION_CACHE_TIMEOUT_MS. A call that fails or times out degrades to "no cache":
 * a get is a miss, a set is dropped, and the caller never sees an error, because a cache outage must not become a
 * translation outage. The state is shown in /health (`degraded`, `last_error`) and logged once each way. The store is
 * tried again on every call, so the cache is back as soon as the store answers. A stored value that is not valid JSON
 * (written by something else) is a miss too.
 */
export class GuardedCacheStore {
  readonly name: CacheStore["name"];
  readonly timeoutMs: number;
  private degraded = false;
  private lastError?: { kind: string; at: number };

  constructor(
    private readonly inner: CacheStore,
    options: { timeoutMs: number },
  ) {
    this.name = inner.name;
    this.timeoutMs = options.timeoutMs;
  }

  /**
   * The cached value for `key`, or undefined (absent, expired or store unavailable). The caller owns the shape: keys
   * carry a format version (see key.ts), so a value always has the shape its writer gave it.
   */
  async get<T extends CacheValue>(key: string): Promise<T | undefined> {
    try {
      const value = await withTimeout(this.inner.get(key), this.timeoutMs);
      this.noteSuccess();
      return value as T | undefined;
    } catch (err) {
      if (err instanceof SyntaxError) return undefined;
      this.noteFailure(err);
      return undefined;
    }
  }

  /** Stores `value` for `ttlMs`; a failure is recorded and swallowed. Callers need not await it. */
  async set(key: string, value: CacheValue, ttlMs: number): Promise<void> {
    try {
      await withTimeout(this.inner.set(key, value, ttlMs), this.timeoutMs);
      this.noteSuccess();
    } catch (err) {
      this.noteFailure(err);
    }
  }

  /** For /health: probes the store (bounded by the timeout); never throws. */
  async status(): Promise<CacheStatus> {
    let probe: { ok: boolean; detail?: string };
    try {
      probe = await withTimeout(this.inner.health(), this.timeoutMs);
    } catch (err) {
      probe = { ok: false, detail: `${this.name} ${describeFailure(err)}` };
    }
    return {
      enabled: true,
      backend: this.name,
      ok: probe.ok,
      degraded: this.degraded,
      ...(this.lastError && { last_error: this.lastError.kind, last_error_at: new Date(this.lastError.at).toISOString() }),
      ...(probe.detail && { detail: probe.detail }),
    };
  }

  private noteFailure(err: unknown) {
    this.lastError = { kind: describeFailure(err), at: Date.now() };
    if (this.degraded) return;
    this.degraded = true;
    processLog().warn(
      { event: "store_failed", component: "cache", store: this.name, failure: this.lastError.kind },
      "cache store failed; serving uncached until it answers again",
    );
  }

  private noteSuccess() {
    if (!this.degraded) return;
    this.degraded = false;
    processLog().warn({ event: "store_recovered", component: "cache", store: this.name }, "cache store answers again");
  }
}
