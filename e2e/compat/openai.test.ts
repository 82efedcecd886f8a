import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TTS_CHARS } from "@/lib/speech/limits";
import { call, mintKey } from "../support/api";
import { COLD_START_MS, type RunningApp, startApp, stopAllApps } from "../support/app";
import { type AudioFixtures, audioFixtures, ffmpegPcm, removeAudioFixtures } from "../support/audio";

/**
 * The OpenAI audio surface (/compat/openai/v1) driven by OpenAI's own Node.js SDK from the npm registry, unmodified,
 * with only its documented `baseURL` and `apiKey` set (and no retries, so a refusal surfaces at once). Transcripts are
 * compared with what POST /api/v1/speech/stt answers for the same recording; speech is decoded by ffmpeg (the test
 * toolchain's, independent of the app's own codecs).
 */
let app: RunningApp;
let fx: AudioFixtures;

// The speech buckets are small, so that the limit tests reach them; every other test spends a key of its own.
const TTS_LIMIT = 3;
const STT_LIMIT = 4;

beforeAll(async () => {
  [app, fx] = await Promise.all([
    startApp({
      env: {
        RATE_LIMIT_TTS: `${TTS_LIMIT}/60s`,
        RATE_LIMIT_STT: `${STT_LIMIT}/60s`,
        RATE_LIMIT_DEFAULT: "1000/60s",
        RATE_LIMIT_ISSUANCE: "1000/60s",
      },
      readyTimeoutMs: COLD_START_MS,
    }),
    audioFixtures(),
  ]);
});
afterAll(async () => {
  await stopAllApps();
  removeAudioFixtures();
});

const client = (apiKey: string) => new OpenAI({ baseURL: `${app.url}/compat/openai/v1`, apiKey, maxRetries: 0 });
const wav = () => toFile(Buffer.from(fx.files.wav.bytes), "speech.wav", { type: "audio/wav" });

/** POST /api/v1/speech/stt of the same recording. */
function nativeStt(key: string, language: string) {
  const form = new FormData();
  form.set("audio", new Blob([fx.files.wav.bytes as Uint8Array<ArrayBuffer>]), "speech.wav");
  form.set("language", language);
  return call(app.url, "POST", "/api/v1/speech/stt", { key, body: form });
}

/** The native answer for the same recording and language. */
async function nativeTranscript(key: string, language: string) {
  const res = await nativeStt(key, language);
  expect(res.status, res.text).toBe(200);
  return res.body as { transcript: string; segments: { start: number; end: number; text: string }[] | null; audio_duration_seconds: number };
}

/** The length and peak of what ffmpeg decodes from `bytes` (`input` describes a raw format, which has no header). */
async function ffmpegDecode(bytes: Uint8Array, name: string, input: string[] = []) {
  const samples = await ffmpegPcm(bytes, name, input);
  return { seconds: samples.length / 16_000, peak: samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0) };
}

describe("models", () => {
  it("lists the speech models, generic and per language, and retrieves one; an unknown one is NotFoundError", async () => {
    const openai = client(await mintKey(app.url, "models"));
    const ids = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids.slice(0, 2)).toEqual(["lugha-stt", "lugha-tts"]);
    expect(ids).toEqual(expect.arrayContaining(["lugha-stt-lg", "lugha-stt-sw", "lugha-tts-lg", "lugha-tts-ach"]));
    expect(await openai.models.retrieve("lugha-tts-lg")).toMatchObject({ id: "lugha-tts-lg", object: "model", owned_by: "lugha" });
    const missing = await openai.models.retrieve("whisper-1").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.NotFoundError>).requestID).toMatch(/^req_/);
  });
});

