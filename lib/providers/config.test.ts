import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/config";
import { loadProvidersConfig as load } from "./config";
import { PROVIDERS } from "./descriptors";
import { providerStatus as statusOf } from "./index";
import { type EmulatorServer, makeWav, parseWav, startEmulatorServer } from "./sandbox";
import { providerError, testProviders, within } from "./test-support";
import { PROVIDER_IDS, type ProviderId, type TranslateRequest } from "./types";

const REQUESTS: Record<ProviderId, TranslateRequest> = {
  provider_a: { text: "Hello", source: "en", target: "lug", deadline: 0 },
  provider_b: { text: "Hello", source: "en", target: "tw", deadline: 0 },
  provider_c: { text: "Hello", source: "en", target: "sw", hf: { model: "Helsinki-NLP/opus-mt-en-sw", tier: "dedicated" }, deadline: 0 },
};
const request = (id: ProviderId) => ({ ...REQUESTS[id], deadline: within(3_000) });

/** The registry the environment `vars` configures (every other variable unset), as the composition root builds it. */
let registry: ReturnType<typeof testProviders>;
function env(vars: Record<string, string>) {
  registry = testProviders(vars);
}
const getProviders = () => registry.clients;
const getSandboxEmulator = (id: ProviderId) => registry.emulators[id];
const providerStatus = () => statusOf(registry.clients);
const loadProvidersConfig = (vars: Record<string, string | undefined>) => load(loadConfig(vars), PROVIDERS);

describe("loadProvidersConfig", () => {
  it("defaults: every provider on its sandbox, public URLs, documented knobs", () => {
    const config = loadProvidersConfig({});
    for (const id of PROVIDER_IDS) expect(config.providers[id].mode).toBe("sandbox");
    expect(config.providers.provider_a.baseUrl).toBe("https://api.sunbird.ai");
    expect(config.providers.provider_b.baseUrl).toBe("https://translation-api.ghananlp.org");
    expect(config.providers.provider_c.baseUrl).toBe("https://router.huggingface.co");
    expect(config.policy).toMatchObject({ attemptTimeoutMs: 15_000, maxRetries: 2 });
    expect(config.circuit).toEqual({ failureThreshold: 5, cooldownMs: 30_000 });
  });

  it("auto: live where a credential exists, sandbox elsewhere", () => {
    const { providers } = loadProvidersConfig({ KHAYA_API_KEY: "k" });
    expect([providers.provider_a.mode, providers.provider_b.mode, providers.provider_c.mode]).toEqual(["sandbox", "live", "sandbox"]);
    expect(providers.provider_b.credential).toBe("k");
  });

  it("auto: a non-default base URL without credential counts as configured (loopback emulators)", () => {
    const { providers } = loadProvidersConfig({ HF_API_URL: "http://127.0.0.1:4003/" });
    expect(providers.provider_c).toMatchObject({ mode: "live", configured: true, baseUrl: "http://127.0.0.1:4003" });
  });

  it("PROVIDER_MODE=sandbox wins over credentials; live marks unconfigured providers", () => {
    expect(loadProvidersConfig({ PROVIDER_MODE: "sandbox", SUNBIRD_API_TOKEN: "t" }).providers.provider_a.mode).toBe("sandbox");
    const live = loadProvidersConfig({ PROVIDER_MODE: "live", SUNBIRD_API_TOKEN: "t" }).providers;
    expect(live.provider_a).toMatchObject({ mode: "live", configured: true });
    expect(live.provider_b).toMatchObject({ mode: "live", configured: false });
  });

  it("reads the timeout, retry and circuit knobs", () => {
    const config = loadProvidersConfig({
      PROVIDER_TIMEOUT_MS: "250",
      PROVIDER_SPEECH_TIMEOUT_MS: "900",
      PROVIDER_MAX_RETRIES: "0",
      CIRCUIT_FAILURE_THRESHOLD: "2",
      CIRCUIT_COOLDOWN_MS: "100",
    });
    expect(config.policy).toEqual({ attemptTimeoutMs: 250, maxRetries: 0 });
    expect(config.speechAttemptTimeoutMs).toBe(900);
    expect(config.circuit).toEqual({ failureThreshold: 2, cooldownMs: 100 });
  });

  it.each([
    { PROVIDER_MODE: "maybe" },
    { SUNBIRD_API_URL: "not a url" },
    { HF_API_URL: "ftp://x" },
    { KHAYA_API_URL: "https://user:pass@host" },
    { PROVIDER_TIMEOUT_MS: "fast" },
    { CIRCUIT_FAILURE_THRESHOLD: "0" },
  ])("refuses a bad setting: %o", (vars) => {
    expect(() => loadProvidersConfig(vars)).toThrow();
  });
});

