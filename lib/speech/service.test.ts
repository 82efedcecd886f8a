/**
 * STT and TTS routing and fallback, through the real provider clients and their sandbox emulators (in-process), with
 * faults injected into the emulators. The clients' own wire contracts are tested in lib/providers/speech.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AudioFixtures, audioFixtures, removeAudioFixtures } from "@/e2e/support/audio";
import { apiError } from "@/lib/kit/test-support";
import { HF_TTS_PIECE_CHARS } from "@/lib/providers/huggingface";
import { KHAYA_TTS_PIECE_CHARS } from "@/lib/providers/khaya";
import type { Emulator } from "@/lib/providers/sandbox";
import { type EmulatorServer, makeWav, parseWav, speechDurationSeconds, startEmulatorServer } from "@/lib/providers/sandbox";
import { SUNBIRD_TTS_PIECE_CHARS } from "@/lib/providers/sunbird";
import { testProviders } from "@/lib/providers/test-support";
import type { ProviderId } from "@/lib/providers/types";
import { splitForLimit } from "@/lib/translate/segment";
import { analyzeAudio } from "./audio";
import type { SpeechDeps } from "./stt";
import { transcribeAudio } from "./stt";
import { synthesizeSpeech } from "./tts";

let fx: AudioFixtures;
let deps: SpeechDeps;
let emulators: Record<ProviderId, Emulator>;

function build() {
  const registry = testProviders({
    PROVIDER_MODE: "sandbox",
    PROVIDER_MAX_RETRIES: "0",
    CIRCUIT_FAILURE_THRESHOLD: "1000",
    PROVIDER_SPEECH_TIMEOUT_MS: "2000",
  });
  emulators = registry.emulators as Record<ProviderId, Emulator>;
  deps = { providers: registry.clients, deadlineMs: 5_000, maxAudioSeconds: 600 };
}

beforeAll(async () => {
  fx = await audioFixtures();
}, 60_000);
afterAll(removeAudioFixtures);
beforeEach(build);

const wav = makeWav({ durationSeconds: 1.25, seed: 5 });

/** The signed-audio downloads an emulator served, by path (one object each). */
function gcsPaths(emulator: Emulator, count: number): Record<string, number> {
  const paths = Object.keys(emulator.stats.byPath).filter((p) => p.startsWith("/gcs/"));
  expect(paths).toHaveLength(count);
  return Object.fromEntries(paths.map((p) => [p, 1]));
}

