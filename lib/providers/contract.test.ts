/**
 * Transport contract shared by the three clients, each against its emulator over real loopback HTTP: success,
 * timeouts inside the deadline, resets, cut and malformed bodies, HTML pages, retries, Retry-After and the circuit.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ClientOptions } from "./client";
import { HuggingFaceClient } from "./huggingface";
import { KhayaClient } from "./khaya";
import { type EmulatorKind, type EmulatorServer, startEmulatorServer } from "./sandbox";
import { SunbirdClient } from "./sunbird";
import { providerError, timed, within } from "./test-support";
import type { ProviderClient, TranslateRequest } from "./types";

const CREDENTIAL = "contract-secret-credential";
const FAST = { backoffBaseMs: 10, backoffMaxMs: 20 };

interface Case {
  kind: EmulatorKind;
  make: (opts: ClientOptions) => ProviderClient & { readonly circuitState: string };
  request: Omit<TranslateRequest, "deadline">;
  expected: string;
  /** Sunbird's per-minute 429 carries no Retry-After; its quota 429 does. */
  retryAfterVariant?: string;
  /**
   * Sunbird counts a request against its quota before working on it: a call that timed out, lost its connection or
   * failed with a 5xx may have been charged, and is not sent again.
   */
  charged?: boolean;
}

const CASES: Case[] = [
  {
    kind: "sunbird",
    make: (o) => new SunbirdClient(o),
    request: { text: "Hello", source: "en", target: "lug" },
    expected: "[sandbox:sunbird eng→lug] Hello",
    retryAfterVariant: "quota",
    charged: true,
  },
  {
    kind: "khaya",
    make: (o) => new KhayaClient(o),
    request: { text: "Hello", source: "en", target: "tw" },
    expected: "[sandbox:khaya eng-twi] Hello",
  },
  {
    kind: "hf",
    make: (o) => new HuggingFaceClient(o),
    request: { text: "Hello", source: "en", target: "sw", hf: { model: "Helsinki-NLP/opus-mt-en-sw", tier: "dedicated" } },
    expected: "[sandbox:hf Helsinki-NLP/opus-mt-en-sw en→sw] Hello",
  },
];

