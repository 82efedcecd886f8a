import http from "node:http";
import { parseBuffer } from "music-metadata";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, expectEnvelope, type JsonResponse, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";
import {
  type AudioFile,
  type AudioFixtures,
  audioFixtures,
  FIXTURE_FORMATS,
  liveRecorderWebm,
  multipartStream,
  oversizeWavStream,
  removeAudioFixtures,
} from "../support/audio";

/**
 * POST /api/v1/speech/stt and /speech/tts over HTTP against the built app, on the in-process sandbox providers.
 * Audio fixtures are generated at test time (eSpeak NG and ffmpeg from npm packages; e2e/support/audio.ts).
 */

let app: RunningApp;
let key: string;
let fx: AudioFixtures;

beforeAll(async () => {
  [app, fx] = await Promise.all([startApp({ env: { RATE_LIMIT_STT: "1000/60s", RATE_LIMIT_TTS: "1000/60s" } }), audioFixtures()]);
  key = await mintKey(app.url, "speech tests");
});
afterAll(async () => {
  await stopAllApps();
  removeAudioFixtures();
});

function form(fields: Record<string, string>, file?: { field?: string; file: AudioFile; type?: string; name?: string }): FormData {
  const f = new FormData();
  if (file)
    f.set(
      file.field ?? "audio",
      new Blob([file.file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? "application/octet-stream" }),
      file.name ?? file.file.name,
    );
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

const stt = (body: BodyInit, k: string | null = key, headers: Record<string, string> = {}) =>
  call(app.url, "POST", "/api/v1/speech/stt", { key: k ?? undefined, body, headers });
const tts = (json: unknown, headers: Record<string, string> = {}) => call(app.url, "POST", "/api/v1/speech/tts", { key, json, headers });

describe("POST /api/v1/speech/stt (sandbox providers)", () => {
  it.each(FIXTURE_FORMATS)("transcribes %s sent as application/octet-stream, with the duration measured from the file", async (format) => {
    const res = await stt(form({ language: "en" }, { file: fx.files[format] }));
    expect(res.status, res.text).toBe(200);
    const b = res.body;
    expect(Object.keys(b).sort()).toEqual(
      [
        "audio_content_type",
        "audio_duration_seconds",
        "fallback_used",
        "language",
        "latency_ms",
        "model_used",
        "provider",
        "providers_tried",
        "requested_provider",
        "sandbox",
        "segments",
        "transcript",
        "upstream_calls",
      ].sort(),
    );
    expect(b).toMatchObject({ language: "en", audio_content_type: fx.files[format].contentType, sandbox: true, fallback_used: false });
    // provider_a gives no timing for a recording sent whole. It does not read FLAC itself: FLAC is decoded and sent as WAV.
    expect(b.segments).toBeNull();
    expect(b.provider).toBe("provider_a");
    expect(b.model_used).toBe("provider_a/sunbird-stt");
    expect(b.transcript).toMatch(/^\[sandbox:/);
    expect(Math.abs(b.audio_duration_seconds - fx.durationSeconds)).toBeLessThan(0.15);
    expect(Number.isInteger(b.latency_ms)).toBe(true);
    expect(res.headers.get("x-lugha-sandbox")).toBe("true");
    expect(res.headers.get("x-ratelimit-limit")).toBe("1000");
  });

  it("routes Luganda to provider_a, Twi to provider_b, Lingala to provider_c (Whisper); names and codes in any case", async () => {
    expect((await stt(form({ language: "LUG" }, { file: fx.files.wav }))).body).toMatchObject({ provider: "provider_a", language: "lug" });
    expect((await stt(form({ language: "twi" }, { file: fx.files.mp3 }))).body).toMatchObject({ provider: "provider_b", language: "tw" });
    expect((await stt(form({ language: "ln" }, { file: fx.files.webm }))).body).toMatchObject({
      provider: "provider_c",
      model_used: "provider_c/openai/whisper-large-v3-turbo",
    });
    expect((await stt(form({ language: "xog" }, { file: fx.files.ogg }))).body).toMatchObject({ provider: "provider_a", language: "xog" });
  });

  it("accepts recordings as live recorders write them (no lengths in the headers)", async () => {
    for (const file of Object.values(fx.streamed)) {
      const res = await stt(form({ language: "sw" }, { file }));
      expect(res.status, `${file.name}: ${res.text}`).toBe(200);
      expect(Math.abs(res.body.audio_duration_seconds - fx.durationSeconds)).toBeLessThan(0.15);
    }
  });

  it("accepts a browser's MediaRecorder WebM (clusters of unknown size) on each provider: Sunbird, Khaya and Whisper", async () => {
    const file = { ...fx.streamed.webm, name: "recording.webm", bytes: liveRecorderWebm(fx.streamed.webm.bytes).bytes };
    for (const [language, provider] of [
      ["lug", "provider_a"],
      ["tw", "provider_b"],
      ["ln", "provider_c"],
    ]) {
      const res = await stt(form({ language, provider }, { file, type: "audio/webm;codecs=opus" }));
      expect(res.status, `${provider}: ${res.text}`).toBe(200);
      expect(res.body).toMatchObject({ provider, audio_content_type: "audio/webm" });
      expect(Math.abs(res.body.audio_duration_seconds - fx.durationSeconds)).toBeLessThan(0.15);
    }
  });

  it("honours a forced provider", async () => {
    const res = await stt(form({ language: "en", provider: "provider_c" }, { file: fx.files.wav }));
    expect(res.body).toMatchObject({ provider: "provider_c", requested_provider: "provider_c", providers_tried: ["provider_c"] });
  });

  describe("415 UNSUPPORTED_MEDIA_TYPE for what is not complete audio", () => {
    it("a text file renamed .wav and declared audio/wav", async () => {
      const d = expectEnvelope(
        await stt(form({ language: "lug" }, { file: fx.textAsWav, type: "audio/wav", name: "speech.wav" })),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
      );
      expect(d.errors?.[0]).toMatchObject({ loc: ["body", "audio"], type: "audio_not_audio" });
    });

    it("an empty file", async () => {
      const d = expectEnvelope(await stt(form({ language: "lug" }, { file: fx.empty, type: "audio/wav" })), 415, "UNSUPPORTED_MEDIA_TYPE");
      expect(d.message).toBe("The audio file is empty.");
    });

    it.each(FIXTURE_FORMATS)("%s with a truncated header", async (format) => {
      expectEnvelope(await stt(form({ language: "en" }, { file: fx.truncatedHeader[format] })), 415, "UNSUPPORTED_MEDIA_TYPE");
    });

    it.each(FIXTURE_FORMATS)("%s cut in half", async (format) => {
      const d = expectEnvelope(await stt(form({ language: "en" }, { file: fx.truncatedBody[format] })), 415, "UNSUPPORTED_MEDIA_TYPE");
      expect(d.message).toMatch(/truncated/);
    });

    it("a video file", async () => {
      expectEnvelope(await stt(form({ language: "en" }, { file: fx.video[0], type: "video/mp4" })), 415, "UNSUPPORTED_MEDIA_TYPE");
    });

    it("a format no provider of the language takes (M4A in Twi: Khaya does not read it, and AAC is not decoded here), naming the formats that would work", async () => {
      const d = expectEnvelope(await stt(form({ language: "tw" }, { file: fx.files.m4a })), 415, "UNSUPPORTED_MEDIA_TYPE");
      expect(d.message).toContain("WAV, MP3, FLAC, OGG, WebM");
    });

    it("a body that is neither multipart nor the JSON form (raw audio; JSON with the audio inline)", async () => {
      const raw = await stt(fx.files.wav.bytes as Uint8Array<ArrayBuffer>, key, { "content-type": "audio/wav" });
      const message = expectEnvelope(raw, 415, "UNSUPPORTED_MEDIA_TYPE").message;
      expect(message).toContain("multipart/form-data");
      expect(message).toContain("audio_url");
      // JSON is the audio_url form: audio bytes inline are not part of it.
      const json = await call(app.url, "POST", "/api/v1/speech/stt", { key, json: { language: "lug", audio: "UklGRg==" } });
      expect(expectEnvelope(json, 422, "VALIDATION_ERROR").errors?.map((e) => e.loc)).toContainEqual(["body", "audio_url"]);
    });
  });

  describe("422 for the form's fields", () => {
    it("the audio field missing", async () => {
      const d = expectEnvelope(await stt(form({ language: "lug" })), 422, "VALIDATION_ERROR");
      expect(d.errors).toEqual([{ loc: ["body", "audio"], msg: "Field required", type: "missing" }]);
    });

    it("the audio field misnamed, with a hint that names the right field and never quotes the wrong one", async () => {
      const d = expectEnvelope(await stt(form({ language: "lug" }, { field: "<i>upload</i>", file: fx.files.wav })), 422, "VALIDATION_ERROR");
      expect(d.errors?.[0]).toMatchObject({ loc: ["body", "audio"], type: "missing" });
      expect(d.errors?.[0].msg).toContain('named "audio"');
      expect(JSON.stringify(d)).not.toContain("upload");
    });

    it("language missing, unknown, without STT; a forced provider without the language; a bad provider", async () => {
      expect(expectEnvelope(await stt(form({}, { file: fx.files.wav })), 422, "VALIDATION_ERROR").errors?.[0].loc).toEqual(["body", "language"]);
      expectEnvelope(await stt(form({ language: "xx" }, { file: fx.files.wav })), 422, "UNSUPPORTED_LANGUAGE");
      expect(expectEnvelope(await stt(form({ language: "zu" }, { file: fx.files.wav })), 422, "UNSUPPORTED_LANGUAGE").message).toContain("Zulu");
      expect(
        expectEnvelope(await stt(form({ language: "lug", provider: "provider_b" }, { file: fx.files.wav })), 422, "UNSUPPORTED_LANGUAGE").errors?.[0]
          .loc,
      ).toEqual(["body", "provider"]);
      expect(
        expectEnvelope(await stt(form({ language: "lug", provider: "sunbird" }, { file: fx.files.wav })), 422, "VALIDATION_ERROR").errors?.[0].loc,
      ).toEqual(["body", "provider"]);
    });

    it("a broken multipart body (wrong boundary; cut short)", async () => {
      const wrong = await stt('--abc\r\nContent-Disposition: form-data; name="language"\r\n\r\nlug\r\n--abc--\r\n', key, {
        "content-type": "multipart/form-data; boundary=zzz",
      });
      expect(expectEnvelope(wrong, 422, "VALIDATION_ERROR").errors?.[0].type).toBe("multipart_invalid");
      const cut = await stt('--abc\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF', key, {
        "content-type": "multipart/form-data; boundary=abc",
      });
      expectEnvelope(cut, 422, "VALIDATION_ERROR");
    });
  });

  describe("413 PAYLOAD_TOO_LARGE, enforced while reading", () => {
    it("a declared Content-Length over the limit is refused before the body is read", async () => {
      const res = await rawUpload({ declaredLength: 50 * 1024 * 1024, totalBytes: 50 * 1024 * 1024 });
      expect(res.status).toBe(413);
      expect(res.body.detail).toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: "The audio upload exceeds the limit of 10 MB." });
      expect(res.sentWhenAnswered).toBeLessThan(12 * 1024 * 1024);
    });

    it("a 50 MB chunked upload gets 413 as soon as it passes 10 MB, not after the server buffered it", async () => {
      const started = Date.now();
      const res = await rawUpload({ totalBytes: 50 * 1024 * 1024 });
      expect(res.status).toBe(413);
      expect(res.body.detail.code).toBe("PAYLOAD_TOO_LARGE");
      expect(res.body.detail.request_id).toBe(res.headers["x-request-id"]);
      // The answer arrived while the client was still sending: the server stopped at the cap.
      expect(res.sentWhenAnswered).toBeLessThan(25 * 1024 * 1024);
      expect(Date.now() - started).toBeLessThan(10_000);
      const health = await fetch(`${app.url}/health`);
      expect(health.status).toBe(200);
    });

    it("a file just over the limit inside a body that fits the framing allowance", async () => {
      const big: AudioFile = { name: "big.wav", contentType: "audio/wav", bytes: new Uint8Array(10 * 1024 * 1024 + 100) };
      big.bytes.set(fx.files.wav.bytes.subarray(0, 44));
      expectEnvelope(await stt(form({ language: "lug" }, { file: big })), 413, "PAYLOAD_TOO_LARGE");
    });
  });

  it("401 without a key (before the body is read), 405 for GET, requests counted whatever the outcome", async () => {
    expectEnvelope(await stt(form({ language: "lug" }, { file: fx.files.wav }), null), 401, "MISSING_API_KEY");
    expectEnvelope(await call(app.url, "GET", "/api/v1/speech/stt", { key }), 405, "METHOD_NOT_ALLOWED");
    const k = await mintKey(app.url, "count");
    await stt(form({ language: "lug" }, { file: fx.empty }), k);
    await stt(form({ language: "lug" }, { file: fx.files.wav }), k);
    const me = await call(app.url, "GET", "/api/v1/auth/keys/me", { key: k });
    expect(me.body.requests_total).toBe(3);
  });

  /** Streams a multipart upload with node:http and records how much had been written when the response arrived. */
  function rawUpload(opts: { totalBytes: number; declaredLength?: number }) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: JsonResponse["body"]; sentWhenAnswered: number }>(
      (resolve, reject) => {
        let sent = 0;
        const { body, contentType } = multipartStream(
          { language: "lug" },
          { field: "audio", name: "big.wav", type: "audio/wav", stream: oversizeWavStream(opts.totalBytes) },
        );
        const headers: Record<string, string> = { authorization: `Bearer ${key}`, "content-type": contentType };
        if (opts.declaredLength) headers["content-length"] = String(opts.declaredLength);
        const req = http.request(`${app.url}/api/v1/speech/stt`, { method: "POST", headers });
        let answered = false;
        req.on("response", (res) => {
          answered = true;
          const sentWhenAnswered = sent;
          const chunks: Buffer[] = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => {
            req.destroy();
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
              sentWhenAnswered,
            });
          });
        });
        req.on("error", (err) => {
          if (!answered) reject(err);
        });
        const reader = body.getReader();
        const pump = async () => {
          for (;;) {
            if (answered || req.destroyed) return reader.cancel().catch(() => {});
            const { done, value } = await reader.read();
            if (done) return req.end();
            sent += value.byteLength;
            if (!req.write(value)) await new Promise((r) => req.once("drain", r).once("close", r));
            // Let I/O callbacks run between chunks, so the response is noticed as soon as it arrives.
            await new Promise((r) => setImmediate(r));
          }
        };
        pump().catch(() => {});
      },
    );
  }
});

