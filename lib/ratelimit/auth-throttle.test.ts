import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/kit/errors";
import { MemoryRateLimitStore } from "@/lib/ratelimit/memory";
import { FailedAuthThrottle, throttleFailedAuth } from "./auth-throttle";

function setup(limit = 3, windowMs = 60_000) {
  let now = 1_000_000;
  const store = new MemoryRateLimitStore(() => now);
  const throttle = new FailedAuthThrottle(store, { limit, windowMs }, () => now);
  let lookups = 0;
  const verified = new Set(["svc_good"]);
  /** A stand-in for the key store: counts database lookups; only "svc_good" is a key. */
  const authenticate = (ip: string, key: string) =>
    throttleFailedAuth(
      ip,
      key,
      async () => {
        lookups++;
        return key === "svc_good" ? { id: "k" } : null;
      },
      throttle,
      (k) => verified.has(k),
    );
  return { authenticate, lookups: () => lookups, advance: (ms: number) => (now += ms), verified };
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe("throttleFailedAuth", () => {
  it("answers the failures within budget as refused keys (null), then 429 with Retry-After and no more lookups", async () => {
    const { authenticate, lookups } = setup(3);
    for (let i = 0; i < 3; i++) expect(await authenticate("203.0.113.1", `svc_bad${i}`)).toBeNull();
    const crossing = await refusal(authenticate("203.0.113.1", "svc_bad3"));
    expect(crossing.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(crossing.options.headers?.["Retry-After"]).toBe("60");
    expect(crossing.options.headers?.["X-RateLimit-Limit"]).toBe("3");
    expect(crossing.options.headers?.["X-RateLimit-Remaining"]).toBe("0");
    expect(Number(crossing.options.headers?.["X-RateLimit-Reset"])).toBeGreaterThan(1_000);
    expect(lookups()).toBe(4);
    for (let i = 0; i < 100; i++) {
      const refused = await refusal(authenticate("203.0.113.1", `svc_flood${i}`));
      expect(refused.code).toBe("RATE_LIMIT_EXCEEDED");
      // Refused without a lookup, still with every header a 429 carries, the same reset as the refusal that blocked it.
      expect(refused.options.headers).toEqual(crossing.options.headers);
    }
    expect(lookups()).toBe(4); // the flood past the budget cost no lookup
  });

  it("keeps a key verified before working from a throttled address (a shared NAT), and other addresses unaffected", async () => {
    const { authenticate, lookups, verified } = setup(2);
    for (let i = 0; i < 3; i++) await authenticate("198.51.100.7", `svc_bad${i}`).catch(() => {});
    expect(await authenticate("198.51.100.7", "svc_good")).toEqual({ id: "k" });
    verified.delete("svc_good"); // a key this instance never verified waits like any other
    expect((await refusal(authenticate("198.51.100.7", "svc_good"))).code).toBe("RATE_LIMIT_EXCEEDED");
    const before = lookups();
    expect(await authenticate("198.51.100.8", "svc_good")).toEqual({ id: "k" });
    expect(lookups()).toBe(before + 1);
  });

  it("successful authentications spend nothing; the address may try again once the window frees a unit", async () => {
    const { authenticate, advance } = setup(2, 10_000);
    for (let i = 0; i < 50; i++) await authenticate("192.0.2.1", "svc_good");
    expect(await authenticate("192.0.2.1", "svc_bad")).toBeNull();
    expect(await authenticate("192.0.2.1", "svc_bad")).toBeNull();
    const refused = await refusal(authenticate("192.0.2.1", "svc_bad"));
    expect(refused.options.headers?.["Retry-After"]).toBe("10");
    advance(9_999);
    await refusal(authenticate("192.0.2.1", "svc_new"));
    advance(1);
    expect(await authenticate("192.0.2.1", "svc_bad")).toBeNull();
  });

  it("a limiter that cannot answer leaves a refused key a 401, not a 503", async () => {
    const throttle = new FailedAuthThrottle(
      { name: "redis", check: () => Promise.reject(new Error("down")), health: async () => ({ ok: false }) },
      { limit: 1, windowMs: 1_000 },
    );
    for (let i = 0; i < 3; i++)
      expect(
        await throttleFailedAuth(
          "192.0.2.9",
          "svc_bad",
          async () => null,
          throttle,
          () => false,
        ),
      ).toBeNull();
  });
});
