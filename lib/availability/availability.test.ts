import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RedisServer, startRedis } from "@/e2e/support/redis";
import { ApiError } from "@/lib/kit/errors";
import { listLanguages } from "@/lib/languages/listing";
import { hfModels } from "@/lib/languages/models";
import { VOICES } from "@/lib/languages/speech";
import { HuggingFaceClient, KhayaClient, SunbirdClient } from "@/lib/providers";
import { PROVIDERS } from "@/lib/providers/descriptors";
import { hubModelAvailability, MAX_HUB_ANSWER_BYTES } from "@/lib/providers/hub";
import {
  createEmulator,
  type Emulator,
  HF_REFERENCE_UNDEPLOYED,
  type HfDeployment,
  hfDeployment,
  inProcessFetch,
  makeWav,
  startEmulatorServer,
} from "@/lib/providers/sandbox";
import type { ProviderClient, ProviderId } from "@/lib/providers/types";
import { catalogueSubjects } from "@/lib/server/availability";
import { transcribeAudio } from "@/lib/speech/stt";
import { synthesizeSpeech } from "@/lib/speech/tts";
import { translateText } from "@/lib/translate/service";
import { ALL_AVAILABLE, Availability, type AvailabilityChecker, modelSubject } from "./index";
import { RedisAvailabilityStore } from "./shared-store";
import { type AvailabilityStore, MemoryAvailabilityStore } from "./store";

const HF = "model:provider_c:";
const HUB_URL = "http://hf.sandbox.invalid";
const TEXT = "Good morning to you all";
const NLLB = "facebook/nllb-200-distilled-600M";

/** The three emulators in process, the Hugging Face one with a deployment the test can change while it runs. */
function sandbox(deployment: HfDeployment) {
  const emulators: Record<ProviderId, Emulator> = {
    provider_a: createEmulator("sunbird"),
    provider_b: createEmulator("khaya"),
    provider_c: createEmulator("hf", { hfDeployment: deployment }),
  };
  const client = (id: ProviderId, Cls: typeof SunbirdClient | typeof KhayaClient | typeof HuggingFaceClient, kind: string) =>
    new Cls({
      baseUrl: `http://${kind}.sandbox.invalid`,
      mode: "sandbox",
      fetch: inProcessFetch(emulators[id].handler),
      circuit: { failureThreshold: 1_000_000, cooldownMs: 1 },
    });
  const providers: Record<ProviderId, ProviderClient> = {
    provider_a: client("provider_a", SunbirdClient, "sunbird"),
    provider_b: client("provider_b", KhayaClient, "khaya"),
    provider_c: client("provider_c", HuggingFaceClient, "hf"),
  };
  /** The Hub's model information, from the Hugging Face emulator (the same route the live checker asks). */
  const checker: AvailabilityChecker = (subject) =>
    hubModelAvailability(subject.slice(HF.length), { baseUrl: HUB_URL, fetch: inProcessFetch(emulators.provider_c.handler) });
  return { emulators, providers, checker };
}

function availability(store: AvailabilityStore, checker: AvailabilityChecker, now: () => number, ttlMs = 3_600_000, syncMs = 60_000) {
  return new Availability({ store, ttlMs, syncMs, timeoutMs: 500, now, checker, checkable: (s) => s.startsWith(HF) });
}

/** Every (source, target, provider, model) the listing offers under `view`. */
function listed(view: Awaited<ReturnType<Availability["view"]>>) {
  return listLanguages({}, hfModels(), PROVIDERS, view).languages.flatMap((l) =>
    l.translation.targets.map((t) => ({ source: l.code, target: t.code, provider: t.provider, model: t.model })),
  );
}

