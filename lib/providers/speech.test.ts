/** Speech-to-text and text-to-speech of the three clients, each against its emulator over real loopback HTTP. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ClientOptions } from "./client";
import { HuggingFaceClient } from "./huggingface";
import { KhayaClient } from "./khaya";
import { type EmulatorServer, makeWav, parseWav, type SunbirdBatchFaults, startEmulatorServer } from "./sandbox";
import { SunbirdClient } from "./sunbird";
import { providerError, timed, within } from "./test-support";

const FAST = { backoffBaseMs: 10, backoffMaxMs: 20 };
const clip = makeWav({ durationSeconds: 1.25, seed: 3 });
const transcribeRequest = (language: string, audio: Uint8Array = clip, contentType = "audio/wav") => ({
  audio,
  contentType,
  language,
  deadline: within(3_000),
});
const speechRequest = (language: string, voice?: string, text = "Oli otya, nnyabo?") => ({ text, language, voice, deadline: within(3_000) });

function expectWav(audio: Uint8Array, sampleRate: number, text: string) {
  const info = parseWav(audio);
  expect(info).toMatchObject({ sampleRate, channels: 1, bitsPerSample: 16 });
  expect(info?.durationSeconds).toBeCloseTo(Math.max(0.5, [...text].length * 0.06), 2);
}

describe("Sunbird speech", () => {
  const TOKEN = "eyJ.speech";
  let server: EmulatorServer;
  beforeAll(async () => {
    server = await startEmulatorServer("sunbird", { credential: TOKEN });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  const client = (opts: Partial<ClientOptions> = {}) =>
    new SunbirdClient({ baseUrl: server.url, credential: TOKEN, ...opts, policy: { ...FAST, ...opts.policy } });

  it("transcribes: multipart audio + 639-3 language to /tasks/audio/transcriptions", async () => {
    const result = await client().transcribe(transcribeRequest("lug"));
    expect(result.transcript).toMatch(/^\[sandbox:sunbird lug\] transcript of 1\.25 s of audio #[0-9a-f]{8}$/);
    expect(result.model).toBe("sunbird-stt");
    const [req] = server.stats.recent;
    expect(req.path).toBe("/tasks/audio/transcriptions");
    expect(req.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    await expect(client().transcribe(transcribeRequest("sw"))).resolves.toMatchObject({
      transcript: expect.stringContaining("[sandbox:sunbird swa]"),
    });
  });

  it("refuses unsupported languages and empty audio without calling; bytes its model cannot decode are a 502, not a type check", async () => {
    expect((await providerError(client().transcribe(transcribeRequest("tw")))).kind).toBe("rejected");
    expect((await providerError(client().transcribe(transcribeRequest("lug", new Uint8Array(0))))).kind).toBe("rejected");
    expect(server.stats.requests).toBe(0);
    const notAudio = new TextEncoder().encode("not audio at all, ".repeat(100));
    const err = await providerError(client().transcribe(transcribeRequest("lug", notAudio, "application/octet-stream")));
    expect(err).toMatchObject({ status: 502, upstreamCode: "EXTERNAL_SERVICE_ERROR" });
    expect(server.stats.requests).toBe(1);
  });

  it("sends a long recording in windows of SUNBIRD_STT_WINDOW_SECONDS, one request each, with each window's offsets", async () => {
    const long = makeWav({ durationSeconds: 601, sampleRate: 4_000 });
    const result = await client().transcribe({ ...transcribeRequest("lug", long), durationSeconds: 601, format: "wav", deadline: within(20_000) });
    const windows = result.segments ?? [];
    expect(server.stats.requests).toBe(windows.length);
    expect(windows.length).toBeGreaterThanOrEqual(6);
    expect(windows[0].start).toBe(0);
    expect(windows.at(-1)?.end).toBeCloseTo(601, 2);
    for (const [i, w] of windows.entries()) {
      expect(w.end - w.start).toBeLessThanOrEqual(120);
      if (i > 0) expect(w.start).toBe(windows[i - 1].end);
    }
    expect(result.transcript.split("[sandbox:sunbird lug]").length - 1).toBe(windows.length);
  });

  it("a window the backend cannot finish in its wait is a 502 timeout, sent once (Sunbird charged it), not retried", async () => {
    const slow = await startEmulatorServer("sunbird", { credential: TOKEN, sunbirdSttWaitMs: 50, sunbirdSttLongestSeconds: 100 });
    const { catalogueSettings, setCatalogueSettings } = await import("./deployment");
    const before = catalogueSettings();
    setCatalogueSettings({ ...before, sunbirdSttWindowSeconds: 600 });
    try {
      const c = new SunbirdClient({ baseUrl: slow.url, credential: TOKEN, policy: { ...FAST, maxRetries: 3 } });
      const long = makeWav({ durationSeconds: 300, sampleRate: 4_000 });
      const err = await providerError(
        c.transcribe({ ...transcribeRequest("lug", long), durationSeconds: 300, format: "wav", deadline: within(10_000) }),
      );
      expect(err).toMatchObject({ kind: "timeout", status: 502 });
      expect(err.message).toContain("timed out");
      expect(slow.stats.requests).toBe(1);
    } finally {
      setCatalogueSettings(before);
      await slow.close();
    }
  });

  it("Sunbird's 413 (a body over 100 MB) is a rejection of the recording's size", async () => {
    server.setControls({ failMode: "status", status: 413 });
    const err = await providerError(client().transcribe(transcribeRequest("lug")));
    expect(err).toMatchObject({ kind: "rejected", status: 413, upstreamCode: "AUDIO_TOO_LARGE" });
  });

  it("a language outside Sunbird's STT enum (Rutooro) is a rejection naming the language", async () => {
    const err = await providerError(client().transcribe(transcribeRequest("ttj")));
    expect(err).toMatchObject({ kind: "rejected", status: 422, upstreamCode: "UNSUPPORTED_LANGUAGE" });
  });

  it("a hanging transcription is cut by the speech timeout within the deadline", async () => {
    server.controls.failMode = "hang";
    const c = client({ speechAttemptTimeoutMs: 200, policy: { maxRetries: 0 } });
    const { value: err, ms } = await timed(() => providerError(c.transcribe(transcribeRequest("lug"))));
    expect(err.kind).toBe("timeout");
    expect(ms).toBeLessThan(400);
  });

  it("synthesizes with Orpheus by default and returns the audio bytes, never the signed URL", async () => {
    const request = speechRequest("lug");
    const result = await client().synthesize(request);
    expect(Object.keys(result).sort()).toEqual(["audio", "contentType", "model", "voice"]);
    expect(result).toMatchObject({ contentType: "audio/wav", model: "orpheus-3b-tts", voice: "salt_lug_0001" });
    expectWav(result.audio, 24_000, request.text);
    const [post, download] = server.stats.recent;
    expect(JSON.parse(post.bodyText ?? "")).toEqual({
      text: request.text,
      model: "orpheus-3b-tts",
      voice: "salt_lug_0001",
      response_mode: "url",
      language: "lug",
    });
    expect(download.method).toBe("GET");
    expect(download.path).toMatch(/^\/gcs\/orpheus_tts\/.+\.wav\?X-Goog-Expires=\d+&X-Goog-Signature=[0-9a-f]+$/);
    // The signed URL carries its own signature; our token must not travel to the storage host.
    expect(download.headers.authorization).toBeUndefined();
  });

  it("uses spark-tts for speaker ids 241..248 and for languages without an Orpheus voice", async () => {
    const ach = await client().synthesize(speechRequest("ach", "241"));
    expect(ach).toMatchObject({ model: "spark-tts", voice: "241" });
    expectWav(ach.audio, 16_000, speechRequest("ach").text);
    expect(await client().synthesize(speechRequest("lgg"))).toMatchObject({ model: "spark-tts", voice: "245" });
    expect(JSON.parse(server.stats.recent.at(-2)?.bodyText ?? "").language).toBeUndefined();
  });

  it("refuses unknown voices, unsupported languages and over-long text without calling", async () => {
    expect((await providerError(client().synthesize(speechRequest("lug", "999")))).upstreamCode).toBe("UNKNOWN_VOICE");
    expect((await providerError(client().synthesize(speechRequest("tw")))).upstreamCode).toBe("UNSUPPORTED_LANGUAGE");
    expect((await providerError(client().synthesize(speechRequest("lug", undefined, "a".repeat(2_001))))).upstreamCode).toBe("TEXT_TOO_LONG");
    expect(server.stats.requests).toBe(0);
  });

  it("an expired signed URL is an unavailable download, not audio", async () => {
    const expired = await startEmulatorServer("sunbird", { credential: TOKEN, signedUrlTtlMs: 0 });
    try {
      const c = new SunbirdClient({ baseUrl: expired.url, credential: TOKEN, policy: FAST });
      const err = await providerError(c.synthesize(speechRequest("lug")));
      expect(err).toMatchObject({ kind: "unavailable", status: 400, message: "could not download the synthesized audio" });
      expect(expired.stats.requests).toBe(2);
    } finally {
      await expired.close();
    }
  });

  it("a hanging download is cut within the deadline; an HTML page instead of audio is malformed", async () => {
    server.setControls({ failMode: "hang", pathPrefix: "/gcs" });
    const c = client({ speechAttemptTimeoutMs: 200, policy: { maxRetries: 0 } });
    const { value: err, ms } = await timed(() => providerError(c.synthesize(speechRequest("lug"))));
    expect(err.kind).toBe("timeout");
    expect(ms).toBeLessThan(400);
    server.setControls({ failMode: "html", pathPrefix: "/gcs" });
    expect(await providerError(client().synthesize(speechRequest("lug")))).toMatchObject({
      kind: "malformed",
      message: "provider returned no audio",
    });
  });

  it("a synthesis and its download count once in the circuit breaker", async () => {
    server.setControls({ failMode: "status", status: 503, pathPrefix: "/gcs" });
    const c = client({ policy: { maxRetries: 0 }, circuit: { failureThreshold: 2, cooldownMs: 60_000 } });
    await providerError(c.synthesize(speechRequest("lug")));
    expect(c.circuitState).toBe("closed");
    await providerError(c.synthesize(speechRequest("lug")));
    expect(c.circuitState).toBe("open");
  });
});

describe("Sunbird batch synthesis", () => {
  const TOKEN = "eyJ.batch";
  const faults: SunbirdBatchFaults = { failAfter: 0, failNext: 0 };
  let server: EmulatorServer;
  beforeAll(async () => {
    server = await startEmulatorServer("sunbird", { credential: TOKEN, sunbirdBatchFaults: faults });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    Object.assign(faults, { failAfter: 0, failNext: 0 });
  });
  const client = () => new SunbirdClient({ baseUrl: server.url, credential: TOKEN, policy: FAST });
  const texts = (n: number) => Array.from({ length: n }, (_, i) => `Sentence number ${i + 1} of the text.`);
  const batchRequest = (n: number, voice?: string) => ({ texts: texts(n), language: "lug", voice, deadline: within(5_000) });
  const posts = () => server.stats.recent.filter((r) => r.method === "POST");
  const itemTexts = (post: { bodyText?: string }) => (JSON.parse(post.bodyText ?? "").items as { text: string }[]).map((i) => i.text);

  it("sends every piece in one POST /tasks/audio/speech/batch (one quota unit) and downloads each piece's audio, in order", async () => {
    const results = await client().synthesizeBatch(batchRequest(5));
    expect(results).toHaveLength(5);
    results.forEach((r, i) => {
      expect(r).toMatchObject({ contentType: "audio/wav", model: "orpheus-3b-tts", voice: "salt_lug_0001" });
      expectWav(r.audio, 24_000, texts(5)[i]);
    });
    const [post] = posts();
    expect(posts()).toHaveLength(1);
    expect(post.path).toBe("/tasks/audio/speech/batch");
    expect(post.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(post.bodyText ?? "")).toEqual({
      model: "orpheus-3b-tts",
      items: texts(5).map((text) => ({ text, voice: "salt_lug_0001", language: "lug" })),
    });
    expect(server.stats.quotaUnits).toBe(1);
    expect(server.stats.byPath["/tasks/audio/speech/batch"]).toBe(1);
  });

  it("more than 128 pieces go in further requests of at most 128", async () => {
    const results = await client().synthesizeBatch({ ...batchRequest(130), deadline: within(20_000) });
    expect(results).toHaveLength(130);
    for (const [i, r] of results.entries()) expectWav(r.audio, 24_000, texts(130)[i]);
    expect(server.stats.byPath["/tasks/audio/speech/batch"]).toBe(2);
    expect(server.stats.quotaUnits).toBe(2);
  }, 30_000);

  it("an item that failed is sent again alone, once: the audio is whole, for a second quota unit", async () => {
    Object.assign(faults, { failAfter: 2, failNext: 1 });
    const results = await client().synthesizeBatch(batchRequest(5));
    for (const [i, r] of results.entries()) expectWav(r.audio, 24_000, texts(5)[i]);
    expect(posts().map(itemTexts)).toEqual([texts(5), [texts(5)[2]]]);
    expect(server.stats.quotaUnits).toBe(2);
  });

  it("items that fail again fail the call: no piece of the text is left out", async () => {
    Object.assign(faults, { failAfter: 1, failNext: 3 });
    const err = await providerError(client().synthesizeBatch(batchRequest(3)));
    expect(err).toMatchObject({ kind: "unavailable", upstreamCode: "BATCH_ITEMS_FAILED" });
    expect(err.message).toBe("provider failed to synthesise 1 of the 3 parts of the text, also when asked again");
    expect(posts().map((p) => itemTexts(p).length)).toEqual([3, 2]);
  });

  it("every item failing is Sunbird's 502 for the whole batch: charged, so not sent again", async () => {
    Object.assign(faults, { failNext: 100 });
    const err = await providerError(client().synthesizeBatch(batchRequest(4)));
    expect(err).toMatchObject({ kind: "unavailable", status: 502, upstreamCode: "EXTERNAL_SERVICE_ERROR" });
    expect(server.stats.requests).toBe(1);
    expect(server.stats.quotaUnits).toBe(1);
  });

  it("refuses spark-tts voices (Orpheus only), over-long and empty pieces without calling", async () => {
    expect((await providerError(client().synthesizeBatch(batchRequest(2, "248")))).upstreamCode).toBe("BATCH_UNSUPPORTED");
    const long = { ...batchRequest(2), texts: ["Short.", "a".repeat(2_001)] };
    expect((await providerError(client().synthesizeBatch(long))).upstreamCode).toBe("TEXT_TOO_LONG");
    expect((await providerError(client().synthesizeBatch({ ...batchRequest(2), texts: ["Fine.", " "] }))).kind).toBe("rejected");
    expect(server.stats.requests).toBe(0);
  });

  it("an answer with fewer results than items sent is malformed, not a shorter text", async () => {
    server.setControls({ failMode: "malformed", variant: "shape", pathPrefix: "/tasks" });
    expect((await providerError(client().synthesizeBatch(batchRequest(2)))).kind).toBe("malformed");
  });
});

describe("Khaya speech", () => {
  const KEY = "khaya-speech-key";
  let server: EmulatorServer;
  beforeAll(async () => {
    server = await startEmulatorServer("khaya", { credential: KEY });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  const client = (opts: Partial<ClientOptions> = {}) =>
    new KhayaClient({ baseUrl: server.url, credential: KEY, ...opts, policy: { ...FAST, ...opts.policy } });

  it("transcribes: raw bytes with the audio type to /asr/v3/transcribe?language=<639-3>", async () => {
    const result = await client().transcribe(transcribeRequest("tw"));
    expect(result).toMatchObject({ model: "khaya-asr-v3", transcript: expect.stringMatching(/^\[sandbox:khaya twi\] transcript of 1\.25 s/) });
    const [req] = server.stats.recent;
    expect(req.path).toBe("/asr/v3/transcribe?language=twi&timestamps=segment");
    expect(result.segments).toEqual([{ start: 0, end: 1.25, text: result.transcript }]);
    expect(req.headers["content-type"]).toBe("audio/wav");
    expect(req.headers["ocp-apim-subscription-key"]).toBe(KEY);
    expect(req.bodyBytes).toBe(clip.byteLength);
  });

  it("undecodable audio → rejected with Khaya's code; unsupported language refused without calling", async () => {
    const garbage = new TextEncoder().encode("RIFF but not really a wave file");
    expect(await providerError(client().transcribe(transcribeRequest("tw", garbage)))).toMatchObject({
      kind: "rejected",
      upstreamCode: "INVALID_AUDIO_FORMAT",
    });
    expect((await providerError(client().transcribe(transcribeRequest("lug")))).kind).toBe("rejected");
    expect(server.stats.requests).toBe(1);
  });

  it("synthesizes: {text, language, speaker} to /tts/v1/tts → WAV bytes", async () => {
    const request = speechRequest("tw", "male_low", "Wo ho te sɛn?");
    const result = await client().synthesize(request);
    expect(result).toMatchObject({ contentType: "audio/wav", model: "khaya-tts-v1", voice: "male_low" });
    expectWav(result.audio, 16_000, request.text);
    expect(JSON.parse(server.stats.recent[0].bodyText ?? "")).toEqual({ text: request.text, language: "twi", speaker: "male_low" });
  });

  it("without a voice sends no speaker and reports 'default'; an unknown voice is refused, not silently replaced", async () => {
    expect(await client().synthesize(speechRequest("ee"))).toMatchObject({ voice: "default" });
    expect(JSON.parse(server.stats.recent[0].bodyText ?? "")).not.toHaveProperty("speaker");
    expect((await providerError(client().synthesize(speechRequest("tw", "twi_speaker_4")))).upstreamCode).toBe("UNKNOWN_VOICE");
    expect(server.stats.requests).toBe(1);
  });

  it("an HTML page with 200 instead of audio is malformed", async () => {
    server.controls.failMode = "html";
    expect(await providerError(client().synthesize(speechRequest("tw")))).toMatchObject({ kind: "malformed" });
  });
});

describe("Hugging Face speech", () => {
  const TOKEN = "hf_speech";
  let server: EmulatorServer;
  beforeAll(async () => {
    server = await startEmulatorServer("hf", { credential: TOKEN, hfNotDeployed: ["facebook/mms-tts-lug"] });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());
  const client = (opts: Partial<ClientOptions> = {}) =>
    new HuggingFaceClient({ baseUrl: server.url, credential: TOKEN, ...opts, policy: { ...FAST, ...opts.policy } });

  it("more than 30 s of PCM WAV goes as windows of at most 30 s, in parallel, joined with their offsets", async () => {
    const long = makeWav({ durationSeconds: 75, seed: 5 });
    server.controls.latencyMs = 100;
    const result = await client().transcribe({ ...transcribeRequest("sw", long), durationSeconds: 75 });
    expect(server.stats.requests).toBe(3);
    expect(server.stats.maxInFlight).toBeGreaterThan(1);
    for (const r of server.stats.recent) expect(r.bodyBytes).toBeLessThanOrEqual(44 + 30 * 32_000);
    const segments = result.segments ?? [];
    expect(segments.map((s) => s.start)).toEqual([0, segments[0].end, segments[1].end]);
    expect(segments.at(-1)?.end).toBe(75);
    expect(result.transcript).toBe(segments.map((s) => s.text).join(" "));
  });

  it("more than 30 s of M4A (not decoded here, so not cut) is refused before any call (Whisper would answer 400)", async () => {
    const err = await providerError(
      client().transcribe({
        ...transcribeRequest("sw", new Uint8Array([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70]), "audio/mp4"),
        format: "m4a",
        durationSeconds: 31,
      }),
    );
    expect(err).toMatchObject({ kind: "rejected", upstreamCode: "AUDIO_TOO_LONG" });
    expect(server.stats.requests).toBe(0);
  });

  it("transcribes raw bytes with Whisper by default", async () => {
    const result = await client().transcribe(transcribeRequest("sw"));
    expect(result).toMatchObject({
      model: "openai/whisper-large-v3-turbo",
      transcript: expect.stringContaining("[sandbox:hf openai/whisper-large-v3-turbo]"),
    });
    const [req] = server.stats.recent;
    expect(req.path).toBe("/hf-inference/models/openai/whisper-large-v3-turbo");
    expect(req.headers["content-type"]).toBe("audio/wav");
    expect(req.bodyBytes).toBe(clip.byteLength);
  });

  it("a cold ASR model is waited for when estimated_time fits the deadline", async () => {
    server.setControls({ failMode: "loading", estimatedTimeSeconds: 0.2, failNext: 1 });
    await expect(client().transcribe(transcribeRequest("sw"))).resolves.toMatchObject({ model: "openai/whisper-large-v3-turbo" });
    expect(server.stats.requests).toBe(2);
  });

  it("synthesizes with facebook/mms-tts-<iso> asking for WAV", async () => {
    const request = speechRequest("sw", undefined, "Habari yako");
    const result = await client().synthesize(request);
    expect(result).toMatchObject({ contentType: "audio/wav", model: "facebook/mms-tts-swh", voice: "default" });
    expectWav(result.audio, 16_000, request.text);
    const [req] = server.stats.recent;
    expect(req.path).toBe("/hf-inference/models/facebook/mms-tts-swh");
    expect(req.headers.accept).toBe("audio/wav");
    expect(JSON.parse(req.bodyText ?? "")).toEqual({ inputs: "Habari yako" });
  });

  it("a TTS model that is not deployed is rejected (404) and not retried", async () => {
    expect(await providerError(client().synthesize(speechRequest("lug")))).toMatchObject({ kind: "rejected", status: 404 });
    expect(server.stats.requests).toBe(1);
  });

  it("JSON instead of audio is malformed", async () => {
    server.setControls({ failMode: "malformed", variant: "shape" });
    expect((await providerError(client().synthesize(speechRequest("sw")))).kind).toBe("malformed");
  });
});