describe("transcribeAudio: routing", () => {
  it("provider_a for Luganda, with the fields of the response and the duration measured from the file", async () => {
    const r = await transcribeAudio({ audio: wav, language: "LUG" }, deps);
    expect(r).toMatchObject({
      language: "lug",
      provider: "provider_a",
      model_used: "provider_a/sunbird-stt",
      audio_duration_seconds: 1.25,
      audio_content_type: "audio/wav",
      requested_provider: "auto",
      fallback_used: false,
      providers_tried: ["provider_a"],
      sandbox: true,
    });
    expect(r.transcript).toMatch(/^\[sandbox:sunbird lug\] transcript of 1\.25 s/);
    expect(Number.isInteger(r.latency_ms)).toBe(true);
  });

  it("provider_b for Twi, provider_c (Whisper) for Lingala; the upstream gets the detected type", async () => {
    expect(await transcribeAudio({ audio: fx.files.ogg.bytes, language: "tw" }, deps)).toMatchObject({
      provider: "provider_b",
      model_used: "provider_b/khaya-asr-v3",
    });
    expect(emulators.provider_b.stats.recent.at(-1)).toMatchObject({
      path: "/asr/v3/transcribe?language=twi&timestamps=segment",
      headers: expect.objectContaining({ "content-type": "audio/ogg" }),
    });
    expect(await transcribeAudio({ audio: fx.files.m4a.bytes, language: "ln" }, deps)).toMatchObject({
      provider: "provider_c",
      model_used: "provider_c/openai/whisper-large-v3-turbo",
    });
  });

  it("decodes a format the upstream does not take and sends it as WAV: WebM/Opus in Twi reaches provider_b as audio/wav", async () => {
    const r = await transcribeAudio({ audio: fx.files.webm.bytes, language: "tw" }, deps);
    expect(r).toMatchObject({ provider: "provider_b", fallback_used: false, audio_content_type: "audio/webm" });
    expect(emulators.provider_b.stats.recent.at(-1)?.headers["content-type"]).toBe("audio/wav");
  });

  it("415 when no provider for the language takes the format (M4A in Twi: not decoded here, not taken by Khaya), naming what would work", async () => {
    const err = await apiError(transcribeAudio({ audio: fx.files.m4a.bytes, language: "tw" }, deps));
    expect(err).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", status: 415 });
    expect(err.message).toContain("provider_b accepts WAV, MP3, FLAC, OGG, WebM");
  });

  it("422 for an unknown language, a language without STT, and a forced provider that lacks it", async () => {
    expect(await apiError(transcribeAudio({ audio: wav, language: "klingon" }, deps))).toMatchObject({ code: "UNSUPPORTED_LANGUAGE" });
    const zu = await apiError(transcribeAudio({ audio: wav, language: "zu" }, deps));
    expect(zu.message).toContain("Speech-to-text is not available for Zulu (zu)");
    const forced = await apiError(transcribeAudio({ audio: wav, language: "lug", provider: "provider_b" }, deps));
    expect(forced).toMatchObject({ code: "UNSUPPORTED_LANGUAGE" });
    expect(forced.options.errors?.[0].loc).toEqual(["body", "provider"]);
    expect(forced.message).toContain("Providers that do: provider_a");
  });

  it("415 for bad audio before any provider is called", async () => {
    for (const bytes of [fx.empty.bytes, fx.textAsWav.bytes, fx.truncatedHeader.wav.bytes, fx.truncatedBody.mp3.bytes]) {
      expect(await apiError(transcribeAudio({ audio: bytes, language: "lug" }, deps))).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
    }
    expect(emulators.provider_a.stats.requests).toBe(0);
  });

  it("422 for audio longer than the configured maximum", async () => {
    const err = await apiError(transcribeAudio({ audio: wav, language: "lug" }, { ...deps, maxAudioSeconds: 1 }));
    expect(err).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(err.options.errors?.[0]).toMatchObject({ loc: ["body", "audio"], type: "audio_too_long" });
  });
});

describe("transcribeAudio: fallback", () => {
  it("English falls back to provider_b when provider_a is down", async () => {
    emulators.provider_a.setControls({ failMode: "status", status: 503 });
    const r = await transcribeAudio({ audio: wav, language: "en" }, deps);
    expect(r).toMatchObject({ provider: "provider_b", fallback_used: true, providers_tried: ["provider_a", "provider_b"] });
    expect(emulators.provider_a.stats.requests).toBe(1);
  });

  it("a forced provider never falls back: 503 naming it, in our words", async () => {
    emulators.provider_a.setControls({ failMode: "status", status: 502 });
    const err = await apiError(transcribeAudio({ audio: wav, language: "en", provider: "provider_a" }, deps));
    expect(err).toMatchObject({ code: "PROVIDER_ERROR", status: 503 });
    expect(err.message).toMatch(/^provider_a failed to transcribe English \(en\)/);
    expect(err.message).toContain("no other provider was tried");
    expect(emulators.provider_b.stats.requests).toBe(0);
  });

  it("all failed → 503 naming every provider tried, never the upstream's text", async () => {
    emulators.provider_a.setControls({ failMode: "status", status: 500 });
    emulators.provider_b.setControls({ failMode: "html", status: 200 });
    emulators.provider_c.setControls({ failMode: "rate_limited", retryAfterSeconds: 7 });
    const err = await apiError(transcribeAudio({ audio: wav, language: "en" }, deps));
    expect(err.code).toBe("PROVIDER_ERROR");
    expect(err.message).toMatch(/^All providers failed to transcribe English \(en\): provider_a \(.+\); provider_b \(.+\); provider_c \(.+\)/);
    expect(err.message).not.toMatch(/Web App - Unavailable|You reached free usage limit|Internal Server Error|<html|<title>/);
  });

  it("Retry-After on the 503 when every failure carried a wait hint", async () => {
    emulators.provider_b.setControls({ failMode: "rate_limited", retryAfterSeconds: 9 });
    const err = await apiError(transcribeAudio({ audio: wav, language: "tw" }, deps));
    expect(err.options.headers).toEqual({ "Retry-After": "9" });
  });
});

