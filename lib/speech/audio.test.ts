/** Audio recognition and measurement, on fixtures generated with eSpeak NG and ffmpeg (e2e/support/audio.ts). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AudioFixtures, audioFixtures, FIXTURE_FORMATS, liveRecorderWebm, removeAudioFixtures } from "@/e2e/support/audio";
import { makeWav } from "@/lib/providers/sandbox";
import { AudioRejected, analyzeAudio, analyzeWithParsers, asUnsupportedMedia, canonicalPcmWav } from "./audio";

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

/** A WAV laid out by hand: `fmt` fields, `size` bytes of data (declared as `declared`), chunks before the data, bytes after. */
function wav(o: {
  format?: number;
  channels?: number;
  rate?: number;
  bits?: number;
  size: number;
  declared?: number;
  fmtSize?: number;
  before?: Uint8Array;
  after?: number;
}) {
  const { format = 1, channels = 1, rate = 16_000, bits = 16, size, fmtSize = 16, before = new Uint8Array(), after = 0 } = o;
  const pad = size % 2;
  const bytes = new Uint8Array(12 + 8 + fmtSize + before.byteLength + 8 + size + pad + after);
  const view = new DataView(bytes.buffer);
  const text = (at: number, s: string) =>
    bytes.set(
      [...s].map((c) => c.charCodeAt(0)),
      at,
    );
  text(0, "RIFF");
  view.setUint32(4, bytes.byteLength - 8, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, fmtSize, true);
  view.setUint16(20, format, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, (rate * channels * bits) / 8, true);
  view.setUint16(32, (channels * bits) / 8, true);
  view.setUint16(34, bits, true);
  bytes.set(before, 20 + fmtSize);
  const data = 20 + fmtSize + before.byteLength;
  text(data, "data");
  view.setUint32(data + 4, o.declared ?? size, true);
  for (let i = 0; i < size; i++) view.setUint8(data + 8 + i, (i * 37) % 256);
  return bytes;
}

describe("analyzeAudio: the canonical PCM WAV without the parsers", () => {
  const canonical = {
    "the sandbox's 16 kHz mono": makeWav({ durationSeconds: 2.5, seed: 3 }),
    "the sandbox's 24 kHz, 10 ms": makeWav({ durationSeconds: 0.01, sampleRate: 24_000 }),
    "44.1 kHz stereo 16-bit": wav({ channels: 2, rate: 44_100, size: 44_100 * 4 }),
    "48 kHz stereo 24-bit": wav({ channels: 2, rate: 48_000, bits: 24, size: 6 * 4_801 }),
    "8 kHz mono 8-bit, an odd size and its pad byte": wav({ rate: 8_000, bits: 8, size: 8_001 }),
    "22.05 kHz mono 32-bit": wav({ rate: 22_050, bits: 32, size: 4 * 22_050 }),
    "a data size that is no whole number of frames": wav({ channels: 2, size: 4 * 1_000 + 2 }),
  };
  it.each(Object.entries(canonical))("reports for %s exactly what the parsers report", async (_, bytes) => {
    const fast = canonicalPcmWav(bytes);
    expect(fast).toBeDefined();
    expect(fast).toEqual(await analyzeWithParsers(bytes));
    expect(await analyzeAudio(bytes)).toEqual(fast);
  });

  const list = new Uint8Array(
    [..."LIST"]
      .map((c) => c.charCodeAt(0))
      .concat(
        [4, 0, 0, 0],
        [..."INFO"].map((c) => c.charCodeAt(0)),
      ),
  );
  const other = {
    "a LIST chunk before the data (as ffmpeg writes)": wav({ size: 3_200, before: list }),
    WAVE_FORMAT_EXTENSIBLE: wav({ format: 0xfffe, fmtSize: 40, size: 3_200 }),
    "IEEE float": wav({ format: 3, bits: 32, size: 6_400 }),
    "a streaming recorder's unknown size": wav({ size: 3_200, declared: 0xffffffff }),
    "a cut file (more declared than present)": wav({ size: 3_200, declared: 6_400 }),
    "bytes after the data chunk": wav({ size: 3_200, after: 12 }),
    "no sample at all": wav({ size: 1 }),
  };
  it.each(Object.entries(other))("leaves %s to the parsers, with their verdict", async (_, bytes) => {
    expect(canonicalPcmWav(bytes)).toBeUndefined();
    const verdict = (p: Promise<unknown>) =>
      p.then(
        (info) => ({ info }),
        (err: unknown) => ({ refused: (err as AudioRejected).reason }),
      );
    expect(await verdict(analyzeAudio(bytes))).toEqual(await verdict(analyzeWithParsers(bytes)));
  });

  it("leaves the ffmpeg fixture WAV to the parsers", () => {
    expect(canonicalPcmWav(fx.files.wav.bytes)).toBeUndefined();
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