describe("the reference deployment (NLLB 400, the absent opus-mt pairs 404)", () => {
  it("every pair /languages lists succeeds, with the listed provider and model; without availability, NLLB pairs fail", async () => {
    const { emulators, providers, checker } = sandbox(hfDeployment({ hfProfile: "reference" }));
    const clock = 1_000_000;
    const live = availability(new MemoryAvailabilityStore(() => clock), checker, () => clock);
    const subjects = catalogueSubjects();
    const view = await live.view(subjects);
    expect(view.isAvailable(modelSubject("provider_c", HF_REFERENCE_UNDEPLOYED.notSupported[0]))).toBe(false);
    // The absent opus-mt models the model map routes to (it has no en-zu, for one) are known to be out.
    const routedAbsent = HF_REFERENCE_UNDEPLOYED.notDeployed.filter((model) => subjects.includes(modelSubject("provider_c", model)));
    expect(routedAbsent.length).toBeGreaterThan(5);
    for (const model of routedAbsent) expect(view.isAvailable(modelSubject("provider_c", model)), model).toBe(false);
    expect(view.isAvailable(modelSubject("provider_c", "Helsinki-NLP/opus-mt-en-sw"))).toBe(true);
    // Learnt from the Hub alone: no model was called.
    expect(emulators.provider_c.stats.translations.calls).toBe(0);

    const pairs = listed(view);
    expect(pairs.some((p) => p.model === HF_REFERENCE_UNDEPLOYED.notSupported[0])).toBe(false);
    // Luganda still reaches Sunflower's 31 other languages, all through provider_a; Hausa, with NLLB and opus-mt-ha-en
    // gone, only English through the multilingual model — listed as that, not as ~200 NLLB targets that would fail.
    const fromLuganda = pairs.filter((p) => p.source === "lug");
    expect(fromLuganda).toHaveLength(31);
    expect(fromLuganda.every((p) => p.provider === "provider_a")).toBe(true);
    expect(pairs.filter((p) => p.source === "ha")).toEqual([
      { source: "ha", target: "en", provider: "provider_c", model: "Helsinki-NLP/opus-mt-mul-en" },
    ]);
    let served = 0;
    for (const p of pairs) {
      const r = await translateText(
        { text: TEXT, source_lang: p.source, target_lang: p.target },
        { providers, deadlineMs: 5_000, availability: live },
      );
      expect(`${r.provider} ${r.model_used} ${r.fallback_used}`, `${p.source}→${p.target}`).toBe(`${p.provider} ${p.provider}/${p.model} false`);
      served++;
    }
    expect(served).toBe(pairs.length);
    expect(served).toBeGreaterThan(1_000);

    // What the listing said before this issue: NLLB pairs that nothing else serves answer 503.
    const assumed = listed(ALL_AVAILABLE).filter((p) => p.model === HF_REFERENCE_UNDEPLOYED.notSupported[0]);
    expect(assumed.length).toBeGreaterThan(100);
    const failing = assumed.find((p) => p.source === "ha" && p.target === "yo")!;
    expect(failing).toBeDefined();
    const err = await translateText({ text: TEXT, source_lang: "ha", target_lang: "yo" }, { providers, deadlineMs: 5_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: "PROVIDER_ERROR", status: 503 });
  }, 180_000);
});

describe("a model that starts answering 'not supported', two instances on one real Redis", () => {
  let redis: RedisServer;
  const stores: RedisAvailabilityStore[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const s of stores) s.close();
    await redis?.stop();
  });
  const redisStore = () => {
    const s = new RedisAvailabilityStore({ url: redis.url, timeoutMs: 500 });
    stores.push(s);
    return s;
  };

  it("leaves routing and the listing of every instance within the sync interval, and comes back after the TTL once deployed again", async () => {
    const deployment = hfDeployment();
    const { emulators, providers, checker } = sandbox(deployment);
    let clock = 5_000_000;
    const now = () => clock;
    const TTL = 3_600_000;
    const SYNC = 60_000;
    const one = availability(redisStore(), checker, now, TTL, SYNC);
    const two = availability(redisStore(), checker, now, TTL, SYNC);
    const subjects = catalogueSubjects();
    const enSw = (view: Awaited<ReturnType<Availability["view"]>>) => listed(view).find((p) => p.source === "en" && p.target === "sw");
    const opus = "Helsinki-NLP/opus-mt-en-sw";
    const opusCalls = () => emulators.provider_c.stats.byPath[`/hf-inference/models/${opus}`] ?? 0;

    expect(enSw(await one.view(subjects))).toMatchObject({ provider: "provider_c", model: opus });
    expect(enSw(await two.view(subjects))).toMatchObject({ provider: "provider_c", model: opus });

    // The model starts answering 400 "not supported": instance one learns it from that answer and goes on to the
    // pair's next route (NLLB, provider_c's general model).
    deployment.notSupported.add(opus);
    const first = await translateText({ text: TEXT, source_lang: "en", target_lang: "sw" }, { providers, deadlineMs: 5_000, availability: one });
    expect(first).toMatchObject({ provider: "provider_c", model_used: `provider_c/${NLLB}` });
    expect(opusCalls()).toBe(1);
    expect(enSw(await one.view(subjects))).toMatchObject({ provider: "provider_c", model: NLLB });
    expect(one.report().map((r) => r.subject)).toEqual([modelSubject("provider_c", opus)]);

    // Instance two still has its own copy until its sync interval passes; then it reads the shared record.
    expect(enSw(await two.view(subjects))).toMatchObject({ provider: "provider_c", model: opus });
    clock += SYNC;
    expect(enSw(await two.view(subjects))).toMatchObject({ provider: "provider_c", model: NLLB });
    const second = await translateText({ text: TEXT, source_lang: "en", target_lang: "sw" }, { providers, deadlineMs: 5_000, availability: two });
    expect(second).toMatchObject({ model_used: `provider_c/${NLLB}`, fallback_used: false });
    expect(opusCalls()).toBe(1); // instance two never called it

    // After the TTL the subject is unknown again and is re-checked at the Hub: still not served, so still out.
    clock += TTL;
    expect(enSw(await two.view(subjects))).toMatchObject({ model: NLLB });
    expect(two.report()[0]).toMatchObject({ subject: modelSubject("provider_c", opus), source: "hub" });

    // Deployed again: after the next TTL both instances route to it again, without a model call to find out.
    deployment.notSupported.delete(opus);
    clock += TTL;
    expect(enSw(await one.view(subjects))).toMatchObject({ provider: "provider_c", model: opus });
    expect(enSw(await two.view(subjects))).toMatchObject({ provider: "provider_c", model: opus });
    expect(opusCalls()).toBe(1);
    const back = await translateText({ text: TEXT, source_lang: "en", target_lang: "sw" }, { providers, deadlineMs: 5_000, availability: two });
    expect(back).toMatchObject({ provider: "provider_c", model_used: `provider_c/${opus}` });
  }, 60_000);
});