describe("the provider registry / providerStatus", () => {
  it("follows its configuration: a credential makes that provider live", () => {
    env({});
    expect(getProviders().provider_a.mode).toBe("sandbox");
    env({ SUNBIRD_API_TOKEN: "t" });
    expect(getProviders().provider_a.mode).toBe("live");
  });

  it("sandbox mode runs the real clients against in-process emulators", async () => {
    env({});
    const providers = getProviders();
    for (const id of PROVIDER_IDS) {
      const result = await providers[id].translate(request(id));
      expect(result.translatedText).toMatch(/^\[sandbox:(sunbird|khaya|hf) /);
      expect(getSandboxEmulator(id)?.stats.requests).toBe(1);
    }
    expect(providerStatus()).toEqual({
      provider_a: { mode: "sandbox", circuit: "closed", base_url: "in-process sandbox", configured: true, out_of_credit: false },
      provider_b: { mode: "sandbox", circuit: "closed", base_url: "in-process sandbox", configured: true, out_of_credit: false },
      provider_c: { mode: "sandbox", circuit: "closed", base_url: "in-process sandbox", configured: true, out_of_credit: false },
    });
  });

  it("sandbox mode serves speech in-process: transcripts are marked and audio is real WAV", async () => {
    env({});
    const providers = getProviders();
    const audio = makeWav({ durationSeconds: 1, seed: 1 });
    const cases: [ProviderId, string][] = [
      ["provider_a", "lug"],
      ["provider_b", "tw"],
      ["provider_c", "sw"],
    ];
    for (const [id, language] of cases) {
      const client = providers[id];
      const heard = await client.transcribe!({ audio, contentType: "audio/wav", language, deadline: within(3_000) });
      expect(heard.transcript).toMatch(/^\[sandbox:(sunbird|khaya|hf) /);
      const spoken = await client.synthesize!({ text: "Hello there", language, deadline: within(3_000) });
      expect(parseWav(spoken.audio)?.durationSeconds).toBeCloseTo(0.66, 2);
    }
  });

  it("in-process faults reach the client and the circuit shows in the status", async () => {
    env({ CIRCUIT_FAILURE_THRESHOLD: "2", PROVIDER_MAX_RETRIES: "0" });
    getSandboxEmulator("provider_b")?.setControls({ failMode: "status", status: 503 });
    const khaya = getProviders().provider_b;
    for (let i = 0; i < 2; i++) expect((await providerError(khaya.translate(request("provider_b")))).kind).toBe("unavailable");
    expect((await providerError(khaya.translate(request("provider_b")))).kind).toBe("circuit_open");
    expect(providerStatus().provider_b.circuit).toBe("open");
    expect(providerStatus().provider_a.circuit).toBe("closed");
  });

  it("in-process hangs are cut by the per-attempt timeout", async () => {
    env({ PROVIDER_TIMEOUT_MS: "100", PROVIDER_MAX_RETRIES: "0" });
    getSandboxEmulator("provider_a")!.controls.failMode = "hang";
    const started = Date.now();
    expect((await providerError(getProviders().provider_a.translate(request("provider_a")))).kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(300);
  });

  it("live mode without credential or custom URL fails fast as auth instead of calling the public API", async () => {
    env({ PROVIDER_MODE: "live" });
    const err = await providerError(getProviders().provider_a.translate(request("provider_a")));
    expect(err).toMatchObject({ kind: "auth", message: "provider is not configured" });
    expect(providerStatus().provider_a).toEqual({
      mode: "live",
      circuit: "closed",
      base_url: "https://api.sunbird.ai",
      configured: false,
      out_of_credit: false,
    });
  });

  describe("live clients pointed at loopback emulators", () => {
    let servers: Record<ProviderId, EmulatorServer>;
    beforeAll(async () => {
      const [a, b, c] = await Promise.all([
        startEmulatorServer("sunbird"),
        startEmulatorServer("khaya"),
        startEmulatorServer("hf", { credential: "hf_live" }),
      ]);
      servers = { provider_a: a, provider_b: b, provider_c: c };
    });
    afterAll(() => Promise.all(Object.values(servers).map((s) => s.close())));

    it("serve over HTTP and never show credentials in the status", async () => {
      env({
        SUNBIRD_API_URL: servers.provider_a.url,
        KHAYA_API_URL: servers.provider_b.url,
        HF_API_URL: servers.provider_c.url,
        HF_TOKEN: "hf_live",
      });
      for (const id of PROVIDER_IDS) {
        await expect(getProviders()[id].translate(request(id))).resolves.toMatchObject({ translatedText: expect.stringContaining("[sandbox:") });
        expect(servers[id].stats.requests).toBe(1);
      }
      const status = providerStatus();
      expect(status.provider_c).toEqual({
        mode: "live",
        circuit: "closed",
        base_url: servers.provider_c.url,
        configured: true,
        out_of_credit: false,
      });
      expect(JSON.stringify(status)).not.toContain("hf_live");
    });
  });
});