describe("synthesizeSpeech", () => {
  it("Luganda with the default spark-tts voice 248; WAV bytes measured", async () => {
    const text = "Oli otya, nnyabo?";
    const { response, audio } = await synthesizeSpeech({ text: `  ${text} `, language: "lug" }, deps);
    expect(response).toMatchObject({
      content_type: "audio/wav",
      language: "lug",
      voice: "248",
      model_used: "provider_a/spark-tts",
      provider: "provider_a",
      fallback_used: false,
      sandbox: true,
    });
    expect(response.audio_duration_seconds).toBeCloseTo(speechDurationSeconds(text), 2);
    expect(String.fromCharCode(...audio.subarray(0, 4))).toBe("RIFF");
    expect(JSON.stringify(response)).not.toMatch(/https?:/); // never a link
  });

  it("an explicit Orpheus voice, a Khaya speaker, an MMS model", async () => {
    expect((await synthesizeSpeech({ text: "Hello", language: "lug", voice: "salt_lug_0001" }, deps)).response).toMatchObject({
      voice: "salt_lug_0001",
      model_used: "provider_a/orpheus-3b-tts",
    });
    expect((await synthesizeSpeech({ text: "Maakye", language: "tw", voice: "male_low" }, deps)).response).toMatchObject({
      voice: "male_low",
      provider: "provider_b",
      model_used: "provider_b/khaya-tts-v1",
    });
    expect(JSON.parse(emulators.provider_b.stats.recent.at(-1)?.bodyText ?? "{}")).toEqual({ text: "Maakye", language: "twi", speaker: "male_low" });
    expect((await synthesizeSpeech({ text: "Habari", language: "sw", voice: "facebook/mms-tts-swh" }, deps)).response).toMatchObject({
      provider: "provider_c",
      voice: "facebook/mms-tts-swh",
      model_used: "provider_c/facebook/mms-tts-swh",
    });
  });

  it("422 UNSUPPORTED_VOICE for an unknown voice, a voice of another language, or another provider's voice — listing the valid ones", async () => {
    const unknown = await apiError(synthesizeSpeech({ text: "Hi", language: "lug", voice: "999" }, deps));
    expect(unknown).toMatchObject({ code: "UNSUPPORTED_VOICE", status: 422 });
    const orpheus = ["salt_lug_0001", ...[2, 3, 4, 5, 6, 7, 8].map((n) => `waxal_lug_000${n}`)];
    expect(unknown.message).toContain(`Voices for Luganda (lug): 248, ${orpheus.join(", ")}, facebook/mms-tts-lug.`);
    const other = await apiError(synthesizeSpeech({ text: "Hi", language: "ach", voice: "248" }, deps));
    expect(other.message).toContain('Voice "248" (provider_a, Luganda (female)) does not speak Acholi (ach)');
    const provider = await apiError(synthesizeSpeech({ text: "Hi", language: "lug", voice: "248", provider: "provider_c" }, deps));
    expect(provider.message).toContain("provider_c voices for Luganda (lug): facebook/mms-tts-lug");
    expect(Object.values(emulators).every((e) => e.stats.requests === 0)).toBe(true);
  });

  it("422 for empty text, text over 5,000 characters, unknown language, language without TTS, forced provider without it", async () => {
    expect(await apiError(synthesizeSpeech({ text: " \n ", language: "lug" }, deps))).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(await apiError(synthesizeSpeech({ text: "a".repeat(5_001), language: "lug" }, deps))).toMatchObject({ code: "TEXT_TOO_LONG" });
    await expect(synthesizeSpeech({ text: "é".repeat(5_000), language: "lug" }, deps)).resolves.toBeTruthy();
    expect(await apiError(synthesizeSpeech({ text: "Hi", language: "xx" }, deps))).toMatchObject({ code: "UNSUPPORTED_LANGUAGE" });
    expect(await apiError(synthesizeSpeech({ text: "Hi", language: "zu" }, deps))).toMatchObject({ code: "UNSUPPORTED_LANGUAGE" });
    const forced = await apiError(synthesizeSpeech({ text: "Hi", language: "lug", provider: "provider_b" }, deps));
    expect(forced.options.errors?.[0].loc).toEqual(["body", "provider"]);
  });

  it("where the platform caps a response (Vercel's 4.5 MB), a text whose audio could pass it is refused before any call", async () => {
    const capped = { ...deps, maxResponseBytes: 4_500_000 };
    const json = await apiError(synthesizeSpeech({ text: "a".repeat(1_000), language: "lug" }, capped));
    expect(json).toMatchObject({ code: "TEXT_TOO_LONG", status: 422 });
    expect(json.options.errors?.[0].loc).toEqual(["body", "text"]);
    expect(json.message).toMatch(/the limit is 560 characters on this deployment in wav.*\(5,000 in opus\)/);
    // The raw form carries no base64, so more text fits.
    await expect(synthesizeSpeech({ text: "a".repeat(700), language: "lug", raw: true }, capped)).resolves.toBeTruthy();
    expect((await synthesizeSpeech({ text: "a".repeat(560), language: "lug" }, capped)).audio.byteLength).toBeLessThan(4_500_000);
    expect(await apiError(synthesizeSpeech({ text: "a".repeat(561), language: "lug" }, capped))).toMatchObject({ code: "TEXT_TOO_LONG" });
    expect(await apiError(synthesizeSpeech({ text: "a".repeat(750), language: "lug", raw: true }, capped))).toMatchObject({ code: "TEXT_TOO_LONG" });
    // Opus and MP3 are a tenth of WAV's size or less: 2,000 characters fit easily, as JSON too (all 5,000 do).
    for (const format of ["opus", "mp3"] as const) {
      const { response, audio } = await synthesizeSpeech({ text: "a".repeat(2_000), language: "lug", format }, capped);
      expect(response.content_type).toBe(format === "opus" ? "audio/ogg; codecs=opus" : "audio/mpeg");
      expect(Math.ceil(audio.byteLength / 3) * 4).toBeLessThan(4_500_000);
    }
  });

  it("falls back to the next provider's default voice when provider_a fails, and says so", async () => {
    emulators.provider_a.setControls({ failMode: "status", status: 503 });
    const { response } = await synthesizeSpeech({ text: "Oli otya", language: "lug" }, deps);
    expect(response).toMatchObject({
      provider: "provider_c",
      voice: "facebook/mms-tts-lug",
      fallback_used: true,
      providers_tried: ["provider_a", "provider_c"],
    });
  });

  const sentences = (n: number) =>
    Array.from({ length: n }, (_, i) => `Omukazi ono ${i + 1} yagenda mu katale. `)
      .join("")
      .trim();

  it("a text longer than one synthesis: split at sentence ends, one Sunbird batch request, the clips joined to their summed duration", async () => {
    const text = sentences(40);
    // An Orpheus voice: Luganda's default is spark-tts, which takes 10,000 characters whole (one call, no batch).
    const { response, audio } = await synthesizeSpeech({ text, language: "lug", voice: "salt_lug_0001" }, deps);
    const pieces = splitForLimit(text, SUNBIRD_TTS_PIECE_CHARS).chunks;
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece).toMatch(/katale\.$/);
    expect(emulators.provider_a.stats.byPath).toEqual({ "/tasks/audio/speech/batch": 1, ...gcsPaths(emulators.provider_a, pieces.length) });
    expect(emulators.provider_a.stats.quotaUnits).toBe(1);
    // Each piece's clip (24 kHz) end to end: the WAV holds exactly their samples, and the answer says so.
    const expected = pieces.reduce((sum, p) => sum + Math.round(speechDurationSeconds(p) * 24_000), 0) / 24_000;
    expect(parseWav(audio)).toMatchObject({ sampleRate: 24_000, channels: 1 });
    expect(parseWav(audio)?.durationSeconds).toBeCloseTo(expected, 6);
    expect(response).toMatchObject({ provider: "provider_a", voice: "salt_lug_0001", content_type: "audio/wav", upstream_calls: 1 });
    expect(response.audio_duration_seconds).toBeCloseTo(expected, 3);
  });

  it("on a provider without a batch endpoint (provider_b, Twi): one call per piece, at most two at a time, each counted", async () => {
    const text = Array.from({ length: 60 }, (_, i) => `Maakye, me nua ${i + 1}, wo ho te sɛn?`).join(" ");
    const { response, audio } = await synthesizeSpeech({ text, language: "tw", format: "opus" }, deps);
    const pieces = splitForLimit(text, KHAYA_TTS_PIECE_CHARS).chunks;
    expect(pieces.length).toBeGreaterThan(1);
    expect(emulators.provider_b.stats.requests).toBe(pieces.length);
    expect(emulators.provider_b.stats.maxInFlight).toBeLessThanOrEqual(2);
    expect(response).toMatchObject({ provider: "provider_b", content_type: "audio/ogg; codecs=opus", upstream_calls: pieces.length });
    const expected = pieces.reduce((sum, p) => sum + speechDurationSeconds(p), 0);
    expect(response.audio_duration_seconds).toBeCloseTo(expected, 1);
    expect((await analyzeAudio(audio)).durationSeconds).toBeCloseTo(response.audio_duration_seconds, 1);
  });

  it("a piece that fails fails the whole on that provider (no audio left out): the next provider speaks the whole text", async () => {
    // English: provider_a's batch answers 502, provider_b's second piece fails, provider_c speaks every piece.
    emulators.provider_a.setControls({ failMode: "status", status: 502, pathPrefix: "/tasks" });
    emulators.provider_b.setControls({ failMode: "status", status: 500, failAfter: 1, failNext: 1 });
    const text = Array.from({ length: 60 }, (_, i) => `Good morning, my friend number ${i + 1}, how are you?`).join(" ");
    const { response } = await synthesizeSpeech({ text, language: "en" }, deps);
    expect(response).toMatchObject({ fallback_used: true, providers_tried: ["provider_a", "provider_b", "provider_c"], provider: "provider_c" });
    expect(emulators.provider_a.stats.byPath).toEqual({ "/tasks/audio/speech/batch": 1 });
    expect(emulators.provider_c.stats.requests).toBe(splitForLimit(text, HF_TTS_PIECE_CHARS).chunks.length);
    expect(response.upstream_calls).toBe(1 + emulators.provider_b.stats.requests + emulators.provider_c.stats.requests);
  });

  it("falls back when provider_a's signed audio download fails", async () => {
    emulators.provider_a.setControls({ failMode: "status", status: 500, pathPrefix: "/gcs/" });
    const { response } = await synthesizeSpeech({ text: "Oli otya", language: "lug" }, deps);
    expect(response).toMatchObject({ provider: "provider_c", fallback_used: true });
  });

  it("an explicit voice never falls back: 503 saying the voice chose the provider", async () => {
    emulators.provider_a.setControls({ failMode: "status", status: 503 });
    const err = await apiError(synthesizeSpeech({ text: "Oli otya", language: "lug", voice: "248" }, deps));
    expect(err).toMatchObject({ code: "PROVIDER_ERROR" });
    expect(err.message).toContain('It was chosen by the voice "248", so no other provider was tried');
    expect(emulators.provider_c.stats.requests).toBe(0);
  });

  it("audio that does not decode is a provider failure, not a response", async () => {
    emulators.provider_b.setControls({ failMode: "malformed", variant: "garbage" });
    const err = await apiError(synthesizeSpeech({ text: "Maakye", language: "tw" }, deps));
    expect(err).toMatchObject({ code: "PROVIDER_ERROR" });
    expect(err.message).toMatch(/provider_b failed|All providers failed/);
  });
});

