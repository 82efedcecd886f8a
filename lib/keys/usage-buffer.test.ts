import { describe, expect, it } from "vitest";
import { AmbiguousWriteError, type UsageBatch, UsageBuffer, type UsageWriter } from "./usage-buffer";

/** A writer that applies batches to an in-memory "database" and can be told to fail. */
function fakeWriter() {
  const db = new Map<string, number>();
  const days = new Map<string, { requests: number; characters: number; cacheHits: number }>();
  const calls: UsageBatch[] = [];
  const writes = new Map<string, "committed" | "aborted" | "unknown">();
  let mode: "ok" | "fail" | "ambiguous-committed" | "ambiguous-aborted" = "ok";
  let n = 0;
  const apply = (batch: UsageBatch) => {
    for (const [id, t] of batch) {
      db.set(id, (db.get(id) ?? 0) + t.requests);
      for (const [day, d] of t.days) {
        const k = `${id}@${day}`;
        const e = days.get(k) ?? { requests: 0, characters: 0, cacheHits: 0 };
        days.set(k, { requests: e.requests + d.requests, characters: e.characters + d.characters, cacheHits: e.cacheHits + d.cacheHits });
      }
    }
  };
  const writer: UsageWriter = {
    async write(batch) {
      calls.push(batch);
      await new Promise((r) => setTimeout(r, 1));
      const writeId = String(++n);
      if (mode === "fail") throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
      if (mode === "ambiguous-committed") {
        apply(batch);
        writes.set(writeId, "committed");
        throw new AmbiguousWriteError(writeId);
      }
      if (mode === "ambiguous-aborted") {
        writes.set(writeId, "aborted");
        throw new AmbiguousWriteError(writeId);
      }
      apply(batch);
      return { inactiveKeyIds: [...batch.keys()].filter((id) => id.startsWith("revoked")) };
    },
    async outcome(writeId) {
      return writes.get(writeId) ?? "unknown";
    },
  };
  return { writer, db, days, calls, setMode: (m: typeof mode) => (mode = m) };
}

