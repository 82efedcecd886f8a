import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EmulatorServer } from "@/lib/providers/sandbox";
import { expectEnvelope, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";
import { type AudioFile, longRecording, removeAudioFixtures, sttUpload } from "../support/audio";
import { startCheckingEmulators } from "../support/emulators";

/**
 * Voice notes and long recordings, decoded in-process and sent in windows (live clients, loopback emulators): a
 * 10-minute OGG/Opus voice note through each provider forced and through auto, 3-minute MP3 and FLAC through Whisper,
 * and M4A, which is not decoded, held to what a provider takes whole. Recordings are eSpeak NG speech encoded by ffmpeg.
 */

let sunbird: EmulatorServer;
let khaya: EmulatorServer;
let hf: EmulatorServer;
let app: RunningApp;
let key: string;
let note: AudioFile;

beforeAll(async () => {
  let live: Awaited<ReturnType<typeof startCheckingEmulators>>;
  [live, note] = await Promise.all([
    startCheckingEmulators({}, { CIRCUIT_FAILURE_THRESHOLD: "1000", RATE_LIMIT_STT: "1000/60s" }),
    longRecording(598, "ogg"),
  ]);
  [sunbird, khaya, hf] = live.emulators;
  app = await startApp({ env: live.env });
  key = await mintKey(app.url, "long");
}, 300_000);
afterAll(async () => {
  await stopAllApps();
  await Promise.all([sunbird, khaya, hf].map((s) => s?.close()));
  removeAudioFixtures();
});
beforeEach(() => {
  for (const s of [sunbird, khaya, hf]) s.reset();
});

const upload = (file: AudioFile, fields: Record<string, string>) => sttUpload(app.url, key, file.bytes, file.name, fields);

interface Segment {
  start: number;
  end: number;
  text: string;
}

/** Segments that follow each other from 0 to the recording's end, none longer than `window`. */
function expectCovering(segments: Segment[], seconds: number, window: number) {
  expect(segments[0].start).toBe(0);
  expect(segments.at(-1)!.end).toBeCloseTo(seconds, 0);
  for (const [i, s] of segments.entries()) {
    expect(s.end - s.start).toBeLessThanOrEqual(window);
    expect(s.text).not.toBe("");
    if (i > 0) expect(s.start).toBeGreaterThanOrEqual(segments[i - 1].end - 0.001);
  }
}

describe("a 10-minute OGG/Opus voice note (598 s: under the 600 s limit with the codec's padding)", () => {
  it("through provider_a (forced): windows of at most 120 s, one request each, segments with their offsets", async () => {
    const res = await upload(note, { language: "lug", provider: "provider_a" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_a", audio_content_type: "audio/ogg" });
    expect(res.body.audio_duration_seconds).toBeCloseTo(598, 0);
    const segments = res.body.segments as Segment[];
    expectCovering(segments, 598, 120);
    expect(segments.length).toBeGreaterThanOrEqual(5);
    expect(sunbird.stats.requests).toBe(segments.length);
    // Each window was transcribed from its own audio: the emulator names the seconds it heard.
    for (const s of segments) expect(Number(/transcript of ([\d.]+) s/.exec(s.text)?.[1])).toBeCloseTo(s.end - s.start, 1);
  }, 300_000);

  it("through provider_b (forced): WAV windows of at most 120 s, Khaya's own segments shifted to the recording's time", async () => {
    const res = await upload(note, { language: "tw", provider: "provider_b" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.provider).toBe("provider_b");
    const segments = res.body.segments as Segment[];
    expectCovering(segments, 598, 120);
    expect(khaya.stats.requests).toBe(segments.length);
    for (const r of khaya.stats.recent) expect(r.headers["content-type"]).toBe("audio/wav");
  }, 300_000);

  it("through provider_c (forced): Whisper's 30 s windows, all of them", async () => {
    const res = await upload(note, { language: "sw", provider: "provider_c" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.provider).toBe("provider_c");
    const segments = res.body.segments as Segment[];
    expectCovering(segments, 598, 30);
    expect(segments.length).toBeGreaterThanOrEqual(20);
    expect(hf.stats.requests).toBe(segments.length);
  }, 300_000);

  it("through auto: Luganda goes to provider_a, no fallback", async () => {
    const res = await upload(note, { language: "lug" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ provider: "provider_a", fallback_used: false });
  }, 300_000);
});

describe("3-minute recordings through Whisper", () => {
  for (const format of ["mp3", "flac"] as const) {
    it(`a ${format.toUpperCase()} is decoded and sent in WAV windows of at most 30 s`, async () => {
      const file = await longRecording(180, format);
      const res = await upload(file, { language: "sw", provider: "provider_c" });
      expect(res.status, res.text).toBe(200);
      const segments = res.body.segments as Segment[];
      expectCovering(segments, 180, 30);
      expect(hf.stats.requests).toBe(segments.length);
      for (const r of hf.stats.recent) expect(r.headers["content-type"]).toBe("audio/wav");
    }, 300_000);
  }

  it("an M4A longer than 30 s (AAC is not decoded here) is not sent to provider_c: 422 naming the audio", async () => {
    const m4a = await longRecording(40, "m4a");
    const res = await upload(m4a, { language: "sw", provider: "provider_c" });
    const detail = expectEnvelope(res, 422, "VALIDATION_ERROR");
    expect(detail.errors?.[0]).toMatchObject({ loc: ["body", "audio"], type: "audio_too_long" });
    expect(detail.message).toContain("provider_c takes at most 30 s of M4A");
    expect(hf.stats.requests).toBe(0);
  }, 120_000);
});
