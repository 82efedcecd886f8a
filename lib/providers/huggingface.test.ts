import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type ClientOptions, CREDIT_RECHECK_MS } from "./client";
import { HuggingFaceClient } from "./huggingface";
import { type EmulatorServer, startEmulatorServer } from "./sandbox";
import { providerError, timed, within } from "./test-support";
import type { HfModelRoute } from "./types";

const TOKEN = "hf_testtoken";
const EN_SW: HfModelRoute = { model: "Helsinki-NLP/opus-mt-en-sw", tier: "dedicated" };

let server: EmulatorServer;
beforeAll(async () => {
  server = await startEmulatorServer("hf", { credential: TOKEN, translation: "echo", hfNotDeployed: ["Helsinki-NLP/opus-mt-en-zu"] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const client = (opts: Partial<ClientOptions> = {}) =>
  new HuggingFaceClient({ baseUrl: server.url, credential: TOKEN, ...opts, policy: { backoffBaseMs: 10, backoffMaxMs: 20, ...opts.policy } });
const translate = (c: HuggingFaceClient, hf: HfModelRoute | undefined, deadlineMs = 3_000, text = "Hello") =>
  c.translate({ text, source: "en", target: "sw", hf, deadline: within(deadlineMs) });

describe("Hugging Face translate: wire", () => {
  it("POSTs {inputs} to /hf-inference/models/{org}/{model} and reports the model id", async () => {
    await expect(translate(client(), EN_SW)).resolves.toEqual({
      translatedText: "[sandbox:hf Helsinki-NLP/opus-mt-en-sw en→sw] Hello",
      model: "Helsinki-NLP/opus-mt-en-sw",
    });
    const [req] = server.stats.recent;
    expect(req.path).toBe("/hf-inference/models/Helsinki-NLP/opus-mt-en-sw");
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(req.bodyText ?? "")).toEqual({ inputs: "Hello" });
  });

  it("sends src_lang/tgt_lang only when the route has them (NLLB)", async () => {
    const nllb: HfModelRoute = { model: "facebook/nllb-200-distilled-600M", tier: "general", srcLang: "eng_Latn", tgtLang: "swh_Latn" };
    await expect(translate(client(), nllb)).resolves.toMatchObject({
      translatedText: "[sandbox:hf facebook/nllb-200-distilled-600M eng_Latn→swh_Latn] Hello",
    });
    expect(JSON.parse(server.stats.recent[0].bodyText ?? "")).toEqual({
      inputs: "Hello",
      parameters: { src_lang: "eng_Latn", tgt_lang: "swh_Latn" },
    });
  });

  it("prefixes the target token for multi-target models (opus-mt-en-mul)", async () => {
    const mul: HfModelRoute = { model: "Helsinki-NLP/opus-mt-en-mul", tier: "fallback", inputPrefix: ">>swh<< " };
    await expect(translate(client(), mul)).resolves.toMatchObject({ translatedText: "[sandbox:hf Helsinki-NLP/opus-mt-en-mul en→swh] Hello" });
    expect(JSON.parse(server.stats.recent[0].bodyText ?? "").inputs).toBe(">>swh<< Hello");
  });

  it("refuses a missing route or an unsafe model id without calling HF", async () => {
    expect(await providerError(translate(client(), undefined))).toMatchObject({ kind: "rejected", upstreamCode: "NO_MODEL_ROUTE" });
    for (const model of ["../../admin", "Helsinki-NLP/../x", "no-slash", "a/b/c"])
      expect((await providerError(translate(client(), { model, tier: "general" }))).kind).toBe("rejected");
    expect(server.stats.requests).toBe(0);
  });
});

describe("Hugging Face translate: cold start and errors", () => {
  it("503 loading with an estimated_time that fits the deadline is waited out and retried", async () => {
    server.setControls({ failMode: "loading", estimatedTimeSeconds: 0.3, failNext: 1 });
    const { value, ms } = await timed(() => translate(client(), EN_SW, 3_000));
    expect(value.model).toBe(EN_SW.model);
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(server.stats.requests).toBe(2);
  });

  it("503 loading whose estimated_time would pass the deadline fails at once without sleeping", async () => {
    server.setControls({ failMode: "loading", estimatedTimeSeconds: 20 });
    const { value: err, ms } = await timed(() => providerError(translate(client(), EN_SW, 1_500)));
    expect(err).toMatchObject({ kind: "unavailable", status: 503, message: "model is loading", retryAfterMs: 20_000 });
    expect(ms).toBeLessThan(500);
    expect(server.stats.requests).toBe(1);
  });

  it("keeps retrying a cold start only within its retry budget (never unbounded)", async () => {
    server.setControls({ failMode: "loading", estimatedTimeSeconds: 0.05 });
    await providerError(translate(client(), EN_SW, 5_000));
    expect(server.stats.requests).toBe(3);
  });

  it("a model that is not deployed (404) is rejected for this route, not retried, and never opens the circuit", async () => {
    const c = client({ circuit: { failureThreshold: 2, cooldownMs: 60_000 } });
    for (let i = 0; i < 4; i++) {
      const err = await providerError(translate(c, { model: "Helsinki-NLP/opus-mt-en-zu", tier: "dedicated" }));
      expect(err).toMatchObject({ kind: "rejected", status: 404, upstreamCode: "MODEL_NOT_DEPLOYED" });
    }
    expect(server.stats.requests).toBe(4);
    expect(c.circuitState).toBe("closed");
  });

  it('400 "not supported by provider hf-inference" → rejected', async () => {
    server.setControls({ failMode: "status", status: 400 });
    expect(await providerError(translate(client(), EN_SW))).toMatchObject({ kind: "rejected", upstreamCode: "MODEL_NOT_SUPPORTED" });
  });

  it("reads the message from {error:[...]} and from the X-Error-Message header", async () => {
    server.setControls({ failMode: "status", status: 400, variant: "array" });
    expect(await providerError(translate(client(), EN_SW))).toMatchObject({ kind: "rejected", upstreamCode: "MODEL_NOT_SUPPORTED" });
    server.setControls({ failMode: "status", status: 400, variant: "header" });
    expect(await providerError(translate(client(), EN_SW))).toMatchObject({ kind: "rejected", upstreamCode: "error" });
  });

  it("401 → auth; 402 → out of credit, not retried", async () => {
    expect(await providerError(translate(client({ credential: "hf_wrong" }), EN_SW))).toMatchObject({ kind: "auth", status: 401 });
    server.setControls({ failMode: "status", status: 402 });
    const err = await providerError(translate(client(), EN_SW));
    expect(err).toMatchObject({ kind: "rate_limited", status: 402, upstreamCode: "OUT_OF_CREDIT" });
    expect(err.message).toContain("out of credit");
    expect(server.stats.requests).toBe(2);
  });

  it("out of credit: the client says so, calls no more until the re-check, keeps its circuit closed, and recovers on success", async () => {
    const c = client();
    server.setControls({ failMode: "status", status: 402 });
    await providerError(translate(c, EN_SW));
    expect(c.outOfCredit).toBe(true);
    expect(c.circuitState).toBe("closed");
    server.setControls({});
    const refused = await providerError(translate(c, EN_SW));
    expect(refused).toMatchObject({ kind: "rate_limited", upstreamCode: "OUT_OF_CREDIT" });
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(server.stats.requests).toBe(1);
    // Once the re-check time has passed, one call goes through; its success clears the state.
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now + CREDIT_RECHECK_MS + 1);
    try {
      await expect(translate(c, EN_SW)).resolves.toMatchObject({ model: EN_SW.model });
    } finally {
      vi.restoreAllMocks();
    }
    expect(c.outOfCredit).toBe(false);
  });

  it("429 without Retry-After is not retried at once (the provider is held until its window resets instead)", async () => {
    server.setControls({ failMode: "rate_limited", failNext: 2 });
    await expect(providerError(translate(client(), EN_SW))).resolves.toMatchObject({ kind: "rate_limited", status: 429 });
    expect(server.stats.requests).toBe(1);
  });

  it("429 with Retry-After that fits the deadline is waited out", async () => {
    server.setControls({ failMode: "rate_limited", failNext: 1, retryAfterSeconds: 0.05 });
    await expect(translate(client(), EN_SW)).resolves.toMatchObject({ model: EN_SW.model });
    expect(server.stats.requests).toBe(2);
  });
});
