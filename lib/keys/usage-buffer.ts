import { randomUUID } from "node:crypto";
import { type DatabaseSource, runPrepared } from "@/lib/db";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { errorFields, processLog } from "@/lib/kit/log";
import type { UpstreamCalls } from "@/lib/kit/telemetry";

/**
 * Usage counters (requests_total, last_used_at, the per-day usage rows) written off the response path, in batches,
 * without losing or double-counting an increment.
 *
 *  - record() adds to an in-memory tally per key (and per UTC day): no I/O on the request path.
 *  - flush() writes everything tallied so far in ONE statement (group commit), at most one write per
 *    USAGE_FLUSH_INTERVAL_MS (default 50 ms): increments that arrive meanwhile go out together, so the database sees
 *    ≤ 20 small writes a second per instance instead of one per request; a count is sent within one interval of its
 *    response. Readers that must see every count (GET /keys/me, the portal) flush "urgently".
 *    The HTTP wrapper calls it through Next's `after()`, which keeps a serverless function alive until it is done and
 *    makes `next start` wait for it on SIGTERM.
 *  - A write that fails is merged back into the tally and retried (next request, or a backoff timer).
 *  - A write whose outcome is unknown — the connection dropped around COMMIT — is never simply retried: each write
 *    carries an id that the writer can later ask about (committed: drop it; not: merge back). So a database restart
 *    loses nothing and counts nothing twice.
 * What is not yet written when the process dies hard (SIGKILL, OOM) is lost: the requests answered in about the last
 * interval plus one write's time (docs/benchmark.md "The hot path"; or those of the outage, if the database is down at that
 * moment). A graceful stop (SIGTERM) writes them.
 */

const DAY_MS = 86_400_000;

interface DayTally {
  requests: number;
  /** Characters sent upstream (a cache hit sends none). */
  characters: number;
  cacheHits: number;
}

/** How one request ended, for the usage breakdown (GET /api/v1/usage): the dimensions and what it translated. */
export interface RequestOutcome {
  /** "POST /api/v1/translate". */
  endpoint: string;
  status: number;
  /** "en-lug", or "" when the request has none. */
  languagePair: string;
  /** The provider that served it, or "". */
  provider: string;
  /** Characters sent upstream (a cache hit sends none). */
  characters: number;
  cacheHits: number;
  /** Upstream calls (quota units) the request cost, by the provider called (not only the one that served). */
  upstreamCalls: UpstreamCalls;
}

/**
 * One line of the request log (GET /api/v1/usage/requests): metadata of a request, never its text or audio. Kept
 * REQUEST_LOG_DAYS days.
 */
export interface RequestLogEntry {
  /** Epoch ms when the response was ready. */
  at: number;
  requestId: string;
  endpoint: string;
  status: number;
  latencyMs: number;
  provider: string;
  model: string;
  /** "hit", "miss", "bypass", "partial" (a batch), or "" where the translation cache does not apply or is off. */
  cache: string;
  /** Upstream calls (quota units) the request cost, all providers together. */
  upstreamCalls: number;
}

/** How long the request log keeps a request. */
export const REQUEST_LOG_DAYS = 7;

interface OutcomeTally extends Omit<RequestOutcome, "characters" | "cacheHits" | "upstreamCalls">, DayTally {
  dayNo: number;
  upstreamCalls: number;
}

export interface KeyTally {
  requests: number;
  /** Epoch ms of the latest counted request; 0 when none. */
  lastUsedAt: number;
  /** UTC day number (epoch ms / 86400000) → counts. */
  days: Map<number, DayTally>;
  /** One entry per (day, endpoint, status, pair, provider) → counts (outcomeKey). */
  outcomes: Map<string, OutcomeTally>;
  /** Request log lines, oldest first. */
  log: RequestLogEntry[];
}

const outcomeKey = (o: Pick<OutcomeTally, "dayNo" | "endpoint" | "status" | "languagePair" | "provider">) =>
  `${o.dayNo}\n${o.endpoint}\n${o.status}\n${o.languagePair}\n${o.provider}`;

export type UsageBatch = Map<string, KeyTally>;

export interface UsageWriter {
  /** Writes the batch atomically. Returns the ids of keys that are no longer active (revoked or expired). */
  write(batch: UsageBatch): Promise<{ inactiveKeyIds: string[] }>;
  /** Outcome of a transaction an AmbiguousWriteError named. */
  outcome(writeId: string): Promise<"committed" | "aborted" | "unknown">;
}

