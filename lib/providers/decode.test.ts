/**
 * In-process decoding and windowing, on recordings made with eSpeak NG and ffmpeg (e2e/support/audio.ts): each decoded
 * recording is compared with ffmpeg's own PCM of the same speech, by its loudness over time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AudioFixtures, audioFixtures, type FixtureFormat, longRecording, removeAudioFixtures } from "@/e2e/support/audio";
import { windowsFor } from "./audio-windows";
import { DECODED_FORMATS, decodeToPcm, decodeToPcm16, PCM_SAMPLE_RATE, UndecodableAudio } from "./decode";
import { parseWav } from "./sandbox/wav";

let fx: AudioFixtures;
beforeAll(async () => {
  fx = await audioFixtures();
}, 60_000);
afterAll(removeAudioFixtures);

/** Loudness (mean absolute value) of each 50 ms of `pcm`. */
function envelope(pcm: Float32Array): number[] {
  const frame = PCM_SAMPLE_RATE / 20;
  const out: number[] = [];
  for (let i = 0; i + frame <= pcm.length; i += frame) {
    let sum = 0;
    for (let j = i; j < i + frame; j++) sum += Math.abs(pcm[j]);
    out.push(sum / frame);
  }
  return out;
}

function correlation(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  const mean = (x: number[]) => x.slice(0, n).reduce((s, v) => s + v, 0) / n;
  const [ma, mb] = [mean(a), mean(b)];
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i] - ma) * (b[i] - mb);
    aa += (a[i] - ma) ** 2;
    bb += (b[i] - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

describe("decodeToPcm", () => {
  it.each(DECODED_FORMATS)("decodes %s to 16 kHz mono that matches the source speech", async (format) => {
    const reference = await decodeToPcm(fx.files.wav.bytes, "wav");
    const pcm = await decodeToPcm(fx.files[format].bytes, format, fx.durationSeconds);
    expect(Math.abs(pcm.length / PCM_SAMPLE_RATE - fx.durationSeconds)).toBeLessThan(0.1);
    expect(correlation(envelope(pcm), envelope(reference))).toBeGreaterThan(0.9);
  });

  it("decodes what live recorders write (WebM without lengths, FLAC without a total, streamed MP3)", async () => {
    for (const [format, file] of [
      ["webm", fx.streamed.webm],
      ["flac", fx.streamed.flac],
      ["mp3", fx.streamed.mp3],
    ] as const) {
      const pcm = await decodeToPcm(file.bytes, format);
      expect(Math.abs(pcm.length / PCM_SAMPLE_RATE - fx.durationSeconds), format).toBeLessThan(0.1);
    }
  });

  it("decodes a 24-bit 44.1 kHz stereo FLAC down to 16 kHz mono", async () => {
    const hifi = fx.variants.find((v) => v.name === "hifi.flac")!;
    const pcm = await decodeToPcm(hifi.bytes, "flac");
    expect(Math.abs(pcm.length / PCM_SAMPLE_RATE - fx.durationSeconds)).toBeLessThan(0.1);
  });

  it.each(["ogg", "mp3"] as const)("decodes %s to 16-bit samples that are the float samples rounded", async (format) => {
    const floats = await decodeToPcm(fx.files[format].bytes, format, fx.durationSeconds);
    const ints = await decodeToPcm16(fx.files[format].bytes, format, fx.durationSeconds);
    expect(ints).toBeInstanceOf(Int16Array);
    expect(ints.length).toBe(floats.length);
    for (let i = 0; i < ints.length; i++) expect(Math.abs(ints[i] / 32_768 - floats[i])).toBeLessThan(1 / 16_384);
  });

  it("refuses what it does not decode: OGG/Vorbis and M4A", async () => {
    const vorbis = fx.variants.find((v) => v.name === "vorbis.ogg")!;
    await expect(decodeToPcm(vorbis.bytes, "ogg")).rejects.toBeInstanceOf(UndecodableAudio);
    await expect(decodeToPcm(fx.files.m4a.bytes, "m4a")).rejects.toBeInstanceOf(UndecodableAudio);
  });
});

describe("windowsFor", () => {
  const request = (audio: Uint8Array, format: FixtureFormat, durationSeconds: number) => ({
    audio,
    format,
    contentType: `audio/${format}`,
    language: "en",
    durationSeconds,
    deadline: Date.now() + 60_000,
  });

  it("sends a recording that fits whole, as it is", async () => {
    const { windows, contentType } = await windowsFor("provider_c", request(fx.files.ogg.bytes, "ogg", fx.durationSeconds), {
      native: ["ogg"],
      maxSeconds: 30,
    });
    expect(windows).toHaveLength(1);
    expect(windows[0].audio).toBe(fx.files.ogg.bytes);
    expect(contentType).toBe("audio/ogg");
  });

  it("converts a format the upstream does not take to WAV", async () => {
    const { windows, contentType } = await windowsFor("provider_b", request(fx.files.webm.bytes, "webm", fx.durationSeconds), {
      native: ["wav"],
      maxSeconds: 120,
    });
    expect(contentType).toBe("audio/wav");
    expect(windows).toHaveLength(1);
    expect(Math.abs(parseWav(windows[0].audio)!.durationSeconds - fx.durationSeconds)).toBeLessThan(0.1);
  });

  it("cuts a 10-minute OGG/Opus voice note into WAV windows that cover it, each at most the limit, cut in a pause", async () => {
    const note = await longRecording(600, "ogg");
    const { windows, contentType } = await windowsFor("provider_c", request(note.bytes, "ogg", 600), { native: ["ogg"], maxSeconds: 30 });
    expect(contentType).toBe("audio/wav");
    expect(windows.length).toBeGreaterThanOrEqual(20);
    expect(windows[0].start).toBe(0);
    expect(windows.at(-1)!.end).toBeCloseTo(600, 0);
    for (const [i, w] of windows.entries()) {
      const seconds = parseWav(w.audio)!.durationSeconds;
      expect(seconds).toBeLessThanOrEqual(30);
      expect(seconds).toBeCloseTo(w.end - w.start, 2);
      if (i > 0) expect(w.start).toBe(windows[i - 1].end);
      // Every cut but the recording's end falls in the 0.6 s pauses between sentences: the window ends quietly.
      if (i < windows.length - 1) {
        const pcm = await decodeToPcm(w.audio, "wav");
        const tail = pcm.subarray(pcm.length - 160);
        expect(tail.reduce((sum, v) => sum + Math.abs(v), 0) / tail.length).toBeLessThan(0.01);
        expect(seconds).toBeGreaterThan(20);
      }
    }
  }, 120_000);
});