describe("over loopback HTTP (live clients on emulator servers)", () => {
  // A hang is tested over real sockets: the in-process sandbox cannot cut a handler that never answers.
  let servers: EmulatorServer[];
  let live: SpeechDeps;
  beforeAll(async () => {
    servers = await Promise.all((["sunbird", "khaya", "hf"] as const).map((kind) => startEmulatorServer(kind)));
    const [a, b, c] = servers;
    live = {
      providers: testProviders({
        PROVIDER_MODE: "live",
        SUNBIRD_API_URL: a.url,
        KHAYA_API_URL: b.url,
        HF_API_URL: c.url,
        PROVIDER_MAX_RETRIES: "0",
        CIRCUIT_FAILURE_THRESHOLD: "1000",
      }).clients,
      deadlineMs: 3_000,
      maxAudioSeconds: 600,
    };
  });
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it("a hanging provider_a leaves time for provider_b within the deadline", async () => {
    servers[0].setControls({ failMode: "hang" });
    const started = Date.now();
    const r = await transcribeAudio({ audio: wav, language: "sw" }, live);
    expect(r).toMatchObject({ provider: "provider_b", fallback_used: true, providers_tried: ["provider_a", "provider_b"], sandbox: false });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("a hanging forced provider ends at the deadline with 503 (timeout)", async () => {
    servers[0].setControls({ failMode: "hang" });
    const started = Date.now();
    const err = await apiError(transcribeAudio({ audio: wav, language: "sw", provider: "provider_a" }, { ...live, deadlineMs: 1_000 }));
    expect(err.code).toBe("PROVIDER_ERROR");
    expect(err.message).toContain("timeout");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