describe("the Hub's model information", () => {
  const answer = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status });
  const ask = (fetch: (url: string) => Promise<Response>, model = "Helsinki-NLP/opus-mt-en-sw") =>
    hubModelAvailability(model, { baseUrl: "https://hub.test/", fetch });

  it("asks for the inference provider mapping, with the token when there is one", async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const fetch = async (url: string, init?: RequestInit) => {
      seen.push({ url, auth: new Headers(init?.headers).get("authorization") });
      return new Response(JSON.stringify({ inferenceProviderMapping: { "hf-inference": { status: "live" } } }));
    };
    expect(await hubModelAvailability("facebook/nllb-200-distilled-600M", { baseUrl: "https://hub.test/", token: "hf_x", fetch })).toMatchObject({
      available: true,
    });
    expect(seen).toEqual([
      { url: "https://hub.test/api/models/facebook/nllb-200-distilled-600M?expand[]=inferenceProviderMapping", auth: "Bearer hf_x" },
    ]);
  });

  it("reads both mapping shapes: live hf-inference is available; absent, not live, or unknown model is not", async () => {
    expect(await ask(answer(200, { inferenceProviderMapping: [{ provider: "hf-inference", status: "live" }] }))).toMatchObject({ available: true });
    expect(await ask(answer(200, { inferenceProviderMapping: { together: { status: "live" } } }))).toMatchObject({ available: false });
    expect(await ask(answer(200, { inferenceProviderMapping: [{ provider: "hf-inference", status: "staging" }] }))).toMatchObject({
      available: false,
      reason: "hf-inference deployment is not live (staging)",
    });
    expect(await ask(answer(200, { id: "x" }))).toMatchObject({ available: false });
    expect(await ask(answer(404, { error: "Repository not found" }))).toMatchObject({ available: false });
    expect(await ask(answer(200, {}), "../../etc/passwd")).toMatchObject({ available: false, reason: "invalid model id" });
  });

  it("no usable answer (5xx, not JSON, network failure) tells nothing: undefined, asked again later", async () => {
    expect(await ask(answer(503, {}))).toBeUndefined();
    expect(await ask(async () => new Response("<html>", { status: 200 }))).toBeUndefined();
    expect(
      await ask(async () => {
        throw new TypeError("fetch failed");
      }),
    ).toBeUndefined();
  });

  it("an answer larger than a model's information is not believed (and not buffered)", async () => {
    const mapping = { inferenceProviderMapping: { "hf-inference": { status: "live" } } };
    const padded = (bytes: number) => ({ ...mapping, cardData: "x".repeat(bytes) });
    expect(await ask(answer(200, padded(MAX_HUB_ANSWER_BYTES - 1_000)))).toMatchObject({ available: true });
    expect(await ask(answer(200, padded(MAX_HUB_ANSWER_BYTES)))).toBeUndefined();
  });

  it("without a transport given, asks over node:http like the provider calls (not fetch), with keep-alive connections", async () => {
    // The Hugging Face emulator over real HTTP, as a live deployment's HF_HUB_URL would be.
    const hub = await startEmulatorServer("hf", { hfDeployment: hfDeployment({ hfProfile: "reference" }) });
    const sockets = new Set<unknown>();
    const counting = http.createServer();
    const spy = vi.spyOn(globalThis, "fetch");
    try {
      expect(await hubModelAvailability("Helsinki-NLP/opus-mt-en-sw", { baseUrl: hub.url, token: "hf_x" })).toMatchObject({ available: true });
      expect(await hubModelAvailability("Helsinki-NLP/opus-mt-en-ha", { baseUrl: `${hub.url}/` })).toMatchObject({
        available: false,
        reason: "model does not exist on the Hugging Face Hub",
      });
      expect(await hubModelAvailability("facebook/nllb-200-distilled-600M", { baseUrl: hub.url })).toMatchObject({ available: false });
      expect(spy).not.toHaveBeenCalled();
      // Ten checks one after the other, bodies read to the end: one connection serves them all.
      counting.on("connection", (socket) => sockets.add(socket));
      counting.on("request", (_req, res) => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ inferenceProviderMapping: [{ provider: "hf-inference", status: "live" }] }));
      });
      await new Promise<void>((resolve) => counting.listen(0, "127.0.0.1", resolve));
      const { port } = counting.address() as AddressInfo;
      for (let i = 0; i < 10; i++)
        expect(await hubModelAvailability(`org/model-${i}`, { baseUrl: `http://127.0.0.1:${port}` })).toMatchObject({ available: true });
      expect(sockets.size).toBe(1);
    } finally {
      spy.mockRestore();
      counting.closeAllConnections();
      counting.close();
      await hub.close();
    }
  });

  it("the emulator's Hub route follows its deployment", async () => {
    const deployment = hfDeployment({ hfProfile: "reference" });
    const fetch = inProcessFetch(createEmulator("hf", { hfDeployment: deployment }).handler);
    const hub = (model: string) => hubModelAvailability(model, { baseUrl: HUB_URL, fetch });
    expect(await hub("facebook/nllb-200-distilled-600M")).toMatchObject({ available: false });
    expect(await hub("Helsinki-NLP/opus-mt-en-ha")).toMatchObject({ available: false, reason: "model does not exist on the Hugging Face Hub" });
    expect(await hub("Helsinki-NLP/opus-mt-en-sw")).toMatchObject({ available: true });
    deployment.notSupported.delete("facebook/nllb-200-distilled-600M");
    expect(await hub("facebook/nllb-200-distilled-600M")).toMatchObject({ available: true });
  });
});

