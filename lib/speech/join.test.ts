/** Joining the clips of a long text's pieces: checked by this service's WAV reading and by ffmpeg (an independent decoder). */
import { describe, expect, it } from "vitest";
import { ffmpegSeconds } from "@/e2e/support/audio";
import { decodeToPcm } from "@/lib/providers/decode";
import { makeWav, parseWav } from "@/lib/providers/sandbox/wav";
import { pcmLayout, wav16 } from "@/lib/providers/wav-windows";
import { encodeSpeech } from "./encode";
import { joinClips, resample } from "./join";

const orpheus = (seconds: number, seed: number) => ({
  audio: makeWav({ durationSeconds: seconds, sampleRate: 24_000, seed }),
  format: "wav" as const,
});

describe("joinClips", () => {
  it("clips of one layout: their samples end to end, untouched, under one header; the duration is the sum", async () => {
    const clips = [orpheus(1.5, 1), orpheus(0.75, 2), orpheus(2.25, 3)];
    const { audio, durationSeconds } = await joinClips(clips);
    expect(durationSeconds).toBeCloseTo(4.5, 6);
    expect(parseWav(audio)).toMatchObject({ sampleRate: 24_000, channels: 1, bitsPerSample: 16, durationSeconds: 4.5 });
    const joined = pcmLayout(audio)!;
    let at = joined.dataOffset;
    for (const clip of clips) {
      const own = pcmLayout(clip.audio)!;
      expect(audio.subarray(at, at + own.dataBytes)).toEqual(clip.audio.subarray(own.dataOffset, own.dataOffset + own.dataBytes));
      at += own.dataBytes;
    }
    expect(await ffmpegSeconds(audio, "joined.wav")).toBeCloseTo(4.5, 3);
  });

  it("clips of different rates and channel counts: mixed to mono at the highest rate, the duration kept", async () => {
    const stereo16k = wavStereo(16_000, 1);
    const { audio, durationSeconds } = await joinClips([orpheus(1, 4), { audio: stereo16k, format: "wav" }, orpheus(0.5, 5)]);
    expect(durationSeconds).toBeCloseTo(2.5, 3);
    expect(parseWav(audio)).toMatchObject({ sampleRate: 24_000, channels: 1, bitsPerSample: 16 });
    expect(await ffmpegSeconds(audio, "mixed.wav")).toBeCloseTo(2.5, 2);
  });

  it("clips that are not PCM WAV (an MP3 from a provider) are decoded and joined at 16 kHz", async () => {
    const mp3 = await encodeSpeech(makeWav({ durationSeconds: 1, sampleRate: 24_000, seed: 6 }), "wav", "mp3");
    const { audio, durationSeconds } = await joinClips([orpheus(1, 7), { audio: mp3.audio, format: "mp3" }]);
    expect(parseWav(audio)).toMatchObject({ sampleRate: 16_000, channels: 1 });
    // The MP3 decodes a little longer than it was encoded from (the encoder's delay and padding): its samples count.
    const mp3Samples = (await decodeToPcm(mp3.audio, "mp3")).length;
    expect(durationSeconds).toBeCloseTo(1 + mp3Samples / 16_000, 3);
    expect(await ffmpegSeconds(audio, "decoded.wav")).toBeCloseTo(durationSeconds, 2);
  });

  it("no clips is a programming error", async () => {
    await expect(joinClips([])).rejects.toThrow(RangeError);
  });
});

describe("resample", () => {
  it("keeps the duration to the sample and a tone's shape (16 → 24 kHz)", () => {
    const tone = Float32Array.from({ length: 16_000 }, (_, i) => Math.sin((2 * Math.PI * 200 * i) / 16_000));
    const up = resample(tone, 16_000, 24_000);
    expect(up.length).toBe(24_000);
    for (const i of [0, 1_234, 12_345, 23_000]) expect(up[i]).toBeCloseTo(Math.sin((2 * Math.PI * 200 * i) / 24_000), 2);
    expect(resample(tone, 16_000, 16_000)).toBe(tone);
  });
});

/** One second of a 16-bit stereo WAV at `rate` (a tone on the left, silence on the right). */
function wavStereo(rate: number, seconds: number): Uint8Array {
  const mono = wav16(
    Float32Array.from({ length: rate * seconds }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 220 * i) / rate)),
    rate,
  );
  const layout = pcmLayout(mono)!;
  const frames = layout.dataBytes / 2;
  const out = new Uint8Array(44 + frames * 4);
  const view = new DataView(out.buffer);
  const put = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(at + i, s.charCodeAt(i));
  };
  put(0, "RIFF");
  view.setUint32(4, 36 + frames * 4, true);
  put(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 2, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 4, true);
  view.setUint16(32, 4, true);
  view.setUint16(34, 16, true);
  put(36, "data");
  view.setUint32(40, frames * 4, true);
  const src = new DataView(mono.buffer, mono.byteOffset + layout.dataOffset, layout.dataBytes);
  for (let f = 0; f < frames; f++) view.setInt16(44 + f * 4, src.getInt16(f * 2, true), true);
  return out;
}