describe("POST /api/v1/speech/tts (sandbox providers)", () => {
  async function decode(bytes: Uint8Array, contentType: string) {
    const meta = await parseBuffer(bytes, { mimeType: contentType });
    return meta.format;
  }

  it("answers JSON with base64 audio that decodes as the declared type, with a matching duration", async () => {
    const res = await tts({ text: "  Oli otya, nnyabo?  ", language: "lug" });
    expect(res.status, res.text).toBe(200);
    const b = res.body;
    expect(Object.keys(b).sort()).toEqual(
      [
        "audio_base64",
        "audio_duration_seconds",
        "content_type",
        "fallback_used",
        "language",
        "latency_ms",
        "model_used",
        "provider",
        "providers_tried",
        "requested_provider",
        "sandbox",
        "upstream_calls",
        "voice",
      ].sort(),
    );
    expect(b).toMatchObject({
      content_type: "audio/wav",
      language: "lug",
      voice: "248",
      model_used: "provider_a/spark-tts",
      provider: "provider_a",
      sandbox: true,
    });
    const audio = Buffer.from(b.audio_base64, "base64");
    expect(audio.subarray(0, 4).toString("latin1")).toBe("RIFF");
    const format = await decode(audio, b.content_type);
    expect(format.container).toBe("WAVE");
    expect(format.duration).toBeCloseTo(b.audio_duration_seconds, 2);
    expect(b.audio_duration_seconds).toBeGreaterThan(0.5);
    expect(res.text).not.toMatch(/https?:\/\//); // never a link
    expect(res.headers.get("x-lugha-sandbox")).toBe("true");
    expect(res.headers.get("vary")).toContain("Accept");
  });

  it("with Accept: audio/wav returns the bytes, typed, with the metadata in X-Lugha-* headers", async () => {
    const res = await fetch(`${app.url}/api/v1/speech/tts`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "audio/wav" },
      body: JSON.stringify({ text: "Maakye", language: "tw", voice: "male_high" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/wav");
    const bytes = new Uint8Array(await res.arrayBuffer());
    const length = res.headers.get("content-length"); // Next may send it chunked instead
    if (length !== null) expect(Number(length)).toBe(bytes.byteLength);
    const format = await decode(bytes, "audio/wav");
    expect(format.container).toBe("WAVE");
    expect(format.duration).toBeCloseTo(Number(res.headers.get("x-lugha-audio-duration-seconds")), 2);
    expect(
      Object.fromEntries(
        [...res.headers].filter(([k]) => k.startsWith("x-lugha-") && k !== "x-lugha-latency-ms" && k !== "x-lugha-audio-duration-seconds"),
      ),
    ).toEqual({
      "x-lugha-language": "tw",
      "x-lugha-voice": "male_high",
      "x-lugha-model-used": "provider_b/khaya-tts-v1",
      "x-lugha-provider": "provider_b",
      "x-lugha-requested-provider": "auto",
      "x-lugha-fallback-used": "false",
      "x-lugha-providers-tried": "provider_b",
      "x-lugha-sandbox": "true",
      "x-lugha-upstream-calls": "1",
    });
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("x-ratelimit-limit")).toBe("1000");
  });

  it("Accept: audio/* works too; Accept: application/json (or */*) stays JSON", async () => {
    const star = await fetch(`${app.url}/api/v1/speech/tts`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "audio/*" },
      body: JSON.stringify({ text: "Habari", language: "sw" }),
    });
    expect(star.headers.get("content-type")).toBe("audio/wav");
    const json = await tts({ text: "Habari", language: "sw" }, { accept: "*/*" });
    expect(json.headers.get("content-type")).toContain("application/json");
    expect(json.body.voice).toBe("246");
  });

  describe("formats: Ogg/Opus, MP3, WAV", () => {
    // An MP3 read by its bit rate counts the encoder's delay and the last frame's padding (up to ~0.1 s at 16 kHz).
    const DURATION_TOLERANCE = 0.15;
    const raw = (json: unknown, accept: string) =>
      fetch(`${app.url}/api/v1/speech/tts`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept },
        body: JSON.stringify(json),
      });

    it.each([
      ["audio/ogg", "audio/ogg; codecs=opus", "Ogg", "speech.ogg"],
      ["audio/mpeg", "audio/mpeg", "MPEG", "speech.mp3"],
      ["audio/wav", "audio/wav", "WAVE", "speech.wav"],
    ])("Accept: %s answers the raw audio in that format, of the duration the headers state", async (accept, contentType, container, filename) => {
      const res = await raw({ text: "Oli otya, nnyabo? Webale nnyo.", language: "lug" }, accept);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(contentType);
      expect(res.headers.get("content-disposition")).toContain(filename);
      const stated = Number(res.headers.get("x-lugha-audio-duration-seconds"));
      expect(stated).toBeGreaterThan(0.5);
      const format = await decode(new Uint8Array(await res.arrayBuffer()), contentType);
      expect(format.container).toBe(container);
      expect(Math.abs((format.duration ?? 0) - stated)).toBeLessThan(DURATION_TOLERANCE);
    });

    it("a JSON answer carries the body's format (WAV by default); with Accept: audio/* the body's format decides the raw one", async () => {
      for (const [format, contentType, container] of [
        ["opus", "audio/ogg; codecs=opus", "Ogg"],
        ["mp3", "audio/mpeg", "MPEG"],
        ["wav", "audio/wav", "WAVE"],
      ] as const) {
        const res = await tts({ text: "Maakye, wo ho te sɛn?", language: "tw", format });
        expect(res.status, res.text).toBe(200);
        expect(res.body.content_type).toBe(contentType);
        const meta = await decode(Buffer.from(res.body.audio_base64, "base64"), contentType);
        expect(meta.container).toBe(container);
        expect(Math.abs((meta.duration ?? 0) - res.body.audio_duration_seconds)).toBeLessThan(DURATION_TOLERANCE);
      }
      const star = await raw({ text: "Habari", language: "sw", format: "mp3" }, "audio/*");
      expect(star.headers.get("content-type")).toBe("audio/mpeg");
      // Accept naming a format wins over the body's.
      const named = await raw({ text: "Habari", language: "sw", format: "mp3" }, "audio/ogg");
      expect(named.headers.get("content-type")).toBe("audio/ogg; codecs=opus");
      const bad = await tts({ text: "Habari", language: "sw", format: "flac" });
      expect(bad.status).toBe(422);
      expect(bad.body.detail.code).toBe("VALIDATION_ERROR");
      expect(bad.text).not.toContain("flac");
    });

    // On Vercel PGlite is refused, so this runs on PostgreSQL only.
    if (inject("database") === "postgres") {
      it("on Vercel (4.5 MB answers), 2,000 characters answer in Opus as JSON within the limit; in WAV they are refused before any call", async () => {
        const vercel = await startApp({ env: { VERCEL: "1", RATE_LIMIT_TTS: "1000/60s" } });
        const vercelKey = await mintKey(vercel.url, "vercel tts");
        const text = "Oli otya, nnyabo? ".repeat(112).slice(0, 2_000);
        const opus = await call(vercel.url, "POST", "/api/v1/speech/tts", { key: vercelKey, json: { text, language: "lug", format: "opus" } });
        expect(opus.status, opus.text).toBe(200);
        expect(Buffer.byteLength(opus.text)).toBeLessThanOrEqual(4_500_000);
        expect(opus.body.content_type).toBe("audio/ogg; codecs=opus");
        // A long Ogg file's duration is read from its last page only when asked to.
        const { format } = await parseBuffer(Buffer.from(opus.body.audio_base64, "base64"), { mimeType: "audio/ogg" }, { duration: true });
        expect(Math.abs((format.duration ?? 0) - opus.body.audio_duration_seconds)).toBeLessThan(DURATION_TOLERANCE);
        expect(opus.body.audio_duration_seconds).toBeGreaterThan(60);
        const wav = await call(vercel.url, "POST", "/api/v1/speech/tts", { key: vercelKey, json: { text, language: "lug" } });
        expect(wav.status).toBe(422);
        expect(wav.body.detail.code).toBe("TEXT_TOO_LONG");
        expect(wav.body.detail.message).toContain("(5,000 in opus)");
      }, 240_000); // a second app starts on a shared machine
    }
  });

  it("serves each provider's voices (Orpheus tag, MMS model) and lists them on a wrong voice", async () => {
    expect((await tts({ text: "Hello", language: "en", voice: "salt_eng_0002" })).body).toMatchObject({
      provider: "provider_a",
      model_used: "provider_a/orpheus-3b-tts",
      voice: "salt_eng_0002",
    });
    expect((await tts({ text: "Habari", language: "sw", voice: "facebook/mms-tts-swh" })).body).toMatchObject({
      provider: "provider_c",
      voice: "facebook/mms-tts-swh",
    });
    expect((await tts({ text: "Apwoyo", language: "ach", voice: 241 })).body).toMatchObject({ voice: "241" });
    const d = expectEnvelope(await tts({ text: "Hello", language: "lug", voice: "nobody" }), 422, "UNSUPPORTED_VOICE");
    expect(d.message).toContain("248, salt_lug_0001");
    expect(d.errors?.[0].loc).toEqual(["body", "voice"]);
    expect(expectEnvelope(await tts({ text: "Hello", language: "ach", voice: "248" }), 422, "UNSUPPORTED_VOICE").message).toContain(
      "does not speak Acholi",
    );
  });

  it.each([
    ["missing text", { language: "lug" }, "VALIDATION_ERROR", ["body", "text"]],
    ["whitespace text", { text: " \n ", language: "lug" }, "VALIDATION_ERROR", ["body", "text"]],
    ["text over 5,000 characters", { text: "a".repeat(5_001), language: "lug" }, "TEXT_TOO_LONG", ["body", "text"]],
    ["missing language", { text: "Hello" }, "VALIDATION_ERROR", ["body", "language"]],
    ["unknown language", { text: "Hello", language: "xx" }, "UNSUPPORTED_LANGUAGE", ["body", "language"]],
    ["a language without TTS", { text: "Sawubona", language: "zu" }, "UNSUPPORTED_LANGUAGE", ["body", "language"]],
    [
      "a forced provider without the language",
      { text: "Hello", language: "lug", provider: "provider_b" },
      "UNSUPPORTED_LANGUAGE",
      ["body", "provider"],
    ],
    ["a bad provider", { text: "Hello", language: "lug", provider: "khaya" }, "VALIDATION_ERROR", ["body", "provider"]],
    ["an empty voice", { text: "Hello", language: "lug", voice: "" }, "VALIDATION_ERROR", ["body", "voice"]],
  ])("422 for %s", async (_name, json, code, loc) => {
    const d = expectEnvelope(await tts(json), 422, code as string);
    expect(d.errors?.[0].loc).toEqual(loc);
    expect(JSON.stringify(d)).not.toContain("aaaaaaaaaa");
  });

  it("415 for a body that is not JSON; 401 without a key; 405 for GET", async () => {
    expectEnvelope(
      await call(app.url, "POST", "/api/v1/speech/tts", { key, body: "text=hi", headers: { "content-type": "application/x-www-form-urlencoded" } }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    expectEnvelope(await call(app.url, "POST", "/api/v1/speech/tts", { json: { text: "Hi", language: "lug" } }), 401, "MISSING_API_KEY");
    expectEnvelope(await call(app.url, "GET", "/api/v1/speech/tts", { key }), 405, "METHOD_NOT_ALLOWED");
  });
});

describe("speech rate limits", () => {
  it("STT and TTS have their own buckets (20/min by default), with Retry-After on 429", async () => {
    const limited = await startApp({ env: { RATE_LIMIT_STT: "2/60s", RATE_LIMIT_TTS: "3/60s" } });
    const k = await mintKey(limited.url, "limits");
    const sttOnce = () => call(limited.url, "POST", "/api/v1/speech/stt", { key: k, body: form({ language: "lug" }, { file: fx.files.wav }) });
    const ttsOnce = () => call(limited.url, "POST", "/api/v1/speech/tts", { key: k, json: { text: "Hi", language: "lug" } });
    const s: JsonResponse[] = [];
    for (let i = 0; i < 3; i++) s.push(await sttOnce());
    expect(s.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(s[0].headers.get("x-ratelimit-limit")).toBe("2");
    expect(Number(expectEnvelope(s[2], 429, "RATE_LIMIT_EXCEEDED") && s[2].headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // The TTS bucket is separate: still open.
    const t = await ttsOnce();
    expect(t.status).toBe(200);
    expect(t.headers.get("x-ratelimit-limit")).toBe("3");
    await limited.stop();
  });
});