describe("UsageBuffer", () => {
  it("asks for one flush task per write: every request recorded before that task's write takes its batch goes with it", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer, 20);
    // Request 1 is recorded and schedules the task (here: the flush it would run after its response).
    buf.record("a", 1);
    expect(buf.claimFlushTask()).toBe(true);
    const task = buf.flush();
    // Requests 2–10 end while that task waits for the interval: none needs a task of its own.
    for (let i = 0; i < 9; i++) {
      buf.record("a", 1);
      expect(buf.claimFlushTask()).toBe(false);
    }
    expect(await task).toBe(true);
    expect(w.calls).toHaveLength(1);
    expect(w.db.get("a")).toBe(10);
    // Once a write has taken the batch, the next request must schedule a task again.
    buf.record("a", 1);
    expect(buf.claimFlushTask()).toBe(true);
    expect(await buf.flush()).toBe(true);
    expect(w.db.get("a")).toBe(11);
  });

  it("asks for a new flush task once a failed write has taken the batch (the failed task drains; later counts get their own)", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer);
    w.setMode("fail");
    buf.record("a", 1);
    expect(buf.claimFlushTask()).toBe(true);
    expect(await buf.flush()).toBe(false);
    buf.record("a", 1);
    expect(buf.claimFlushTask()).toBe(true);
    w.setMode("ok");
    expect(await buf.flush()).toBe(true);
    expect(w.db.get("a")).toBe(2);
  });

  it("writes nothing per record, and one batch with the summed counts per flush", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer);
    for (let i = 0; i < 100; i++) buf.record("a", 1);
    buf.record("b", 1, 42);
    buf.record("a", 0, 8);
    expect(w.calls).toHaveLength(0);
    expect(await buf.flush()).toBe(true);
    expect(w.calls).toHaveLength(1);
    expect(w.db.get("a")).toBe(100);
    expect(w.db.get("b")).toBe(1);
    expect([...w.days.values()].reduce((s, d) => s + d.characters, 0)).toBe(50);
    expect(buf.backlog()).toEqual({ keys: 0, requests: 0, characters: 0 });
  });

  it("coalesces concurrent flushes: one write per interval whatever the request rate, every waiter told", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer, 30);
    const waits: Promise<boolean>[] = [];
    for (let i = 0; i < 200; i++) {
      buf.record(`k${i % 7}`, 1);
      waits.push(buf.flush());
    }
    expect(await Promise.all(waits)).toEqual(Array(200).fill(true));
    expect(w.calls.length).toBe(1);
    expect([...w.db.values()].reduce((a, b) => a + b, 0)).toBe(200);
  });

  it("an urgent flush does not wait for the interval", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer, 10_000);
    buf.record("a", 1);
    const lazy = buf.flush();
    const started = Date.now();
    expect(await buf.flush(true)).toBe(true);
    expect(await lazy).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(w.db.get("a")).toBe(1);
  });

  it("keeps counts through a failed write and writes them exactly once when the database is back", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer);
    w.setMode("fail");
    for (let i = 0; i < 10; i++) buf.record("a", 1);
    expect(await buf.flush()).toBe(false);
    buf.record("a", 1);
    expect(await buf.flush()).toBe(false);
    expect(buf.pendingRequests("a")).toBe(11);
    w.setMode("ok");
    expect(await buf.flush()).toBe(true);
    expect(w.db.get("a")).toBe(11);
    expect(await buf.flush()).toBe(true);
    expect(w.db.get("a")).toBe(11);
  });

  it("never re-writes a batch whose transaction committed although the connection dropped", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer);
    w.setMode("ambiguous-committed");
    for (let i = 0; i < 5; i++) buf.record("a", 1);
    expect(await buf.flush()).toBe(false);
    expect(buf.pendingRequests("a")).toBe(5); // not known to be written yet
    w.setMode("ok");
    buf.record("a", 1);
    expect(await buf.flush()).toBe(true);
    expect(w.db.get("a")).toBe(6); // 5 (committed) + 1, not 11
    expect(buf.pendingRequests("a")).toBe(0);
  });

  it("tallies cache hits beside the characters sent upstream, and keeps both through a failed write", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer);
    w.setMode("fail");
    buf.record("a", 1, 12);
    buf.record("a", 1, 0, 1);
    expect(await buf.flush()).toBe(false);
    buf.record("a", 0, 0, 2);
    w.setMode("ok");
    expect(await buf.flush()).toBe(true);
    expect([...w.days.values()]).toEqual([{ requests: 2, characters: 12, cacheHits: 3 }]);
  });

  it("re-writes a batch whose transaction was rolled back", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer);
    w.setMode("ambiguous-aborted");
    for (let i = 0; i < 5; i++) buf.record("a", 1);
    expect(await buf.flush()).toBe(false);
    w.setMode("ok");
    expect(await buf.flush()).toBe(true);
    expect(w.db.get("a")).toBe(5);
  });

  it("drain retries until the writes succeed, within its time budget", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer);
    w.setMode("fail");
    buf.record("a", 3);
    setTimeout(() => w.setMode("ok"), 150);
    expect(await buf.drain(3_000)).toBe(true);
    expect(w.db.get("a")).toBe(3);
    w.setMode("fail");
    buf.record("a", 1);
    expect(await buf.drain(100)).toBe(false);
    expect(buf.backlog().requests).toBe(1);
  });

  it("reports keys the database says are inactive", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer);
    const inactive: string[] = [];
    buf.onInactive = (id) => inactive.push(id);
    buf.record("revoked-1", 1);
    buf.record("live", 1);
    await buf.flush();
    expect(inactive).toEqual(["revoked-1"]);
  });

  it("tallies request outcomes by day, endpoint, status, pair and provider in the same write as the counts", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer, 0, () => Date.UTC(2026, 10, 24, 12));
    const ok = {
      endpoint: "POST /api/v1/translate",
      status: 200,
      languagePair: "en-lug",
      provider: "provider_a",
      characters: 12,
      cacheHits: 0,
      upstreamCalls: { provider_a: 1 },
    };
    for (let i = 0; i < 3; i++) {
      buf.record("a", 1);
      buf.recordOutcome("a", i === 2 ? { ...ok, characters: 0, cacheHits: 1, upstreamCalls: {} } : ok);
    }
    // Served by provider_c after provider_a failed: provider_a's call is counted under provider_a, without a request.
    buf.record("a", 1);
    buf.recordOutcome("a", { ...ok, provider: "provider_c", upstreamCalls: { provider_a: 1, provider_c: 1 } });
    buf.record("a", 1);
    buf.recordOutcome("a", {
      endpoint: "POST /api/v1/translate",
      status: 429,
      languagePair: "",
      provider: "",
      characters: 0,
      cacheHits: 0,
      upstreamCalls: {},
    });
    expect(w.calls).toHaveLength(0); // no I/O per request
    w.setMode("fail");
    expect(await buf.flush(true)).toBe(false);
    w.setMode("ok");
    expect(await buf.flush(true)).toBe(true);
    const written = w.calls.at(-1)!.get("a")!;
    expect(written.requests).toBe(5);
    expect([...written.days.values()]).toEqual([{ requests: 5, characters: 36, cacheHits: 1 }]);
    const outcomes = [...written.outcomes.values()].map(({ dayNo, ...o }) => ({
      day: new Date(dayNo * 86_400_000).toISOString().slice(0, 10),
      ...o,
    }));
    expect(outcomes).toEqual([
      {
        day: "2026-11-24",
        endpoint: "POST /api/v1/translate",
        status: 200,
        languagePair: "en-lug",
        provider: "provider_a",
        requests: 3,
        characters: 24,
        cacheHits: 1,
        upstreamCalls: 3,
      },
      {
        day: "2026-11-24",
        endpoint: "POST /api/v1/translate",
        status: 200,
        languagePair: "en-lug",
        provider: "provider_c",
        requests: 1,
        characters: 12,
        cacheHits: 0,
        upstreamCalls: 1,
      },
      {
        day: "2026-11-24",
        endpoint: "POST /api/v1/translate",
        status: 429,
        languagePair: "",
        provider: "",
        requests: 1,
        characters: 0,
        cacheHits: 0,
        upstreamCalls: 0,
      },
    ]);
  });

  it("carries request log lines in the same write as the counts, in order, and keeps them through a failed write", async () => {
    const w = fakeWriter();
    const buf = new UsageBuffer(w.writer);
    const outcome = { endpoint: "POST /api/v1/detect", status: 200, languagePair: "", provider: "", characters: 0, cacheHits: 0, upstreamCalls: {} };
    const line = (n: number) => ({ ...outcome, at: n, requestId: `req_${n}`, latencyMs: 5, model: "", cache: "", upstreamCalls: 0 });
    buf.recordOutcome("a", outcome, line(1));
    buf.recordOutcome("a", outcome, line(2));
    expect(w.calls).toHaveLength(0); // no I/O per request
    w.setMode("fail");
    expect(await buf.flush(true)).toBe(false);
    buf.recordOutcome("a", outcome, line(3));
    w.setMode("ok");
    expect(await buf.flush(true)).toBe(true);
    expect(
      w.calls
        .at(-1)!
        .get("a")!
        .log.map((l) => l.requestId),
    ).toEqual(["req_1", "req_2", "req_3"]);
    expect(await buf.flush(true)).toBe(true);
    expect(w.calls).toHaveLength(2); // written once
  });
});
