import { describe, expect, it } from "vitest";
import { ProviderError, type ProviderId } from "@/lib/providers/types";
import { chainFailure, FALLBACK_SHARE, type Route, routingFields, runChain } from "./chain";

const A = "provider_a" as ProviderId;
const C = "provider_c" as ProviderId;

function route(provider: ProviderId, attempt: Route<string>["attempt"], label?: string): Route<string> {
  return { provider, label, attempt };
}
const failing = (provider: ProviderId, kind: ProviderError["kind"], status?: number, retryAfterMs?: number) => async () => {
  throw new ProviderError(provider, kind, `fake ${kind}`, status, retryAfterMs);
};

describe("runChain", () => {
  it("runs an attempt of several calls as one unit, under one deadline", async () => {
    const seen: number[] = [];
    const chunked = route(A, async (deadline) => {
      const parts: string[] = [];
      for (const chunk of ["one", "two", "three"]) {
        seen.push(deadline);
        parts.push(chunk.toUpperCase());
      }
      return parts.join(" ");
    });
    const outcome = await runChain([chunked], Date.now() + 1_000);
    expect(outcome).toMatchObject({ ok: true, value: "ONE TWO THREE", tried: [A], failures: [] });
    expect(new Set(seen).size).toBe(1);
  });

  it("moves to a provider's next model only on a failure of that model; a provider failure ends its turn", async () => {
    const calls: string[] = [];
    const model = (name: string, attempt: Route<string>["attempt"]) =>
      route(
        C,
        async (d) => {
          calls.push(name);
          return attempt(d);
        },
        name,
      );
    const modelFailure = await runChain(
      [model("m1", failing(C, "rejected", 404)), model("m2", failing(C, "unavailable", 503)), model("m3", async () => "ok")],
      Date.now() + 1_000,
    );
    expect(modelFailure).toMatchObject({ ok: true, value: "ok", tried: [C], failures: [] });
    expect(calls).toEqual(["m1", "m2", "m3"]);

    calls.length = 0;
    const providerFailure = await runChain(
      [model("m1", failing(C, "rejected", 404)), model("m2", failing(C, "network")), model("m3", async () => "ok")],
      Date.now() + 1_000,
    );
    expect(calls).toEqual(["m1", "m2"]);
    expect(providerFailure).toMatchObject({
      ok: false,
      tried: [C],
      failures: [{ provider: C, detail: "m1: rejected: fake rejected; network: fake network" }],
    });
  });

  it("gives a turn that is not last FALLBACK_SHARE of the remaining time; builds the routing fields and the 503 once", async () => {
    let firstDeadline = 0;
    const start = Date.now();
    const outcome = await runChain(
      [
        route(A, async (d) => {
          firstDeadline = d;
          throw new ProviderError(A, "rate_limited", "slow down", 429, 2_500);
        }),
        route(C, async () => "served", "m"),
      ],
      start + 1_000,
    );
    expect(firstDeadline - start).toBeLessThanOrEqual(Math.ceil(1_000 * FALLBACK_SHARE) + 5);
    if (!outcome.ok) throw new Error("expected success");
    expect(routingFields("auto", outcome)).toEqual({ provider: C, requested_provider: "auto", fallback_used: true, providers_tried: [A, C] });

    const failed = await runChain([route(A, failing(A, "rate_limited", 429, 2_500))], Date.now() + 1_000);
    if (failed.ok) throw new Error("expected failure");
    const err = chainFailure(failed, { what: "to do it", forced: A });
    expect(err.message).toBe(
      'provider_a failed to do it: rate_limited: fake rate_limited. It was requested explicitly, so no other provider was tried; retry, or use provider "auto".',
    );
    expect(err.options.headers).toEqual({ "Retry-After": "3" });
  });

  it("rethrows anything that is not a ProviderError (a bug is a 500, not a fallback)", async () => {
    const bug = route(A, async () => {
      throw new TypeError("boom");
    });
    await expect(runChain([bug, route(C, async () => "x", "m")], Date.now() + 1_000)).rejects.toThrow("boom");
  });
});