/** The connection failed after the write may have committed; `writeId` tells which write to ask about. */
export class AmbiguousWriteError extends Error {
  constructor(
    readonly writeId: string,
    options?: { cause?: unknown },
  ) {
    super(`usage write ${writeId}: outcome unknown`, options);
    this.name = "AmbiguousWriteError";
  }
}

export class UsageBuffer {
  private pending: UsageBatch = new Map();
  /** When the oldest count in `pending` was recorded, and when the last write started (for the interval). */
  private pendingSince = 0;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private uncertain: { writeId: string; batch: UsageBatch }[] = [];
  private waiters: ((ok: boolean) => void)[] = [];
  private active = false;
  private urgent = false;
  private wake: (() => void) | undefined;
  private failing = false;
  private retryDelayMs = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** A flush task has been promised (claimFlushTask) and no write has taken the pending counts since. */
  private flushClaimed = false;
  /** Called with ids the database reports inactive (revoked or expired): the key cache drops them. */
  onInactive?: (keyId: string) => void;

  /**
   * `coalesceMs`: how long a flush waits for more increments before writing (USAGE_FLUSH_INTERVAL_MS). It bounds the
   * write rate to one statement per interval per instance, whatever the request rate; an urgent flush skips the wait.
   */
  constructor(
    private readonly writer: UsageWriter,
    private readonly coalesceMs = 0,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts `requests` requests (and `characters` characters translated upstream, `cacheHits` translations answered
   * from the cache) for the key, now. Synchronous, no I/O.
   */
  record(keyId: string, requests: number, characters = 0, cacheHits = 0): void {
    this.tallyDay(keyId, requests, characters, cacheHits);
  }

  /**
   * Counts how a request (already counted by record() when it was authenticated) ended, for the breakdown by endpoint,
   * status, pair and provider; its characters and cache hits go to the day's row too. Synchronous, no I/O: it is
   * written with the rest by the next flush.
   */
  recordOutcome(keyId: string, outcome: RequestOutcome, log?: RequestLogEntry): void {
    const { tally, dayNo } = this.tallyDay(keyId, 0, outcome.characters, outcome.cacheHits);
    if (log) tally.log.push(log);
    const { characters, cacheHits, upstreamCalls, ...dimensions } = outcome;
    const add = (provider: string, counts: DayTally & { upstreamCalls: number }) => {
      const entry = { ...dimensions, provider, dayNo };
      const key = outcomeKey(entry);
      const e = tally.outcomes.get(key);
      if (e) {
        e.requests += counts.requests;
        e.characters += counts.characters;
        e.cacheHits += counts.cacheHits;
        e.upstreamCalls += counts.upstreamCalls;
      } else tally.outcomes.set(key, { ...entry, ...counts });
    };
    add(dimensions.provider, { requests: 1, characters, cacheHits, upstreamCalls: upstreamCalls[dimensions.provider] ?? 0 });
    // Calls to a provider that did not serve (it failed before a fallback, or several served a batch): counted under
    // that provider, in a row of their own without a request, so that usage by provider sums each provider's calls.
    for (const [provider, n] of Object.entries(upstreamCalls))
      if (provider !== dimensions.provider && n > 0) add(provider, { requests: 0, characters: 0, cacheHits: 0, upstreamCalls: n });
  }

  private tallyDay(keyId: string, requests: number, characters: number, cacheHits: number): { tally: KeyTally; dayNo: number } {
    const now = this.now();
    if (this.pending.size === 0) this.pendingSince = now;
    let tally = this.pending.get(keyId);
    if (!tally) this.pending.set(keyId, (tally = { requests: 0, lastUsedAt: 0, days: new Map(), outcomes: new Map(), log: [] }));
    tally.requests += requests;
    if (requests > 0 && now > tally.lastUsedAt) tally.lastUsedAt = now;
    const dayNo = Math.floor(now / DAY_MS);
    const day = tally.days.get(dayNo);
    if (day) {
      day.requests += requests;
      day.characters += characters;
      day.cacheHits += cacheHits;
    } else tally.days.set(dayNo, { requests, characters, cacheHits });
    return { tally, dayNo };
  }

  /**
   * Writes what has been recorded, within the coalescing interval (at once when `urgent`: a reader that must see
   * every count). Resolves true once everything recorded before the call is durably written; false when that write
   * failed (the counts stay queued and are retried). Never rejects.
   */
  flush(urgent = false): Promise<boolean> {
    if (!this.active && this.pending.size === 0 && this.uncertain.length === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      if (urgent) {
        this.urgent = true;
        this.wake?.();
      }
      if (!this.active) void this.loop();
    });
  }

