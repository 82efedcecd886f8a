import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type EmulatorServer, makeWav } from "@/lib/providers/sandbox";
import { call, expectEnvelope, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";
import { type AudioFixtures, audioFixtures, removeAudioFixtures, sttUpload } from "../support/audio";
import { EMULATOR_CREDENTIALS, startCheckingEmulators } from "../support/emulators";

/**
 * Speech against the upstreams as they actually behave (live clients, loopback emulators): Whisper's 400 on more than
 * 30 s of raw audio and the windows that avoid it, timestamps, audio by URL and its refusals, Sunbird's slow
 * transcriptions, its charged-before-work quota (no retry of a timed-out call) and its bare per-minute 429, and
 * Rutooro, which Sunbird's STT enum does not have.
 */

let sunbird: EmulatorServer;
let khaya: EmulatorServer;
let hf: EmulatorServer;
let fx: AudioFixtures;
/** Short timeouts, retries on: how Sunbird's charged calls are (not) retried. */
let app: RunningApp;
let key: string;
/** A media server on loopback, for audio_url. */
let media: http.Server;
let mediaUrl: string;
const served = { requests: 0 };

const wav40 = makeWav({ durationSeconds: 40, seed: 7 });

/** The live clients' environment (the emulators', with their credentials). */
let providerEnv: Record<string, string>;

beforeAll(async () => {
  let live: Awaited<ReturnType<typeof startCheckingEmulators>>;
  [live, fx] = await Promise.all([
    startCheckingEmulators({}, { CIRCUIT_FAILURE_THRESHOLD: "1000", RATE_LIMIT_STT: "1000/60s", RATE_LIMIT_TRANSLATE: "1000/60s" }),
    audioFixtures(),
  ]);
  [sunbird, khaya, hf] = live.emulators;
  providerEnv = live.env;
  media = http.createServer((req, res) => {
    served.requests += 1;
    const path = req.url ?? "/";
    if (path === "/speech.wav") {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(wav40.byteLength) });
      res.end(Buffer.from(wav40));
    } else if (path.startsWith("/redirect?to=")) {
      res.writeHead(302, { location: decodeURIComponent(path.slice("/redirect?to=".length)) });
      res.end();
    } else if (path === "/text.wav") {
      res.writeHead(200, { "content-type": "audio/wav" });
      res.end("this is not audio at all, whatever its type says");
    } else if (path === "/big.wav") {
      res.writeHead(200, { "content-type": "audio/wav" });
      res.end(Buffer.alloc(3 * 1024 * 1024));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  media.listen(0, "127.0.0.1");
  await once(media, "listening");
  mediaUrl = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
  app = await startApp({
    env: {
      ...providerEnv,
      PROVIDER_MAX_RETRIES: "2",
      PROVIDER_SPEECH_TIMEOUT_MS: "1500",
      AUDIO_URL_ALLOWED_HOSTS: new URL(mediaUrl).host,
      AUDIO_URL_MAX_BYTES: "2MB",
    },
  });
  key = await mintKey(app.url, "upstreams");
}, 120_000);
afterAll(async () => {
  await stopAllApps();
  await Promise.all([sunbird, khaya, hf].map((s) => s?.close()));
  await new Promise((resolve) => media?.close(resolve));
  removeAudioFixtures();
});
beforeEach(() => {
  for (const s of [sunbird, khaya, hf]) s.reset();
  served.requests = 0;
});

const upload = (base: string, apiKey: string, bytes: Uint8Array, fields: Record<string, string>) =>
  sttUpload(base, apiKey, bytes, "speech.wav", fields);
const byUrl = (json: Record<string, unknown>) => call(app.url, "POST", "/api/v1/speech/stt", { key, json });

describe("long audio on Hugging Face Whisper", () => {
  it("the emulator refuses more than 30 s of raw audio as Whisper does", async () => {
    const res = await fetch(`${hf.url}/hf-inference/models/openai/whisper-large-v3-turbo`, {
      method: "POST",
      headers: { authorization: `Bearer ${EMULATOR_CREDENTIALS.hf}`, "content-type": "audio/wav" },
      body: wav40,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/more than 3000 mel input features .*return_timestamps=True/);
  });

  it("a 40 s WAV forced to provider_c is cut into windows of at most 30 s at a quiet moment, and answers with text and segments", async () => {
    const res = await upload(app.url, key, wav40, { language: "sw", provider: "provider_c" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_c", audio_duration_seconds: 40 });
    const segments = res.body.segments as { start: number; end: number; text: string }[];
    expect(segments.length).toBe(2);
    expect(segments[0].start).toBe(0);
    expect(segments[0].end).toBeGreaterThanOrEqual(20);
    expect(segments[0].end).toBeLessThanOrEqual(30);
    expect(segments[1].start).toBe(segments[0].end);
    expect(segments[1].end).toBe(40);
    for (const s of segments) expect(s.text).toContain("[sandbox:hf");
    expect(res.body.transcript).toBe(segments.map((s) => s.text).join(" "));
    // Two raw WAV requests, each a whole WAV file of at most 30 s.
    const calls = hf.stats.recent.filter((r) => r.path.startsWith("/hf-inference/models/openai/"));
    expect(calls).toHaveLength(2);
    for (const r of calls) {
      expect(r.headers["content-type"]).toBe("audio/wav");
      expect(r.bodyBytes).toBeLessThanOrEqual(44 + 30 * 16_000 * 2 + 8);
    }
  });

  it("a short compressed recording is sent to provider_c whole: one segment", async () => {
    const res = await upload(app.url, key, fx.files.mp3.bytes, { language: "sw", provider: "provider_c" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.segments).toHaveLength(1);
    expect(hf.stats.recent[0].headers["content-type"]).toBe("audio/mpeg");
  });

  it("Sunbird gives no timing: segments is null; Khaya gives its segments", async () => {
    const a = await upload(app.url, key, makeWav({ durationSeconds: 3 }), { language: "lug" });
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({ provider: "provider_a", segments: null });
    const b = await upload(app.url, key, makeWav({ durationSeconds: 3 }), { language: "tw" });
    expect(b.status, b.text).toBe(200);
    expect(b.body.provider).toBe("provider_b");
    expect(b.body.segments).toEqual([{ start: 0, end: 3, text: b.body.transcript }]);
    expect(khaya.stats.recent[0].path).toContain("timestamps=segment");
  });
});

describe("audio by URL", () => {
  it("a recording on an allowed loopback host is fetched and transcribed like an upload", async () => {
    const res = await byUrl({ audio_url: `${mediaUrl}/speech.wav`, language: "sw", provider: "provider_c" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_c", audio_duration_seconds: 40, audio_content_type: "audio/wav" });
    expect(served.requests).toBe(1);
  });

  const refusedUrls = [
    "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    "http://10.0.0.1/speech.wav",
    "file:///etc/passwd",
    "http://[::1]/speech.wav",
    "https://[::1]/speech.wav",
    "https://localhost/speech.wav",
    "https://[::ffff:7f00:1]/speech.wav",
    "ftp://example.org/speech.wav",
  ];
  for (const url of refusedUrls) {
    it(`refuses ${url.split("/")[0]}//${url.split("/")[2]} with 422 on audio_url, without quoting it`, async () => {
      const res = await byUrl({ audio_url: url, language: "sw" });
      const detail = expectEnvelope(res, 422, "VALIDATION_ERROR");
      expect(detail.errors?.[0].loc).toEqual(["body", "audio_url"]);
      const host = url.split("/")[2].replace(/[[\]]/g, "");
      if (host) expect(res.text).not.toContain(host);
      expect(hf.stats.requests + sunbird.stats.requests + khaya.stats.requests).toBe(0);
    });
  }

  it("a redirect from an allowed host to a refused address is refused before it is followed", async () => {
    const res = await byUrl({ audio_url: `${mediaUrl}/redirect?to=${encodeURIComponent("http://169.254.169.254/latest/")}`, language: "sw" });
    const detail = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(detail.errors?.[0]).toMatchObject({ loc: ["body", "audio_url"], type: "audio_url_refused" });
    expect(served.requests).toBe(1);
  });

  it("a redirect to an allowed URL is followed", async () => {
    const res = await byUrl({ audio_url: `${mediaUrl}/redirect?to=${encodeURIComponent(`${mediaUrl}/speech.wav`)}`, language: "sw" });
    expect(res.status, res.text).toBe(200);
    expect(served.requests).toBe(2);
  });

  it("a recording over AUDIO_URL_MAX_BYTES is 413 on audio_url; a missing one 422; not audio 415", async () => {
    const big = await byUrl({ audio_url: `${mediaUrl}/big.wav`, language: "sw" });
    expect(expectEnvelope(big, 413, "PAYLOAD_TOO_LARGE").errors?.[0].loc).toEqual(["body", "audio_url"]);
    const missing = await byUrl({ audio_url: `${mediaUrl}/nothing.wav`, language: "sw" });
    expect(expectEnvelope(missing, 422, "VALIDATION_ERROR").errors?.[0]).toMatchObject({ loc: ["body", "audio_url"], type: "audio_url_unreachable" });
    const text = await byUrl({ audio_url: `${mediaUrl}/text.wav`, language: "sw" });
    expect(expectEnvelope(text, 415, "UNSUPPORTED_MEDIA_TYPE").errors?.[0]).toMatchObject({ loc: ["body", "audio_url"], type: "audio_not_audio" });
  });

  it("the JSON form is validated like the upload: audio_url and language are required", async () => {
    const res = await byUrl({ language: "sw" });
    const detail = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(detail.errors?.map((e) => e.loc)).toContainEqual(["body", "audio_url"]);
  });
});

describe("Sunbird's quota: charged before the work", () => {
  it("a Sunbird transcription that timed out is not sent again (it was charged)", async () => {
    sunbird.setControls({ failMode: "hang", pathPrefix: "/tasks/audio" });
    const res = await upload(app.url, key, makeWav({ durationSeconds: 2 }), { language: "lug", provider: "provider_a" });
    expectEnvelope(res, 503, "PROVIDER_ERROR");
    expect(sunbird.stats.byPath["/tasks/audio/transcriptions"]).toBe(1);
  });

  it("a Sunbird 5xx is not sent again either; Hugging Face's is", async () => {
    sunbird.setControls({ failMode: "status", status: 502 });
    const res = await upload(app.url, key, makeWav({ durationSeconds: 2 }), { language: "lug", provider: "provider_a" });
    expectEnvelope(res, 503, "PROVIDER_ERROR");
    expect(sunbird.stats.byPath["/tasks/audio/transcriptions"]).toBe(1);
    hf.setControls({ failMode: "status", status: 502, failNext: 1 });
    const c = await upload(app.url, key, makeWav({ durationSeconds: 2 }), { language: "sw", provider: "provider_c" });
    expect(c.status, c.text).toBe(200);
    expect(hf.stats.requests).toBe(2);
  });

  it("Rutooro, which Sunbird's STT enum lacks: the first refusal takes it out of routing and the listing", async () => {
    const listed = await call(app.url, "GET", "/api/v1/languages?capability=stt", { key });
    expect(listed.body.languages.map((l: { code: string }) => l.code)).toContain("ttj");
    const first = await upload(app.url, key, makeWav({ durationSeconds: 2 }), { language: "ttj" });
    expectEnvelope(first, 503, "PROVIDER_ERROR");
    expect(sunbird.stats.byPath["/tasks/audio/transcriptions"]).toBe(1);
    const second = await upload(app.url, key, makeWav({ durationSeconds: 2 }), { language: "ttj" });
    expect(expectEnvelope(second, 422, "UNSUPPORTED_LANGUAGE").errors?.[0].loc).toEqual(["body", "language"]);
    expect(sunbird.stats.byPath["/tasks/audio/transcriptions"]).toBe(1);
    const after = await call(app.url, "GET", "/api/v1/languages?capability=stt", { key });
    expect(after.body.languages.map((l: { code: string }) => l.code)).not.toContain("ttj");
    // Luganda is untouched.
    expect(after.body.languages.map((l: { code: string }) => l.code)).toContain("lug");
  });

  // Last in this app: the hold lasts Sunbird's minute window.
  it("six requests inside a minute that Sunbird refuses with a bare 429 call it at most twice", async () => {
    sunbird.setControls({ failMode: "rate_limited" });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await upload(app.url, key, makeWav({ durationSeconds: 2 }), { language: "lug", provider: "provider_a" });
      statuses.push(res.status);
    }
    expect(statuses.every((s) => s === 503)).toBe(true);
    expect(sunbird.stats.requests).toBeLessThanOrEqual(2);
    // The hold is the provider's, not the endpoint's: translation waits for the window too.
    const t = await call(app.url, "POST", "/api/v1/translate", {
      key,
      json: { text: "Hello", source_lang: "en", target_lang: "lug", provider: "provider_a" },
    });
    expectEnvelope(t, 503, "PROVIDER_ERROR");
    expect(Number(t.headers.get("retry-after"))).toBeGreaterThan(30);
    expect(sunbird.stats.requests).toBeLessThanOrEqual(2);
  });
});

describe("Sunbird's slow transcriptions", () => {
  it("a Sunbird transcription that takes 65 s answers 200 when the deadlines allow it (hang detection waits for Sunbird's own 120 s)", async () => {
    const slow = await startApp({ env: { ...providerEnv, SPEECH_DEADLINE_MS: "90000", PROVIDER_SPEECH_TIMEOUT_MS: "90000" } });
    const slowKey = await mintKey(slow.url, "slow sunbird");
    sunbird.setControls({ latencyMs: 65_000 });
    const started = Date.now();
    const res = await upload(slow.url, slowKey, makeWav({ durationSeconds: 2 }), { language: "lug", provider: "provider_a" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.provider).toBe("provider_a");
    expect(Date.now() - started).toBeGreaterThanOrEqual(65_000);
    expect(sunbird.stats.requests).toBe(1);
  }, 120_000);
});
