import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { processLog } from "@/lib/kit/log";
import type { ClientOptions } from "./client";
import { toIso3 } from "./codes";
import { KhayaClient, resetDeprecationLog } from "./khaya";
import { type EmulatorServer, makeWav, startEmulatorServer } from "./sandbox";
import { fakeFetch, providerError, within } from "./test-support";

const KEY = "0123456789abcdef0123456789abcdef";

let server: EmulatorServer;
beforeAll(async () => {
  server = await startEmulatorServer("khaya", { credential: KEY, translation: "echo" });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const client = (opts: Partial<ClientOptions> = {}) =>
  new KhayaClient({ baseUrl: server.url, credential: KEY, ...opts, policy: { backoffBaseMs: 10, backoffMaxMs: 20, ...opts.policy } });
const translate = (c: KhayaClient, source: string, target: string, text = "Hello") => c.translate({ text, source, target, deadline: within(3_000) });

describe("Khaya translate: wire", () => {
  it("POSTs /v1/translate with the APIM subscription key and {in, lang}", async () => {
    await expect(translate(client(), "en", "tw", "Good morning")).resolves.toEqual({
      translatedText: "[sandbox:khaya eng-twi] Good morning",
      model: "khaya-v1",
    });
    const [req] = server.stats.recent;
    expect(req.path).toBe("/v1/translate");
    expect(req.headers["ocp-apim-subscription-key"]).toBe(KEY);
    expect(req.headers.authorization).toBeUndefined();
    expect(JSON.parse(req.bodyText ?? "")).toEqual({ in: "Good morning", lang: "eng-twi" });
  });

  it.each(["tw", "ee", "gaa", "fat", "yo", "dag", "ki", "gur", "luo", "mer", "kus"])("serves en↔%s both ways", async (code) => {
    await expect(translate(client(), "en", code)).resolves.toMatchObject({ translatedText: `[sandbox:khaya eng-${toIso3(code)}] Hello` });
    await expect(translate(client(), code, "en")).resolves.toMatchObject({ translatedText: `[sandbox:khaya ${toIso3(code)}-eng] Hello` });
  });

  it("JSON-decodes the string body: quotes, backslashes and \\u escapes survive", async () => {
    const tricky = 'He said "Ɛte sɛn?" \\ ok \u{1F44B}';
    const raw = await fetch(`${server.url}/v1/translate`, {
      method: "POST",
      headers: { "ocp-apim-subscription-key": KEY, "content-type": "application/json" },
      body: JSON.stringify({ in: tricky, lang: "en-tw" }),
    }).then((r) => r.text());
    // The wire body is ASCII-escaped like Python's json.dumps; stripping quotes would leave \u0190 and \" in the text.
    expect(raw).toContain("\\u0190");
    expect(raw).toContain('\\"');
    await expect(translate(client(), "en", "tw", tricky)).resolves.toMatchObject({ translatedText: `[sandbox:khaya eng-twi] ${tricky}` });
  });

  it("refuses text over 1000 characters instead of truncating it, without calling Khaya", async () => {
    const err = await providerError(translate(client(), "en", "tw", "a".repeat(1_001)));
    expect(err).toMatchObject({ kind: "rejected", upstreamCode: "TEXT_TOO_LONG" });
    expect(server.stats.requests).toBe(0);
    const full = "b".repeat(1_000);
    await expect(translate(client(), "en", "tw", full)).resolves.toMatchObject({ translatedText: `[sandbox:khaya eng-twi] ${full}` });
  });

  it.each([
    ["tw", "ee"],
    ["en", "lug"],
    ["en", "en"],
  ])("refuses the pair %s→%s without calling Khaya", async (s, t) => {
    expect(await providerError(translate(client(), s, t))).toMatchObject({ kind: "rejected", upstreamCode: "UNSUPPORTED_LANGUAGE_PAIR" });
    expect(server.stats.requests).toBe(0);
  });
});

describe("Khaya translate: error shapes", () => {
  const once = async (status: number, variant?: string, opts: Partial<ClientOptions> = {}) => {
    server.setControls({ failMode: "status", status, variant });
    return providerError(translate(client(opts), "en", "tw"));
  };

  it("missing key → APIM 401 → auth", async () => {
    expect(await providerError(translate(client({ credential: undefined }), "en", "tw"))).toMatchObject({ kind: "auth", status: 401 });
  });

  it("APIM 403 quota → rate_limited, not auth", async () => {
    expect(await once(403)).toMatchObject({ kind: "rate_limited", status: 403 });
  });

  it("403 'Web App - Unavailable' HTML page → unavailable, not auth", async () => {
    expect(await once(403, "html")).toMatchObject({ kind: "unavailable", status: 403 });
  });

  it("APIM 429 → rate_limited with Retry-After", async () => {
    const err = await once(429, undefined, { policy: { maxRetries: 0 } });
    expect(err).toMatchObject({ kind: "rate_limited", retryAfterMs: 5_000 });
  });

  it("APIM 500 {statusCode,message,activityId} → unavailable, retried", async () => {
    expect(await once(500)).toMatchObject({ kind: "unavailable", status: 500 });
    expect(server.stats.requests).toBe(3);
  });

  it("backend 500 {error:{code:SYSTEM_ERROR}} → unavailable with the code", async () => {
    expect(await once(500, "backend", { policy: { maxRetries: 0 } })).toMatchObject({ kind: "unavailable", upstreamCode: "SYSTEM_ERROR" });
  });

  it("502 text/plain from the gateway → unavailable", async () => {
    expect(await once(502, undefined, { policy: { maxRetries: 0 } })).toMatchObject({ kind: "unavailable", status: 502 });
  });

  it("backend 400 VALIDATION_FAILED → rejected with the detail code, body not echoed", async () => {
    const err = await once(400);
    expect(err).toMatchObject({ kind: "rejected", upstreamCode: "UNSUPPORTED_LANGUAGE_PAIR", message: "language pair not supported by provider" });
    expect(err.message).not.toContain("en-zz");
    expect(server.stats.requests).toBe(1);
  });

  it("legacy 400 {type,message} → rejected", async () => {
    expect(await once(400, "legacy")).toMatchObject({ kind: "rejected", upstreamCode: "BadRequest" });
  });

  it.each([[42], [{ translatedText: "x" }], [""]])("a 200 JSON body that is not a non-empty string (%o) is malformed", async (body) => {
    const c = new KhayaClient({ baseUrl: "http://khaya.test", fetch: fakeFetch(() => Response.json(body)).fetch });
    expect((await providerError(translate(c, "en", "tw"))).kind).toBe("malformed");
  });
});

describe("Khaya: ISO 639-3 codes and deprecation warnings", () => {
  it("a deprecation warning in an answer is logged once per code, not once per request", async () => {
    const warned = await startEmulatorServer("khaya", { credential: KEY, translation: "echo", khayaDeprecatedCodes: ["twi", "ewe"] });
    const c = new KhayaClient({ baseUrl: warned.url, credential: KEY });
    const audio = makeWav({ durationSeconds: 0.5, seed: 1 });
    const warn = vi.spyOn(processLog(), "warn").mockImplementation(() => {});
    try {
      resetDeprecationLog();
      for (let i = 0; i < 5; i++) await c.transcribe({ audio, contentType: "audio/wav", language: "tw", deadline: within(3_000) });
      await c.transcribe({ audio, contentType: "audio/wav", language: "ee", deadline: within(3_000) });
      await c.transcribe({ audio, contentType: "audio/wav", language: "ee", deadline: within(3_000) });
      const lines = warn.mock.calls
        .map((args) => args[0] as unknown as { event?: string; code?: string })
        .filter((f) => f.event === "language_code_deprecated");
      expect(lines.map((f) => f.code)).toEqual(["twi", "ewe"]);
      // Every request went out with the ISO 639-3 code.
      expect(warned.stats.recent.map((r) => new URL(r.path, "http://x").searchParams.get("language"))).toEqual([
        "twi",
        "twi",
        "twi",
        "twi",
        "twi",
        "ewe",
        "ewe",
      ]);
    } finally {
      warn.mockRestore();
      await warned.close();
    }
  });
});