  /**
   * Whether the caller, having recorded its counts, must schedule a flush of its own to get them written (true), or a
   * flush promised earlier will take them (false): until a write takes the pending counts, every count recorded
   * meanwhile goes with them, so one after-response task per write covers every request of that interval. True claims
   * the task: the caller must then call flush() (or drain()).
   */
  claimFlushTask(): boolean {
    if (this.flushClaimed) return false;
    this.flushClaimed = true;
    return true;
  }

  /** Flushes, retrying with backoff while the database is unreachable, for at most `timeoutMs`. */
  async drain(timeoutMs: number): Promise<boolean> {
    const until = this.now() + timeoutMs;
    let delay = 50;
    for (;;) {
      if (await this.flush(true)) return true;
      if (this.now() + delay > until) return false;
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 1_000);
    }
  }

  /** How long the oldest count no write has taken yet has waited, in ms (0 when none waits): the flush lag. */
  pendingAgeMs(): number {
    return this.pending.size === 0 ? 0 : Math.max(0, this.now() - this.pendingSince);
  }

  /** Requests counted here for the key and not known to be in the database yet. */
  pendingRequests(keyId: string): number {
    let n = this.pending.get(keyId)?.requests ?? 0;
    for (const u of this.uncertain) n += u.batch.get(keyId)?.requests ?? 0;
    return n;
  }

  /** Totals not yet written (for the shutdown log and tests). */
  backlog(): { keys: number; requests: number; characters: number } {
    const out = { keys: 0, requests: 0, characters: 0 };
    const add = (batch: UsageBatch) => {
      for (const t of batch.values()) {
        out.keys += 1;
        out.requests += t.requests;
        for (const d of t.days.values()) out.characters += d.characters;
      }
    };
    add(this.pending);
    for (const u of this.uncertain) add(u.batch);
    return out;
  }

  private async loop() {
    this.active = true;
    try {
      while (this.waiters.length > 0) {
        // A count is written at most one interval after it was recorded, and writes start at most once per interval.
        const wait = Math.max(this.pendingSince, this.lastWriteAt) + this.coalesceMs - this.now();
        if (wait > 0 && !this.urgent) {
          // Not unref'd: a stopping server awaits this flush (after()), so the timer must keep the process alive.
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, wait);
            this.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        this.wake = undefined;
        this.urgent = false;
        const waiters = this.waiters;
        this.waiters = [];
        const ok = await this.writeOnce();
        for (const resolve of waiters) resolve(ok);
      }
    } finally {
      this.active = false;
    }
  }

  private async writeOnce(): Promise<boolean> {
    await this.settleUncertain();
    if (this.pending.size === 0) return this.uncertain.length === 0;
    const batch = this.pending;
    this.pending = new Map();
    this.flushClaimed = false; // counts recorded from now on need a flush that has not yet taken its batch
    this.lastWriteAt = this.now();
    try {
      const { inactiveKeyIds } = await this.writer.write(batch);
      for (const id of inactiveKeyIds) this.onInactive?.(id);
      this.noteSuccess();
      return this.uncertain.length === 0;
    } catch (err) {
      if (err instanceof AmbiguousWriteError) this.uncertain.push({ writeId: err.writeId, batch });
      else this.mergeBack(batch);
      this.noteFailure(err);
      return false;
    }
  }

  private async settleUncertain() {
    if (this.uncertain.length === 0) return;
    const still: typeof this.uncertain = [];
    for (const u of this.uncertain) {
      let outcome: "committed" | "aborted" | "unknown";
      try {
        outcome = await this.writer.outcome(u.writeId);
      } catch {
        outcome = "unknown";
      }
      if (outcome === "aborted") this.mergeBack(u.batch);
      else if (outcome === "unknown") still.push(u);
      // committed: it is in the database; nothing to do
    }
    this.uncertain = still;
  }

  private mergeBack(batch: UsageBatch) {
    if (this.pending.size === 0) this.pendingSince = this.now();
    for (const [keyId, t] of batch) {
      const into = this.pending.get(keyId);
      if (!into) {
        this.pending.set(keyId, t);
        continue;
      }
      into.requests += t.requests;
      into.lastUsedAt = Math.max(into.lastUsedAt, t.lastUsedAt);
      for (const [dayNo, d] of t.days) {
        const e = into.days.get(dayNo);
        if (e) {
          e.requests += d.requests;
          e.characters += d.characters;
          e.cacheHits += d.cacheHits;
        } else into.days.set(dayNo, { ...d });
      }
      for (const [key, o] of t.outcomes) {
        const e = into.outcomes.get(key);
        if (e) {
          e.requests += o.requests;
          e.characters += o.characters;
          e.cacheHits += o.cacheHits;
          e.upstreamCalls += o.upstreamCalls;
        } else into.outcomes.set(key, { ...o });
      }
      into.log.push(...t.log);
    }
  }

  private noteFailure(err: unknown) {
    if (!this.failing) {
      this.failing = true;
      processLog().warn({ event: "usage_write_failed", ...errorFields(err) }, "could not write usage counters; they are kept and retried");
    }
    // Retry even if no request comes to trigger it; the timer never keeps the process alive on its own.
    this.retryDelayMs = Math.min(5_000, Math.max(100, this.retryDelayMs * 2));
    if (!this.retryTimer) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        void this.flush();
      }, this.retryDelayMs);
      this.retryTimer.unref?.();
    }
  }

  private noteSuccess() {
    this.retryDelayMs = 0;
    if (!this.failing) return;
    this.failing = false;
    processLog().warn({ event: "usage_write_recovered" }, "usage counters written again");
  }
}