describe("a checker that cannot answer (the Hub unreachable)", () => {
  it("is asked once per sync interval, not on every request, and the subject counts as available meanwhile", async () => {
    let clock = 0;
    let calls = 0;
    const unreachable: AvailabilityChecker = async () => {
      calls++;
      throw new Error("fetch failed");
    };
    const live = availability(new MemoryAvailabilityStore(() => clock), unreachable, () => clock, 3_600_000, 60_000);
    const subject = `${HF}Helsinki-NLP/opus-mt-en-sw`;
    for (let i = 0; i < 5; i++) expect((await live.view([subject])).isAvailable(subject)).toBe(true);
    expect(calls).toBe(1);
    clock += 60_000;
    await live.view([subject]);
    await live.view([subject]);
    expect(calls).toBe(2);
  });
});

describe("speech: STT and TTS plan with the same availability as translate", () => {
  const WHISPER = "openai/whisper-large-v3-turbo";
  const MMS_SW = "facebook/mms-tts-swh";
  const wav = makeWav({ durationSeconds: 1, seed: 3 });
  const setup = () => {
    const deployment = hfDeployment();
    const { emulators, providers } = sandbox(deployment);
    const clock = 1_000_000;
    const live = new Availability({
      store: new MemoryAvailabilityStore(() => clock),
      ttlMs: 3_600_000,
      syncMs: 60_000,
      timeoutMs: 500,
      now: () => clock,
    });
    const calls = (model: string) => emulators.provider_c.stats.byPath[`/hf-inference/models/${model}`] ?? 0;
    return { deployment, providers, live, calls, deps: { providers, deadlineMs: 5_000, maxAudioSeconds: 600, availability: live } };
  };
  const sttListed = (view: Awaited<ReturnType<Availability["view"]>>, code: string) =>
    listLanguages({ capability: "stt" }, hfModels(), PROVIDERS, view).languages.some((l) => l.code === code);

  it("Whisper answering 'not supported' is marked at once; then Lingala STT is 422 without a call, and leaves the listing", async () => {
    const { deployment, live, calls, deps } = setup();
    deployment.notSupported.add(WHISPER);
    expect(sttListed(await live.view(), "ln")).toBe(true);
    const first = await transcribeAudio({ audio: wav, language: "ln" }, deps).catch((e: unknown) => e);
    expect(first).toMatchObject({ code: "PROVIDER_ERROR", status: 503 });
    expect(calls(WHISPER)).toBe(1);
    expect(live.report()).toEqual([expect.objectContaining({ subject: modelSubject("provider_c", WHISPER), source: "upstream" })]);

    // Known unavailable: not tried again. Lingala has no other provider, so it answers as translate does for a pair
    // whose every route is unavailable (422), and /languages no longer lists Lingala under STT.
    const second = await transcribeAudio({ audio: wav, language: "ln" }, deps).catch((e: unknown) => e);
    expect(second).toMatchObject({ code: "UNSUPPORTED_LANGUAGE", status: 422 });
    const forced = await transcribeAudio({ audio: wav, language: "en", provider: "provider_c" }, deps).catch((e: unknown) => e);
    expect(forced).toMatchObject({ code: "UNSUPPORTED_LANGUAGE", status: 422, options: { errors: [{ loc: ["body", "provider"] }] } });
    expect(calls(WHISPER)).toBe(1);
    expect(sttListed(await live.view(), "ln")).toBe(false);
    expect(sttListed(await live.view(), "en")).toBe(true);
  });

  it("auto STT and TTS skip a provider whose model is known unavailable and go to the next, without a fallback", async () => {
    const { live, deps } = setup();
    await live.markUnavailable(modelSubject("provider_a", "sunbird-stt"), "test: not served");
    for (const v of VOICES.filter((v) => v.provider === "provider_a"))
      await live.markUnavailable(modelSubject("provider_a", v.model), "test: not served");
    expect(await transcribeAudio({ audio: wav, language: "en" }, deps)).toMatchObject({
      provider: "provider_b",
      providers_tried: ["provider_b"],
      fallback_used: false,
    });
    expect((await synthesizeSpeech({ text: "Oli otya", language: "lug" }, deps)).response).toMatchObject({
      provider: "provider_c",
      voice: "facebook/mms-tts-lug",
      providers_tried: ["provider_c"],
      fallback_used: false,
    });
    const voice = await synthesizeSpeech({ text: "Oli otya", language: "lug", voice: "248" }, deps).catch((e: unknown) => e);
    expect(voice).toMatchObject({ code: "UNSUPPORTED_VOICE", status: 422 });
    expect((voice as ApiError).message).toContain("Voices for Luganda (lug): facebook/mms-tts-lug.");
  });

  it("an MMS-TTS voice answering 'does not exist' is marked; then the voice is 422 and provider_c is not offered for Swahili", async () => {
    const { deployment, live, calls, deps } = setup();
    deployment.notDeployed.add(MMS_SW);
    const first = await synthesizeSpeech({ text: "Habari", language: "sw", voice: MMS_SW }, deps).catch((e: unknown) => e);
    expect(first).toMatchObject({ code: "PROVIDER_ERROR", status: 503 });
    expect(live.report()).toEqual([expect.objectContaining({ subject: modelSubject("provider_c", MMS_SW), reason: expect.stringMatching(/404/) })]);
    const again = await synthesizeSpeech({ text: "Habari", language: "sw", voice: MMS_SW }, deps).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: "UNSUPPORTED_VOICE", status: 422 });
    const forced = await synthesizeSpeech({ text: "Habari", language: "sw", provider: "provider_c" }, deps).catch((e: unknown) => e);
    expect(forced).toMatchObject({ code: "UNSUPPORTED_LANGUAGE", status: 422, options: { errors: [{ loc: ["body", "provider"] }] } });
    expect(calls(MMS_SW)).toBe(1);
    const sw = listLanguages({ capability: "tts" }, hfModels(), PROVIDERS, await live.view()).languages.find((l) => l.code === "sw");
    expect(sw?.tts.providers.map((p) => p.provider)).not.toContain("provider_c");
    expect((await synthesizeSpeech({ text: "Habari", language: "sw" }, deps)).response).toMatchObject({ provider: "provider_a" });
  });
});
