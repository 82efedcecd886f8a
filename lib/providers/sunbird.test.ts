import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ClientOptions } from "./client";
import { createEmulator, type EmulatorServer, startEmulatorServer } from "./sandbox";
import { SunbirdClient } from "./sunbird";
import { fakeFetch, providerError, within } from "./test-support";

const TOKEN = "eyJ.sunbird-test-token";

let server: EmulatorServer;
beforeAll(async () => {
  server = await startEmulatorServer("sunbird", { credential: TOKEN, translation: "echo" });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const client = (opts: Partial<ClientOptions> = {}) =>
  new SunbirdClient({ baseUrl: server.url, credential: TOKEN, ...opts, policy: { backoffBaseMs: 10, backoffMaxMs: 20, ...opts.policy } });
const translate = (c: SunbirdClient, source: string, target: string, text = "Hello") =>
  c.translate({ text, source, target, deadline: within(3_000) });

describe("Sunbird translate: wire", () => {
  it("POSTs /tasks/translate with a Bearer token and ISO 639-3 codes, and reads output.translated_text", async () => {
    const result = await translate(client(), "en", "lug", "Good morning");
    expect(result).toEqual({ translatedText: "[sandbox:sunbird eng→lug] Good morning", model: "sunflower" });
    const [req] = server.stats.recent;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/tasks/translate");
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(req.bodyText ?? "")).toEqual({ source_language: "eng", target_language: "lug", text: "Good morning" });
  });

  it("leaves source_language out for a source detected without certainty, and Sunflower infers it", async () => {
    const result = await client().translate({ text: "Wan wamito pii", source: "ach", target: "lug", inferSource: true, deadline: within(3_000) });
    expect(result.translatedText).toBe("[sandbox:sunbird auto→lug] Wan wamito pii");
    expect(JSON.parse(server.stats.recent.at(-1)?.bodyText ?? "")).toEqual({ target_language: "lug", text: "Wan wamito pii" });
  });

  it("classifyLanguage: POSTs /tasks/classify_language outside the budget; null for 'language not detected' or a text under 3 characters", async () => {
    let acquired = 0;
    const metered = client({ budget: { tryAcquire: async () => ({ allowed: ++acquired > 0, retryAfterSeconds: 0 }) } });
    expect(await metered.classifyLanguage("Lutino tye ka cito i gang kwan", { deadline: within(3_000) })).toBe("ach");
    expect(JSON.parse(server.stats.recent.at(-1)?.bodyText ?? "")).toEqual({ text: "Lutino tye ka cito i gang kwan" });
    expect(await metered.classifyLanguage("Lutino tye ka Xylo Quorb Zanf", { deadline: within(3_000) })).toBeNull();
    const before = server.stats.requests;
    expect(await metered.classifyLanguage("ok", { deadline: within(3_000) })).toBeNull();
    expect(server.stats.requests).toBe(before);
    // Over 200 characters: the first 200, cut at a word boundary.
    await metered.classifyLanguage(`${"lutino tye ka cito ".repeat(15)}end`, { deadline: within(3_000) });
    expect(JSON.parse(server.stats.recent.at(-1)?.bodyText ?? "").text.length).toBeLessThanOrEqual(200);
    expect(acquired).toBe(0);
  });

  it.each([
    ["sw", "swa"],
    ["rw", "kin"],
    ["ach", "ach"],
    ["teo", "teo"],
    ["nyn", "nyn"],
    ["lgg", "lgg"],
    ["xog", "xog"],
    ["myx", "myx"],
  ])("maps %s to %s", async (code, iso) => {
    await translate(client(), "en", code);
    expect(JSON.parse(server.stats.recent[0].bodyText ?? "").target_language).toBe(iso);
  });

  it("serves non-English pairs among its languages", async () => {
    await expect(translate(client(), "lug", "ach")).resolves.toMatchObject({ translatedText: "[sandbox:sunbird lug→ach] Hello" });
  });

  it("refuses what Sunbird cannot do without calling it", async () => {
    const c = client();
    expect((await providerError(translate(c, "en", "fr"))).kind).toBe("rejected");
    expect((await providerError(translate(c, "lug", "lug"))).kind).toBe("rejected");
    expect((await providerError(translate(c, "en", "lug", "   "))).kind).toBe("rejected");
    expect((await providerError(translate(c, "en", "lug", "a".repeat(5_001)))).upstreamCode).toBe("TEXT_TOO_LONG");
    expect(server.stats.requests).toBe(0);
  });
});

describe("Sunbird translate: the four error shapes", () => {
  it('no token → 401 {"detail":"Not authenticated"} → auth', async () => {
    const err = await providerError(translate(client({ credential: undefined }), "en", "lug"));
    expect(err).toMatchObject({ kind: "auth", status: 401 });
    expect(server.stats.recent[0].headers.authorization).toBeUndefined();
  });

  it('{"detail"} 500 → unavailable, not retried: Sunbird charged it before failing', async () => {
    server.setControls({ failMode: "status", status: 500 });
    const err = await providerError(translate(client(), "en", "lug"));
    expect(err).toMatchObject({ kind: "unavailable", status: 500 });
    expect(server.stats.requests).toBe(1);
  });

  it('{"error_code":"EXTERNAL_SERVICE_ERROR"} 502 → unavailable with the upstream code', async () => {
    server.setControls({ failMode: "status", status: 502 });
    const err = await providerError(translate(client({ policy: { maxRetries: 0 } }), "en", "lug"));
    expect(err).toMatchObject({ kind: "unavailable", status: 502, upstreamCode: "EXTERNAL_SERVICE_ERROR" });
    expect(err.message).not.toContain("sandbox-injected");
  });

  it('{"errors":[...]} 422 → rejected, not retried', async () => {
    server.setControls({ failMode: "status", status: 422 });
    const err = await providerError(translate(client(), "en", "lug"));
    expect(err).toMatchObject({ kind: "rejected", status: 422, upstreamCode: "VALIDATION_ERROR" });
    expect(server.stats.requests).toBe(1);
  });

  it('{"error":"Rate limit exceeded: 50 per 1 minute"} 429 → rate_limited, not retried (no Retry-After: the window must pass)', async () => {
    server.setControls({ failMode: "rate_limited" });
    const err = await providerError(translate(client(), "en", "lug"));
    expect(err).toMatchObject({ kind: "rate_limited", status: 429, retryAfterMs: undefined });
    expect(server.stats.requests).toBe(1);
  });

  it("quota 429 → rate_limited with the Retry-After hint", async () => {
    server.setControls({ failMode: "rate_limited", variant: "quota", retryAfterSeconds: 3_600 });
    const err = await providerError(translate(client(), "en", "lug"));
    expect(err).toMatchObject({ kind: "rate_limited", message: "provider quota exhausted", retryAfterMs: 3_600_000 });
  });

  it("503 cold start → unavailable 'loading', not retried (Sunbird charged it)", async () => {
    server.setControls({ failMode: "loading", failNext: 1 });
    expect((await providerError(translate(client(), "en", "lug"))).message).toBe("provider model is loading");
    expect(server.stats.requests).toBe(1);
    server.setControls({ failMode: "loading" });
    expect((await providerError(translate(client({ policy: { maxRetries: 0 } }), "en", "lug"))).message).toBe("provider model is loading");
  });

  it("405 from the SPA catch-all means the endpoint moved, not a bad token", async () => {
    server.setControls({ failMode: "status", status: 405 });
    const err = await providerError(translate(client(), "en", "lug"));
    expect(err.kind).toBe("unavailable");
    expect(err.kind).not.toBe("auth");
    expect(err.message).toMatch(/endpoint/);
    expect(server.stats.requests).toBe(1);
  });

  it("the emulator's real 400 bodies map to safe messages", async () => {
    // Real upstream bodies, produced by the emulator's own validation, fed to the client.
    const emulator = createEmulator("sunbird");
    const body = (payload: unknown) =>
      emulator.handler(
        new Request("http://x/tasks/translate", { method: "POST", body: JSON.stringify(payload), headers: { "content-type": "application/json" } }),
      );
    const unsupported = await body({ source_language: "eng", target_language: "fra", text: "Hi" });
    const same = await body({ source_language: "eng", target_language: "English", text: "Hi" });
    const bodies = [await unsupported.text(), await same.text()];
    expect(bodies[0]).toContain("'fra'");

    let i = 0;
    const { fetch } = fakeFetch(() => new Response(bodies[i++], { status: 400, headers: { "content-type": "application/json" } }));
    const c = new SunbirdClient({ baseUrl: "http://sunbird.test", credential: TOKEN, fetch });
    const first = await providerError(translate(c, "en", "lug"));
    expect(first).toMatchObject({ kind: "rejected", message: "language not supported by provider", upstreamCode: "BAD_REQUEST" });
    expect(first.message).not.toContain("Acholi");
    expect(await providerError(translate(c, "en", "lug"))).toMatchObject({ kind: "rejected", message: "source and target languages must differ" });
  });
});

describe("Sunbird translate: response shapes", () => {
  const withBody = (body: unknown) =>
    new SunbirdClient({
      baseUrl: "http://sunbird.test",
      fetch: fakeFetch(() => Response.json(body)).fetch,
    });

  it("falls back to output.text when translated_text is absent", async () => {
    const c = withBody({ output: { text: "Oli otya?" } });
    await expect(translate(c, "en", "lug")).resolves.toEqual({ translatedText: "Oli otya?", model: "sunflower" });
  });

  it("prefers translated_text over text (text was the source in 2024-era bodies)", async () => {
    const c = withBody({ output: { text: "Hello", translated_text: "Oli otya?" } });
    await expect(translate(c, "en", "lug")).resolves.toMatchObject({ translatedText: "Oli otya?" });
  });

  it.each([{ Error: "worker crashed" }, { error: "CUDA OOM" }])("treats output.Error / output.error as a failure: %o", async (err) => {
    const e = await providerError(translate(withBody({ output: { translated_text: "x", ...err } }), "en", "lug"));
    expect(e.kind).toBe("unavailable");
    expect(e.message).not.toMatch(/worker|CUDA/);
  });

  it.each([{}, { output: {} }, { output: { translated_text: "" } }, { output: { translated_text: 42 } }])("rejects %o as malformed", async (body) => {
    expect((await providerError(translate(withBody(body), "en", "lug"))).kind).toBe("malformed");
  });
});