// ------------------------------------------------------------------------------------------- the database writer

/**
 * One statement: add each key's requests to requests_total, move last_used_at forward, add the per-day rows and the
 * per-day breakdown rows (usage_breakdown) and the request log lines of keys still active (dropping their lines older
 * than REQUEST_LOG_DAYS), and report keys no longer active. Rows are matched by id; keys that no longer exist are skipped. `marker` adds the
 * PostgreSQL bookkeeping (see databaseUsageWriter).
 *
 * The old lines go by `key_id = ANY(ARRAY(…))`, not `key_id IN (SELECT …)`: the statement is prepared once, and for
 * the IN form the generic plan scanned the whole request log on every write (a write cost 3 ms at 30,000 lines and
 * grew with the log; with the array, an index range scan, ≈1 ms; usage-write-plan.test.ts keeps it so).
 */
export const writeSql = (marker = "") => `
WITH v AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, n bigint, last_used timestamptz)
), d AS (
  SELECT * FROM jsonb_to_recordset($2::jsonb) AS x(id uuid, day date, n bigint, c bigint, h bigint)
), b AS (
  SELECT * FROM jsonb_to_recordset($3::jsonb) AS x(id uuid, day date, e text, s int, p text, v text, n bigint, c bigint, h bigint, u bigint)
), r AS (
  SELECT * FROM jsonb_to_recordset($4::jsonb) AS x(id uuid, at timestamptz, q text, e text, s int, l int, p text, m text, c text, u int)
), k AS (
  UPDATE api_keys AS a
     SET requests_total = a.requests_total + v.n,
         last_used_at = GREATEST(a.last_used_at, v.last_used)
    FROM v
   WHERE a.id = v.id
  RETURNING a.id, a.revoked_at, a.expires_at
), u AS (
  INSERT INTO usage_daily (key_id, day, requests, characters_translated, cache_hits)
  SELECT d.id, d.day, d.n, d.c, d.h FROM d JOIN k ON k.id = d.id
  ON CONFLICT (key_id, day) DO UPDATE
     SET requests = usage_daily.requests + excluded.requests,
         characters_translated = usage_daily.characters_translated + excluded.characters_translated,
         cache_hits = usage_daily.cache_hits + excluded.cache_hits
), ub AS (
  INSERT INTO usage_breakdown (key_id, day, endpoint, status, language_pair, provider, requests, characters, cache_hits, upstream_calls)
  SELECT b.id, b.day, b.e, b.s, b.p, b.v, b.n, b.c, b.h, b.u FROM b JOIN k ON k.id = b.id
  ON CONFLICT (key_id, day, endpoint, status, language_pair, provider) DO UPDATE
     SET requests = usage_breakdown.requests + excluded.requests,
         characters = usage_breakdown.characters + excluded.characters,
         cache_hits = usage_breakdown.cache_hits + excluded.cache_hits,
         upstream_calls = usage_breakdown.upstream_calls + excluded.upstream_calls
), rl AS (
  INSERT INTO request_log (key_id, at, request_id, endpoint, status, latency_ms, provider, model, cache, upstream_calls)
  SELECT r.id, r.at, r.q, r.e, r.s, r.l, r.p, r.m, r.c, r.u FROM r JOIN k ON k.id = r.id WHERE k.revoked_at IS NULL
), expired AS (
  DELETE FROM request_log WHERE key_id = ANY(ARRAY(SELECT DISTINCT id FROM r)) AND at < now() - interval '${REQUEST_LOG_DAYS} days'
)${marker}
SELECT id::text AS id FROM k WHERE revoked_at IS NOT NULL OR expires_at <= now()`;

