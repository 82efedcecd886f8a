/** Audio recognition and measurement, on fixtures generated with eSpeak NG and ffmpeg (e2e/support/audio.ts). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AudioFixtures, audioFixtures, FIXTURE_FORMATS, liveRecorderWebm, removeAudioFixtures } from "@/e2e/support/audio";
import { makeWav } from "@/lib/providers/sandbox";
import { AudioRejected, analyzeAudio, asUnsupportedMedia } from "./audio";

let fx: AudioFixtures;
beforeAll(async () => {
  fx = await audioFixtures();
}, 60_000);
afterAll(removeAudioFixtures);

async function rejection(bytes: Uint8Array): Promise<AudioRejected> {
  try {
    const info = await analyzeAudio(bytes);
    throw new Error(`accepted: ${JSON.stringify(info)}`);
  } catch (err) {
    if (err instanceof AudioRejected) return err;
    throw err;
  }
}

describe("analyzeAudio: accepted formats", () => {
  it.each(FIXTURE_FORMATS)("recognises %s by its bytes and measures its duration", async (format) => {
    const file = fx.files[format];
    const info = await analyzeAudio(file.bytes);
    expect(info.format).toBe(format);
    expect(info.contentType).toBe(file.contentType);
    expect(info.durationSeconds).toBeGreaterThan(fx.durationSeconds - 0.1);
    expect(info.durationSeconds).toBeLessThan(fx.durationSeconds + 0.15);
  });

  it("reports Opus in OGG and WebM, AAC in M4A, PCM in WAV", async () => {
    expect((await analyzeAudio(fx.files.ogg.bytes)).codec).toMatch(/opus/i);
    expect((await analyzeAudio(fx.files.webm.bytes)).codec).toMatch(/opus/i);
    expect((await analyzeAudio(fx.files.m4a.bytes)).codec).toMatch(/aac/i);
    expect(await analyzeAudio(fx.files.wav.bytes)).toMatchObject({ codec: "PCM", sampleRate: 16_000, channels: 1 });
  });

  it.each(["wav", "webm", "flac", "mp3"] as const)(
    "accepts %s as a live recorder writes it (no length in the header), measured from the audio",
    async (format) => {
      const info = await analyzeAudio(fx.streamed[format].bytes);
      expect(info.format).toBe(format);
      expect(Math.abs(info.durationSeconds - fx.durationSeconds)).toBeLessThan(0.15);
    },
  );

  it("accepts WebM as a browser's MediaRecorder writes it: clusters of unknown size too, measured from its blocks", async () => {
    const live = liveRecorderWebm(fx.streamed.webm.bytes);
    expect(live.clusters).toBeGreaterThan(0);
    const info = await analyzeAudio(live.bytes);
    expect(info).toMatchObject({ format: "webm", contentType: "audio/webm", channels: 1 });
    expect(info.codec).toMatch(/opus/i);
    expect(Math.abs(info.durationSeconds - fx.durationSeconds)).toBeLessThan(0.15);
  });

  it("accepts OGG Vorbis, an ID3-tagged VBR MP3 and a 24-bit stereo FLAC", async () => {
    for (const file of fx.variants) {
      const info = await analyzeAudio(file.bytes);
      expect(info.contentType, file.name).toBe(file.contentType);
      expect(Math.abs(info.durationSeconds - fx.durationSeconds), file.name).toBeLessThan(0.15);
    }
  });

  it("accepts the sandbox emulators' WAV with the duration they mean", async () => {
    const info = await analyzeAudio(makeWav({ durationSeconds: 1.5, sampleRate: 24_000, seed: 7 }));
    expect(info).toMatchObject({ format: "wav", contentType: "audio/wav", sampleRate: 24_000 });
    expect(info.durationSeconds).toBeCloseTo(1.5, 3);
  });
});

describe("analyzeAudio: refused files", () => {
  it("refuses an empty file", async () => {
    expect((await rejection(fx.empty.bytes)).reason).toBe("empty");
  });

  it("refuses a text file named .wav, and random bytes", async () => {
    const err = await rejection(fx.textAsWav.bytes);
    expect(err.reason).toBe("not_audio");
    expect(err.message).toContain("WAV, MP3, OGG/Opus, WebM, FLAC or M4A");
    expect((await rejection(Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251))).reason).toBe("not_audio");
  });

  it("refuses other recognised files by name (an image), without quoting their content", async () => {
    const png = Uint8Array.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4,
      0x89,
    ]);
    const err = await rejection(png);
    expect(err.reason).toBe("unsupported_format");
    expect(err.message).toContain("image/png");
  });

  it.each(FIXTURE_FORMATS)("refuses %s with a truncated header", async (format) => {
    const err = await rejection(fx.truncatedHeader[format].bytes);
    expect(["truncated", "not_audio", "no_duration"]).toContain(err.reason);
  });

  it.each(FIXTURE_FORMATS)("refuses %s cut in half (the header promises more audio than the file holds)", async (format) => {
    const err = await rejection(fx.truncatedBody[format].bytes);
    expect(err.reason).toBe("truncated");
    expect(err.message).toMatch(/truncated/);
  });

  it("refuses files with a video track", async () => {
    for (const file of fx.video) expect((await rejection(file.bytes)).reason, file.name).toBe("video");
  });

  it("maps a refusal to 415 UNSUPPORTED_MEDIA_TYPE on body.audio", async () => {
    const err = asUnsupportedMedia(await rejection(fx.empty.bytes));
    expect(err).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", status: 415 });
    expect(err.options.errors).toEqual([{ loc: ["body", "audio"], msg: "The audio file is empty.", type: "audio_empty" }]);
  });
});
