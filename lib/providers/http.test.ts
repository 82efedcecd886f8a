import { describe, expect, it } from "vitest";
import { DEFAULT_HTTP_POLICY, errorForStatus, type HttpPolicy, isRetryable, parseRetryAfter, readBytes, readText, send } from "./http";
import { fakeFetch, providerError, timed, within } from "./test-support";
import { ProviderError } from "./types";

const policy: HttpPolicy = { ...DEFAULT_HTTP_POLICY, attemptTimeoutMs: 1_000, backoffBaseMs: 10, backoffMaxMs: 20, random: () => 0.5 };

/** send() with a handler that fails for non-2xx like every client does. */
function call(
  fetch: (url: string, init: RequestInit) => Promise<Response>,
  deadline: number,
  overrides: Partial<HttpPolicy> = {},
  signal?: AbortSignal,
) {
  return send({
    provider: "provider_a",
    fetch,
    policy: { ...policy, ...overrides },
    url: "http://upstream.test/x",
    init: { method: "POST", body: "{}" },
    deadline,
    signal,
    handle: async (res, signal) => {
      if (!res.ok) throw errorForStatus("provider_a", res.status, parseRetryAfter(res.headers.get("retry-after")));
      return readText(res, "provider_a", policy.maxBodyBytes, signal);
    },
  });
}

describe("send: retries", () => {
  it("retries 5xx at most maxRetries times with backoff, then gives up without a final sleep", async () => {
    const attemptsAt: number[] = [];
    const { fetch, calls } = fakeFetch(() => {
      attemptsAt.push(performance.now());
      return new Response("", { status: 503 });
    });
    // Backoff 400 ms with jitter fixed at 0.5 → 300 ms between attempts.
    const err = await providerError(call(fetch, within(5_000), { backoffBaseMs: 400, backoffMaxMs: 400 }));
    const failedAt = performance.now();
    expect(err.kind).toBe("unavailable");
    expect(err.status).toBe(503);
    expect(calls).toHaveLength(3);
    expect(attemptsAt[1] - attemptsAt[0]).toBeGreaterThanOrEqual(290);
    expect(attemptsAt[2] - attemptsAt[1]).toBeGreaterThanOrEqual(290);
    // A sleep after the last attempt would put another 300 ms here.
    expect(failedAt - attemptsAt[2]).toBeLessThan(150);
  });

  it.each([400, 401, 403, 404, 405, 422])("never retries %i", async (status) => {
    const { fetch, calls } = fakeFetch(() => new Response("", { status }));
    await providerError(call(fetch, within(5_000)));
    expect(calls).toHaveLength(1);
  });

  it("recovers when a retry succeeds", async () => {
    let n = 0;
    const { fetch, calls } = fakeFetch(() => (++n === 1 ? new Response("", { status: 503 }) : new Response("ok")));
    await expect(call(fetch, within(5_000))).resolves.toBe("ok");
    expect(calls).toHaveLength(2);
  });

  it("honours Retry-After when it fits before the deadline", async () => {
    let n = 0;
    const { fetch } = fakeFetch(() => (++n === 1 ? new Response("", { status: 429, headers: { "retry-after": "0.3" } }) : new Response("ok")));
    const { value, ms } = await timed(() => call(fetch, within(2_000)));
    expect(value).toBe("ok");
    expect(ms).toBeGreaterThanOrEqual(290);
  });

  it("does not sleep a Retry-After that would end past the deadline", async () => {
    const { fetch, calls } = fakeFetch(() => new Response("", { status: 429, headers: { "retry-after": "30" } }));
    const { value: err, ms } = await timed(() => providerError(call(fetch, within(1_000))));
    expect(err.kind).toBe("rate_limited");
    expect(err.retryAfterMs).toBe(30_000);
    expect(calls).toHaveLength(1);
    expect(ms).toBeLessThan(500);
  });

  it("treats a thrown fetch as a retryable network error", async () => {
    const { fetch, calls } = fakeFetch(() => {
      throw new TypeError("fetch failed");
    });
    const err = await providerError(call(fetch, within(5_000)));
    expect(err.kind).toBe("network");
    expect(calls).toHaveLength(3);
  });
});

describe("send: time", () => {
  const hang = (_url: string, init: RequestInit) =>
    new Promise<Response>((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)));

  it("cuts each attempt at attemptTimeoutMs and the whole call at the deadline", async () => {
    const { value: err, ms } = await timed(() => providerError(call(hang, within(650), { attemptTimeoutMs: 200 })));
    expect(err.kind).toBe("timeout");
    expect(ms).toBeGreaterThanOrEqual(390);
    expect(ms).toBeLessThan(700);
  });

  it("never runs past a deadline shorter than one attempt", async () => {
    const { value: err, ms } = await timed(() => providerError(call(hang, within(250), { attemptTimeoutMs: 10_000 })));
    expect(err.kind).toBe("timeout");
    expect(ms).toBeLessThan(350);
  });

  it("fails at once when the deadline has already passed", async () => {
    const { fetch, calls } = fakeFetch(() => new Response("ok"));
    const err = await providerError(call(fetch, Date.now() - 1));
    expect(err.kind).toBe("timeout");
    expect(calls).toHaveLength(0);
  });

  it("stops at once when the caller aborts, and does not retry", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    let attempts = 0;
    const counting = (url: string, init: RequestInit) => {
      attempts++;
      return hang(url, init);
    };
    const { value: err, ms } = await timed(() => providerError(call(counting, within(5_000), {}, controller.signal)));
    expect(err.kind).toBe("timeout");
    expect(err.message).toBe("request cancelled");
    expect(attempts).toBe(1);
    expect(ms).toBeLessThan(250);
  });
});

describe("helpers", () => {
  it("parses Retry-After seconds and HTTP dates", () => {
    expect(parseRetryAfter("5")).toBe(5_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
  });

  it("classifies retryable failures", () => {
    const e = (kind: ProviderError["kind"], status?: number) => new ProviderError("provider_a", kind, "x", status);
    expect(isRetryable(e("timeout"))).toBe(true);
    expect(isRetryable(e("network"))).toBe(true);
    // A 429 is retried only when it says when (Retry-After); a bare one holds the provider instead (BaseClient).
    expect(isRetryable(new ProviderError("provider_a", "rate_limited", "x", 429, 1_000))).toBe(true);
    expect(isRetryable(e("rate_limited", 429))).toBe(false);
    expect(isRetryable(e("unavailable", 502))).toBe(true);
    expect(isRetryable(e("unavailable", 405))).toBe(false);
    expect(isRetryable(e("malformed", 200))).toBe(false);
    expect(isRetryable(e("rejected", 422))).toBe(false);
  });

  it("refuses bodies over the cap instead of buffering them", async () => {
    const res = new Response(new Uint8Array(2048));
    const err = await providerError(readBytes(res, "provider_a", 1024, new AbortController().signal));
    expect(err.kind).toBe("malformed");
  });

  it("stops reading a stalled body when the signal aborts", async () => {
    const res = new Response(new ReadableStream());
    const { ms } = await timed(() => readBytes(res, "provider_a", 1024, AbortSignal.timeout(100)).catch(() => undefined));
    expect(ms).toBeLessThan(300);
  });
});