describe("transcriptions", () => {
  it("json: the transcript the native route gives, with the duration; the sandbox marker in a header", async () => {
    const key = await mintKey(app.url, "stt json");
    const native = await nativeTranscript(key, "lug");
    const { data, response } = await client(key)
      .audio.transcriptions.create({ file: await wav(), model: "lugha-stt-lg" })
      .withResponse();
    expect(data).toEqual({ text: native.transcript, usage: { type: "duration", seconds: native.audio_duration_seconds } });
    expect(data.text).toMatch(/^\[sandbox:/);
    expect(response.headers.get("x-lugha-sandbox")).toBe("true");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("text: the transcript alone, as a string", async () => {
    const key = await mintKey(app.url, "stt text");
    const native = await nativeTranscript(key, "sw");
    const text = await client(key).audio.transcriptions.create({ file: await wav(), model: "lugha-stt", language: "sw", response_format: "text" });
    expect(text).toBe(native.transcript);
  });

  it("srt and vtt: one cue per segment, timed to the recording (one cue for the whole recording without provider timing)", async () => {
    const key = await mintKey(app.url, "stt subtitles");
    const native = await nativeTranscript(key, "lug");
    expect(native.segments).toBeNull();
    const openai = client(key);
    const srt = await openai.audio.transcriptions.create({ file: await wav(), model: "lugha-stt-lg", response_format: "srt" });
    const vtt = await openai.audio.transcriptions.create({ file: await wav(), model: "lugha-stt-lg", response_format: "vtt" });
    const end = native.audio_duration_seconds;
    const stamp = (sep: string) => `00:00:${String(Math.floor(end)).padStart(2, "0")}${sep}${String(Math.round((end % 1) * 1000)).padStart(3, "0")}`;
    expect(srt).toBe(`1\n00:00:00,000 --> ${stamp(",")}\n${native.transcript}\n\n`);
    expect(vtt).toBe(`WEBVTT\n\n00:00:00.000 --> ${stamp(".")}\n${native.transcript}\n\n`);
  });

  it("verbose_json with segment timestamps: the language, duration and the provider's own segments", async () => {
    const key = await mintKey(app.url, "stt verbose");
    const native = await nativeTranscript(key, "tw");
    const verbose = await client(key).audio.transcriptions.create({
      file: await wav(),
      model: "lugha-stt",
      language: "tw",
      response_format: "verbose_json",
      timestamp_granularities: ["segment"],
    });
    expect(verbose).toMatchObject({ task: "transcribe", language: "twi", duration: native.audio_duration_seconds, text: native.transcript });
    const expected = native.segments ?? [{ start: 0, end: native.audio_duration_seconds, text: native.transcript }];
    expect(verbose.segments).toEqual(expected.map((s, id) => ({ id, ...s })));
  });

  it("refuses word timestamps, a second language that disagrees with the model's, and none at all, naming the field", async () => {
    const openai = client(await mintKey(app.url, "stt refusals"));
    const attempts = [
      { params: { model: "lugha-stt", response_format: "verbose_json", timestamp_granularities: ["word"] }, param: "timestamp_granularities" },
      { params: { model: "lugha-stt-lg", language: "sw" }, param: "language" },
      { params: { model: "lugha-stt" }, param: "language" },
      { params: { model: "whisper-1", language: "sw" }, param: "model" },
    ] as const;
    for (const { params, param } of attempts) {
      const err = await openai.audio.transcriptions.create({ file: await wav(), ...params } as never).catch((e: unknown) => e);
      expect(err, param).toBeInstanceOf(OpenAI.BadRequestError);
      const bad = err as InstanceType<typeof OpenAI.BadRequestError>;
      expect(bad.param, bad.message).toBe(param);
      expect(bad.type).toBe("invalid_request_error");
      expect(bad.requestID).toMatch(/^req_/);
    }
  });
});

describe("speech", () => {
  it("mp3 (the SDK's default) and wav: files ffmpeg decodes to the same length of audio", async () => {
    const openai = client(await mintKey(app.url, "tts formats"));
    const input = "Wasuze otya nno? Ndi bulungi.";
    const mp3 = await openai.audio.speech.create({ model: "lugha-tts-lg", input, voice: "alloy" });
    expect(mp3.headers.get("content-type")).toBe("audio/mpeg");
    expect(mp3.headers.get("x-lugha-sandbox")).toBe("true");
    // `language` is this surface's own field: the SDK sends a field its types do not know as it is.
    const withLanguage = { model: "lugha-tts", language: "lg", input, voice: "alloy", response_format: "wav" } as OpenAI.Audio.SpeechCreateParams;
    const wavAnswer = await openai.audio.speech.create(withLanguage);
    expect(wavAnswer.headers.get("content-type")).toBe("audio/wav");
    const fromMp3 = await ffmpegDecode(new Uint8Array(await mp3.arrayBuffer()), "speech.mp3");
    const fromWav = await ffmpegDecode(new Uint8Array(await wavAnswer.arrayBuffer()), "speech.wav");
    expect(fromWav.seconds).toBeGreaterThan(0.5);
    expect(Math.abs(fromMp3.seconds - fromWav.seconds)).toBeLessThan(0.1);
    expect(fromMp3.peak).toBeGreaterThan(1000); // sound, not silence
  });

  it("pcm: 24 kHz 16-bit little-endian mono samples, as long as the wav; opus: an Ogg/Opus file", async () => {
    const openai = client(await mintKey(app.url, "tts pcm"));
    const input = "Habari ya asubuhi";
    const pcm = new Uint8Array(
      await (await openai.audio.speech.create({ model: "lugha-tts-sw", input, voice: "alloy", response_format: "pcm" })).arrayBuffer(),
    );
    const wavBytes = new Uint8Array(
      await (await openai.audio.speech.create({ model: "lugha-tts-sw", input, voice: "alloy", response_format: "wav" })).arrayBuffer(),
    );
    const opus = await openai.audio.speech.create({ model: "lugha-tts-sw", input, voice: "alloy", response_format: "opus" });
    expect(opus.headers.get("content-type")).toBe("audio/ogg; codecs=opus");
    const fromWav = await ffmpegDecode(wavBytes, "pcm-check.wav");
    const fromPcm = await ffmpegDecode(pcm, "speech.pcm", ["-f", "s16le", "-ar", "24000", "-ac", "1"]);
    const fromOpus = await ffmpegDecode(new Uint8Array(await opus.arrayBuffer()), "speech.ogg");
    expect(pcm.byteLength % 2).toBe(0);
    expect(Math.abs(pcm.byteLength / 2 / 24_000 - fromWav.seconds)).toBeLessThan(0.01);
    expect(Math.abs(fromPcm.seconds - fromWav.seconds)).toBeLessThan(0.01);
    expect(fromPcm.peak).toBeGreaterThan(1000);
    expect(Math.abs(fromOpus.seconds - fromWav.seconds)).toBeLessThan(0.05);
  });

  it("refuses a speed it cannot honour, aac, an unknown voice and a text over the limit, naming the field", async () => {
    const attempts = [
      { params: { model: "lugha-tts-lg", input: "Hi", voice: "alloy", speed: 1.5 }, param: "speed" },
      { params: { model: "lugha-tts-lg", input: "Hi", voice: "alloy", response_format: "aac" }, param: "response_format" },
      { params: { model: "lugha-tts-lg", input: "Hi", voice: "no-such-voice" }, param: "voice" },
      { params: { model: "lugha-tts-lg", input: "a".repeat(MAX_TTS_CHARS + 1), voice: "alloy" }, param: "input" },
      { params: { model: "lugha-tts", input: "Hi", voice: "alloy" }, param: "language" },
    ] as const;
    for (const { params, param } of attempts) {
      // A key each: the rate limit comes before the fields are read, and the TTS bucket is small.
      const openai = client(await mintKey(app.url, `tts refusal ${param}`));
      const err = await openai.audio.speech.create(params as never).catch((e: unknown) => e);
      expect(err, param).toBeInstanceOf(OpenAI.BadRequestError);
      const bad = err as InstanceType<typeof OpenAI.BadRequestError>;
      expect(bad.param, bad.message).toBe(param);
      expect(bad.message).not.toMatch(/^text /);
    }
  });
});

describe("the same pipeline as the native routes", () => {
  it("a bad key is AuthenticationError with the request id", async () => {
    const err = await client(`svc_${"0".repeat(40)}`)
      .audio.speech.create({ model: "lugha-tts-lg", input: "Hi", voice: "alloy" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    const auth = err as InstanceType<typeof OpenAI.AuthenticationError>;
    expect(auth.status).toBe(401);
    expect(auth.code).toBe("invalid_api_key");
    expect(auth.requestID).toMatch(/^req_/);
  });

  it("speech spends the native TTS bucket: after the limit, RateLimitError here and 429 on the native route", async () => {
    const key = await mintKey(app.url, "tts bucket");
    const openai = client(key);
    const native = { text: "Hi", language: "lug" };
    expect((await call(app.url, "POST", "/api/v1/speech/tts", { key, json: native })).status).toBe(200);
    for (let i = 1; i < TTS_LIMIT; i++) await openai.audio.speech.create({ model: "lugha-tts-lg", input: "Hi", voice: "alloy" });
    const err = await openai.audio.speech.create({ model: "lugha-tts-lg", input: "Hi", voice: "alloy" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const limited = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(limited.code).toBe("rate_limit_exceeded");
    expect(limited.type).toBe("requests");
    expect(limited.requestID).toMatch(/^req_/);
    expect(Number(limited.headers?.get("retry-after"))).toBeGreaterThan(0);
    expect((await call(app.url, "POST", "/api/v1/speech/tts", { key, json: native })).body.detail.code).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("transcriptions spend the native STT bucket: after the limit, RateLimitError here and 429 on the native route", async () => {
    const key = await mintKey(app.url, "stt bucket");
    const openai = client(key);
    await nativeTranscript(key, "lug");
    for (let i = 1; i < STT_LIMIT; i++) await openai.audio.transcriptions.create({ file: await wav(), model: "lugha-stt-lg" });
    const err = await openai.audio.transcriptions.create({ file: await wav(), model: "lugha-stt-lg" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect((err as InstanceType<typeof OpenAI.RateLimitError>).requestID).toMatch(/^req_/);
    expect((await nativeStt(key, "lug")).body.detail.code).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("the key's usage and request log show the calls, with their request ids and providers", async () => {
    const key = await mintKey(app.url, "usage");
    const openai = client(key);
    const stt = await openai.audio.transcriptions.create({ file: await wav(), model: "lugha-stt-lg" }).withResponse();
    const tts = await openai.audio.speech.create({ model: "lugha-tts-lg", input: "Hi", voice: "alloy" }).withResponse();
    const usage = await call(app.url, "GET", "/api/v1/usage?group_by=endpoint", { key });
    const rows = new Map((usage.body.rows as { endpoint: string; requests: number }[]).map((r) => [r.endpoint, r.requests]));
    expect(rows.get("POST /compat/openai/v1/audio/transcriptions")).toBe(1);
    expect(rows.get("POST /compat/openai/v1/audio/speech")).toBe(1);
    const log = await call(app.url, "GET", "/api/v1/usage/requests", { key });
    const lines = log.body.requests as { endpoint: string; status: number; provider: string | null; request_id: string }[];
    for (const [answer, endpoint] of [
      [stt, "POST /compat/openai/v1/audio/transcriptions"],
      [tts, "POST /compat/openai/v1/audio/speech"],
    ] as const) {
      const line = lines.find((l) => l.request_id === answer.request_id);
      expect(line).toMatchObject({ endpoint, status: 200, provider: "provider_a" });
    }
  });
});

const MARKER = "EchoCanaryQ7x";

describe("bad input", () => {
  it("gets OpenAI's error shape, a 4xx and no trace of the input, on both audio routes", async () => {
    // Each attempt is sent with a key of its own (the TTS bucket is small): "KEY" stands for it.
    const auth = { authorization: "Bearer KEY" };
    const json = { ...auth, "content-type": "application/json" };
    const form = (fields: Record<string, string | Blob>) => {
      const f = new FormData();
      for (const [name, value] of Object.entries(fields)) {
        if (typeof value === "string") f.append(name, value);
        else f.append(name, value, `${MARKER}.wav`);
      }
      return f;
    };
    const audio = new Blob([fx.files.wav.bytes as Uint8Array<ArrayBuffer>]);
    const speech = "/compat/openai/v1/audio/speech";
    const transcriptions = "/compat/openai/v1/audio/transcriptions";
    const attempts: [string, string, RequestInit][] = [
      ["malformed JSON", speech, { body: `{"input": "${MARKER}`, headers: json }],
      ["not an object", speech, { body: JSON.stringify([MARKER]), headers: json }],
      ["wrong types", speech, { body: JSON.stringify({ model: { [MARKER]: 1 }, input: 7, voice: [MARKER] }), headers: json }],
      ["unknown model", speech, { body: JSON.stringify({ model: MARKER, input: "Hi" }), headers: json }],
      ["unknown model language", speech, { body: JSON.stringify({ model: `lugha-tts-${MARKER}`, input: "Hi" }), headers: json }],
      ["unknown language", speech, { body: JSON.stringify({ model: "lugha-tts", language: MARKER, input: "Hi" }), headers: json }],
      ["unknown voice", speech, { body: JSON.stringify({ model: "lugha-tts-lg", voice: MARKER, input: "Hi" }), headers: json }],
      ["bad format", speech, { body: JSON.stringify({ model: "lugha-tts-lg", input: "Hi", response_format: MARKER }), headers: json }],
      ["bad speed", speech, { body: JSON.stringify({ model: "lugha-tts-lg", input: "Hi", speed: MARKER }), headers: json }],
      ["empty input", speech, { body: JSON.stringify({ model: "lugha-tts-lg", input: "   " }), headers: json }],
      ["empty body", speech, { body: "", headers: json }],
      ["invalid UTF-8", speech, { body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), headers: json }],
      [
        "a key in the wrong form",
        speech,
        { body: JSON.stringify({ model: "lugha-tts-lg", input: "Hi" }), headers: { authorization: `Basic ${MARKER}` } },
      ],
      ["an unknown key", speech, { body: "{}", headers: { authorization: `Bearer svc_${MARKER}`, "content-type": "application/json" } }],
      ["no file", transcriptions, { body: form({ model: "lugha-stt-lg", language: MARKER }), headers: auth }],
      ["file as text", transcriptions, { body: form({ model: "lugha-stt-lg", file: MARKER }), headers: auth }],
      ["not audio", transcriptions, { body: form({ model: "lugha-stt-lg", file: new Blob([`${MARKER} `.repeat(200)]) }), headers: auth }],
      ["bad format", transcriptions, { body: form({ model: "lugha-stt-lg", file: audio, response_format: MARKER }), headers: auth }],
      ["bad model", transcriptions, { body: form({ model: MARKER, file: audio }), headers: auth }],
      ["bad language", transcriptions, { body: form({ model: "lugha-stt", language: MARKER, file: audio }), headers: auth }],
      ["bad temperature", transcriptions, { body: form({ model: "lugha-stt-lg", file: audio, temperature: MARKER }), headers: auth }],
      ["streaming", transcriptions, { body: form({ model: "lugha-stt-lg", file: audio, stream: "true" }), headers: auth }],
      [
        "broken multipart",
        transcriptions,
        {
          body: `--x\r\nContent-Disposition: form-data; name="${MARKER}"\r\n\r\n${MARKER}`,
          headers: { ...auth, "content-type": "multipart/form-data; boundary=x" },
        },
      ],
      ["JSON instead of a form", transcriptions, { body: JSON.stringify({ model: "lugha-stt-lg", file: MARKER }), headers: json }],
    ];
    for (const [what, route, init] of attempts) {
      const key = await mintKey(app.url, "bad input");
      const headers = Object.fromEntries(Object.entries(init.headers as Record<string, string>).map(([k, v]) => [k, v.replace("KEY", key)]));
      const res = await fetch(`${app.url}${route}`, { method: "POST", ...init, headers });
      const text = await res.text();
      expect(res.status, `${what}: ${text}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${what}: ${text}`).toBeLessThan(500);
      const body = JSON.parse(text);
      expect(Object.keys(body), what).toEqual(["error"]);
      expect(Object.keys(body.error).sort(), what).toEqual(["code", "message", "param", "type"]);
      expect(body.error.message.length, what).toBeGreaterThan(0);
      const answer = `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${text}`.toLowerCase();
      expect(answer.includes("echocanary"), `${what}: ${answer}`).toBe(false);
      expect(res.headers.get("x-request-id"), what).toBeTruthy();
    }
  });
});

describe("paths without a route", () => {
  it("are 404 in the shape of the protocol mounted there", async () => {
    const key = await mintKey(app.url, "not found");
    const err = await client(key)
      .get("/audio/translations")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).requestID).toMatch(/^req_/);
    const shapes: [string, string[]][] = [
      ["/compat/openai/v2/models", ["error"]],
      ["/compat/deepl/v3/translate", ["message"]],
      ["/compat/libretranslate/nothing", ["error"]],
      ["/compat/nothing/here", ["detail"]],
    ];
    for (const [path, keys] of shapes) {
      const res = await fetch(`${app.url}${path}`, { method: "POST" });
      expect(res.status, path).toBe(404);
      expect(Object.keys(await res.json()), path).toEqual(keys);
    }
  });
});