/** PostgreSQL: this write's marker goes in with the counts; markers whose outcome is known, and day-old ones, go. */
const MARKED_WRITE_SQL = writeSql(`, mark AS (
  INSERT INTO usage_writes (id) VALUES ($5::uuid)
), done AS (
  DELETE FROM usage_writes WHERE id = ANY($6::uuid[]) OR written_at < now() - interval '1 day'
)`);

/**
 * Was the write with this marker committed? Inserting the marker ourselves answers it and settles it for good: if the
 * write committed, the insert finds the marker (committed); if it is still running, the insert waits for it; if it
 * never committed, our marker now makes it fail should it ever arrive (aborted).
 */
const FENCE_SQL = `WITH f AS (INSERT INTO usage_writes (id) VALUES ($1::uuid) ON CONFLICT (id) DO NOTHING RETURNING 1)
SELECT count(*)::int AS fenced FROM f`;

const isoDay = (dayNo: number) => new Date(dayNo * DAY_MS).toISOString().slice(0, 10);

function payload(batch: UsageBatch): [string, string, string, string] {
  const keys: { id: string; n: number; last_used: string | null }[] = [];
  const days: { id: string; day: string; n: number; c: number; h: number }[] = [];
  const outcomes: { order: string; row: object }[] = [];
  const log: object[] = [];
  for (const [id, t] of batch) {
    for (const r of t.log)
      log.push({
        id,
        at: new Date(r.at).toISOString(),
        q: r.requestId,
        e: r.endpoint,
        s: r.status,
        l: r.latencyMs,
        p: r.provider,
        m: r.model,
        c: r.cache,
        u: r.upstreamCalls,
      });
    keys.push({ id, n: t.requests, last_used: t.lastUsedAt ? new Date(t.lastUsedAt).toISOString() : null });
    for (const [dayNo, d] of t.days) days.push({ id, day: isoDay(dayNo), n: d.requests, c: d.characters, h: d.cacheHits });
    for (const [key, o] of t.outcomes) {
      const row = {
        id,
        day: isoDay(o.dayNo),
        e: o.endpoint,
        s: o.status,
        p: o.languagePair,
        v: o.provider,
        n: o.requests,
        c: o.characters,
        h: o.cacheHits,
        u: o.upstreamCalls,
      };
      outcomes.push({ order: `${id}\n${key}`, row });
    }
  }
  // A fixed order makes two instances writing the same keys lock them in the same order.
  keys.sort((a, b) => (a.id < b.id ? -1 : 1));
  days.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.day < b.day ? -1 : 1));
  outcomes.sort((a, b) => (a.order < b.order ? -1 : 1));
  return [JSON.stringify(keys), JSON.stringify(days), JSON.stringify(outcomes.map((o) => o.row)), JSON.stringify(log)];
}

/**
 * The writer of `database`. PostgreSQL: one auto-committed statement per write (one round trip, so a hard kill loses
 * little), carrying a random marker. When the connection fails mid-write the marker is the AmbiguousWriteError's id,
 * and outcome() fences it.
 */
export function databaseUsageWriter(database: DatabaseSource): UsageWriter {
  /** Markers whose outcome this instance knows; the next write deletes them. */
  let settledMarkers: string[] = [];
  return {
    async write(batch) {
      const db = await database();
      const [keys, days, outcomes, log] = payload(batch);
      if (db.kind === "pglite") {
        // In-process: a statement either ran or it did not; there is no connection to lose around COMMIT.
        const rows = await runPrepared<{ id: string }>(
          db.pglite,
          "lugha_usage_write",
          writeSql(),
          ["jsonb", "jsonb", "jsonb", "jsonb"],
          [keys, days, outcomes, log],
        );
        return { inactiveKeyIds: rows.map((r) => r.id) };
      }
      const marker = randomUUID();
      const settled = settledMarkers;
      settledMarkers = [];
      try {
        const rows = await db.prisma.$queryRawUnsafe<{ id: string }[]>(MARKED_WRITE_SQL, keys, days, outcomes, log, marker, settled);
        settledMarkers.push(marker);
        return { inactiveKeyIds: rows.map((r) => r.id) };
      } catch (err) {
        settledMarkers.push(...settled);
        // Lost connection: the statement may or may not have committed. Anything else rolled back.
        if (isDatabaseUnavailable(err)) throw new AmbiguousWriteError(marker, { cause: err });
        throw err;
      }
    },
    async outcome(marker) {
      const db = await database();
      const rows = await db.prisma.$queryRawUnsafe<{ fenced: number }[]>(FENCE_SQL, marker);
      settledMarkers.push(marker);
      return rows[0]?.fenced === 1 ? "aborted" : "committed";
    },
  };
}