describe.each(CASES)("$kind client against its emulator over loopback HTTP", ({ kind, make, request, expected, retryAfterVariant, charged }) => {
  let server: EmulatorServer;
  beforeAll(async () => {
    server = await startEmulatorServer(kind, { credential: CREDENTIAL, translation: "echo" });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const client = (opts: Partial<ClientOptions> = {}) =>
    make({ baseUrl: server.url, credential: CREDENTIAL, ...opts, policy: { ...FAST, ...opts.policy } });
  const translate = (c: ProviderClient, deadlineMs = 3_000, signal?: AbortSignal) =>
    c.translate({ ...request, deadline: within(deadlineMs), signal });

  it("translates, and the sandbox output is visibly marked", async () => {
    await expect(translate(client())).resolves.toMatchObject({ translatedText: expected });
    expect(server.stats.requests).toBe(1);
  });

  it("a wrong credential is an auth error, not retried, and never echoed", async () => {
    const err = await providerError(translate(client({ credential: "wrong-credential-value" })));
    expect(err.kind).toBe("auth");
    expect(err.status).toBe(401);
    expect(err.message).not.toContain("wrong-credential-value");
    expect(server.stats.requests).toBe(1);
  });

  it(`a hang is cut at the per-attempt timeout, ${charged ? "not retried (it may have been charged)" : "retried, and the whole call ends by the deadline"}`, async () => {
    server.controls.failMode = "hang";
    const c = client({ policy: { attemptTimeoutMs: 200 } });
    const { value: err, ms } = await timed(() => providerError(translate(c, 700)));
    expect(err.kind).toBe("timeout");
    expect(ms).toBeGreaterThanOrEqual(charged ? 190 : 390);
    expect(ms).toBeLessThan(charged ? 450 : 800);
    if (charged) expect(server.stats.requests).toBe(1);
    else expect(server.stats.requests).toBeGreaterThanOrEqual(2);
  });

  it("a deadline shorter than one attempt wins", async () => {
    server.controls.failMode = "hang";
    const { value: err, ms } = await timed(() => providerError(translate(client({ policy: { attemptTimeoutMs: 30_000 } }), 300)));
    expect(err.kind).toBe("timeout");
    expect(ms).toBeLessThan(450);
    expect(server.stats.requests).toBe(1);
  });

  it("headers followed by a body that never comes is a timeout too", async () => {
    server.setControls({ failMode: "hang", variant: "body" });
    const { value: err, ms } = await timed(() => providerError(translate(client({ policy: { attemptTimeoutMs: 200, maxRetries: 0 } }), 2_000)));
    expect(err.kind).toBe("timeout");
    expect(ms).toBeLessThan(450);
  });

  it(`a reset connection is a network error, ${charged ? "not retried" : "retried up to the limit"}`, async () => {
    server.controls.failMode = "reset";
    const err = await providerError(translate(client()));
    expect(err.kind).toBe("network");
    expect(server.stats.requests).toBe(charged ? 1 : 3);
  });

  it(`a body cut mid-way is a network error${charged ? ", not retried" : ", and a retry can recover"}`, async () => {
    server.setControls({ failMode: "malformed", variant: "cut", failNext: 1 });
    if (charged) expect((await providerError(translate(client()))).kind).toBe("network");
    else await expect(translate(client())).resolves.toMatchObject({ translatedText: expected });
    expect(server.stats.requests).toBe(charged ? 1 : 2);
    server.setControls({ failMode: "malformed", variant: "cut" });
    expect((await providerError(translate(client()))).kind).toBe("network");
  });

  it.each(["truncated", "garbage", "shape"])("a %s body is malformed and not retried", async (variant) => {
    server.setControls({ failMode: "malformed", variant });
    const err = await providerError(translate(client()));
    expect(err.kind).toBe("malformed");
    expect(server.stats.requests).toBe(1);
  });

  it("an HTML page with 200 is malformed, never a translation", async () => {
    server.controls.failMode = "html";
    const err = await providerError(translate(client()));
    expect(err.kind).toBe("malformed");
    expect(err.message).not.toMatch(/<html|Web App/i);
  });

  it.each([500, 502, 503])(`a transient %i is ${charged ? "not retried (it was charged)" : "retried transparently"}`, async (status) => {
    server.setControls({ failMode: "status", status, failNext: 1 });
    if (charged) expect((await providerError(translate(client()))).kind).toBe("unavailable");
    else await expect(translate(client())).resolves.toMatchObject({ translatedText: expected });
    expect(server.stats.requests).toBe(charged ? 1 : 2);
  });

  it("a 429 whose Retry-After fits before the deadline is waited out", async () => {
    server.setControls({ failMode: "rate_limited", variant: retryAfterVariant, retryAfterSeconds: 0.25, failNext: 1 });
    const { value, ms } = await timed(() => translate(client(), 3_000));
    expect(value.translatedText).toBe(expected);
    expect(ms).toBeGreaterThanOrEqual(240);
    expect(server.stats.requests).toBe(2);
  });

  it("a 429 whose Retry-After would pass the deadline fails at once, with the hint", async () => {
    server.setControls({ failMode: "rate_limited", variant: retryAfterVariant, retryAfterSeconds: 30 });
    const { value: err, ms } = await timed(() => providerError(translate(client(), 1_000)));
    expect(err.kind).toBe("rate_limited");
    expect(err.retryAfterMs).toBe(30_000);
    expect(ms).toBeLessThan(500);
    expect(server.stats.requests).toBe(1);
  });

  it("a caller's abort ends the call at once and is not held against the provider", async () => {
    server.controls.failMode = "hang";
    const c = client({ circuit: { failureThreshold: 1, cooldownMs: 60_000 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { value: err, ms } = await timed(() => providerError(translate(c, 5_000, controller.signal)));
    expect(err.message).toBe("request cancelled");
    expect(ms).toBeLessThan(400);
    expect(c.circuitState).toBe("closed");
  });

  describe("circuit breaker", () => {
    const breaker = () => client({ policy: { maxRetries: 0 }, circuit: { failureThreshold: 3, cooldownMs: 300 } });

    it("opens after repeated failures, then fails in under 5 ms without calling the provider", async () => {
      server.setControls({ failMode: "status", status: 503 });
      const c = breaker();
      for (let i = 0; i < 3; i++) expect((await providerError(translate(c))).kind).toBe("unavailable");
      expect(c.circuitState).toBe("open");
      // The median of several calls, so one scheduler hiccup on a loaded machine does not decide the result.
      const samples: number[] = [];
      for (let i = 0; i < 7; i++) {
        const { value: err, ms } = await timed(() => providerError(translate(c)));
        expect(err.kind).toBe("circuit_open");
        samples.push(ms);
      }
      expect(samples.sort((a, b) => a - b)[3]).toBeLessThan(5);
      expect(server.stats.requests).toBe(3);
    });

    it("half-opens after the cooldown and a successful probe closes it", async () => {
      server.setControls({ failMode: "status", status: 502 });
      const c = breaker();
      for (let i = 0; i < 3; i++) await providerError(translate(c));
      server.setControls({});
      await new Promise((r) => setTimeout(r, 320));
      expect(c.circuitState).toBe("half_open");
      await expect(translate(c)).resolves.toMatchObject({ translatedText: expected });
      expect(c.circuitState).toBe("closed");
    });

    it("a failed probe re-opens it", async () => {
      server.controls.failMode = "reset";
      const c = breaker();
      for (let i = 0; i < 3; i++) await providerError(translate(c));
      await new Promise((r) => setTimeout(r, 320));
      expect((await providerError(translate(c))).kind).toBe("network");
      expect(c.circuitState).toBe("open");
    });

    it("caller errors never open it", async () => {
      server.setControls({ failMode: "status", status: 400 });
      const c = breaker();
      for (let i = 0; i < 5; i++) expect((await providerError(translate(c))).kind).toBe("rejected");
      expect(c.circuitState).toBe("closed");
      expect(server.stats.requests).toBe(5);
    });
  });
});
