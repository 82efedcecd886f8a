import { describe, expect, it } from "vitest";
import { makeWav, parseWav } from "./sandbox/wav";
import { isSplittableWav, splitPcm, splitWav } from "./wav-windows";

/** A 16-bit mono WAV of voice-like sound with silences (all zero samples) at the given seconds, each 0.3 s long. */
function withSilences(durationSeconds: number, silences: number[], sampleRate = 16_000): Uint8Array {
  const wav = makeWav({ durationSeconds, sampleRate, seed: 11 });
  const view = new DataView(wav.buffer);
  for (const at of silences) {
    for (let i = Math.round(at * sampleRate); i < Math.round((at + 0.3) * sampleRate); i++) view.setInt16(44 + i * 2, 0, true);
  }
  return wav;
}

describe("splitWav", () => {
  it("keeps a recording of at most the window whole (the same bytes)", () => {
    const wav = makeWav({ durationSeconds: 30 });
    const windows = splitWav(wav, 30);
    expect(windows).toHaveLength(1);
    expect(windows[0].audio).toBe(wav);
  });

  it("cuts at the silence inside the last third of each window, never past the window", () => {
    const wav = withSilences(70, [24, 49]);
    const windows = splitWav(wav, 30);
    expect(windows.map((w) => [w.start, w.end].map((s) => Math.round(s)))).toEqual([
      [0, 24],
      [24, 49],
      [49, 70],
    ]);
    for (const w of windows) {
      expect(w.end - w.start).toBeLessThanOrEqual(30);
      expect(parseWav(w.audio)?.durationSeconds).toBeCloseTo(w.end - w.start, 3);
    }
  });

  it("loses no sample: the windows' audio adds up to the recording's", () => {
    const wav = makeWav({ durationSeconds: 95.3, seed: 2 });
    const windows = splitWav(wav, 30);
    const total = windows.reduce((sum, w) => sum + (parseWav(w.audio)?.durationSeconds ?? 0), 0);
    expect(total).toBeCloseTo(95.3, 3);
    expect(windows.at(-1)?.end).toBeCloseTo(95.3, 3);
    const samples = windows.reduce((sum, w) => sum + w.audio.byteLength - 44, 0);
    expect(samples).toBe(wav.byteLength - 44);
  });

  it("splits only PCM WAV", () => {
    expect(isSplittableWav(makeWav({ durationSeconds: 1 }))).toBe(true);
    expect(isSplittableWav(new TextEncoder().encode("RIFF....WAVEfmt not really"))).toBe(false);
    expect(isSplittableWav(new Uint8Array([0xff, 0xfb, 0x90, 0x00]))).toBe(false);
  });
});

describe("splitPcm", () => {
  it("writes each window as a 16-bit WAV of its own samples, of the size it announces", () => {
    const samples = Int16Array.from({ length: 16_000 * 70 }, (_, i) => (i % 400 < 200 ? 1_000 : -1_000) * (i % 16_000 < 800 ? 0 : 1));
    const windows = splitPcm(samples, 16_000, 30);
    expect(windows.length).toBe(3);
    for (const w of windows) {
      const audio = w.audio;
      expect(audio.byteLength).toBe(w.byteLength);
      const view = new DataView(audio.buffer, audio.byteOffset + 44);
      const from = Math.round(w.start * 16_000);
      const own = Int16Array.from({ length: (audio.byteLength - 44) / 2 }, (_, i) => view.getInt16(i * 2, true));
      expect(own).toEqual(samples.subarray(from, from + own.length));
      expect(parseWav(audio)?.durationSeconds).toBeCloseTo(w.end - w.start, 3);
    }
    expect(windows.at(-1)?.end).toBe(70);
  });
});
