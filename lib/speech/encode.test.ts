/**
 * MP3 and Ogg/Opus answers of text-to-speech, decoded back independently: by the in-process decoders
 * (lib/providers/decode.ts), by this service's own audio analysis, and by ffmpeg (the devDependency's binary).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import { afterAll, describe, expect, it } from "vitest";
import { decodeToPcm, PCM_SAMPLE_RATE } from "@/lib/providers/decode";
import { makeWav } from "@/lib/providers/sandbox/wav";
import { analyzeAudio } from "./audio";
import { encodeRawPcm, encodeSpeech, OPUS_PRE_SKIP, oggCrc, oggOpusFile } from "./encode";
import { TTS_MEDIA_TYPES } from "./formats";
import { ttsAnswerBytes, ttsCharsFitting } from "./limits";

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), "lugha-tts-encode-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Seconds of audio ffmpeg decodes from `bytes` (16 kHz mono 16-bit PCM out). */
async function ffmpegSeconds(bytes: Uint8Array, name: string): Promise<number> {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  const { stdout } = await run(
    ffmpegInstaller.path,
    ["-hide_banner", "-loglevel", "error", "-i", file, "-f", "s16le", "-ac", "1", "-ar", "16000", "-"],
    {
      encoding: "buffer",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return stdout.length / 2 / 16_000;
}

// What Sunbird's Orpheus answers: 24 kHz 16-bit mono WAV.
const SOURCE_SECONDS = 3.37;
const source = makeWav({ durationSeconds: SOURCE_SECONDS, sampleRate: 24_000, seed: 7 });

describe("encodeSpeech", () => {
  it.each(["mp3", "opus"] as const)("%s: states the source's duration, and decodes back to it (in-process, analysis, ffmpeg)", async (format) => {
    const { audio, durationSeconds } = await encodeSpeech(source, "wav", format);
    expect(Math.abs(durationSeconds - SOURCE_SECONDS)).toBeLessThan(0.01);

    const info = await analyzeAudio(audio);
    expect(info.format).toBe(format === "mp3" ? "mp3" : "ogg");
    expect(TTS_MEDIA_TYPES[format].contentType.startsWith(info.contentType)).toBe(true);
    expect(Math.abs(info.durationSeconds - durationSeconds)).toBeLessThan(0.1);

    const pcm = await decodeToPcm(audio, info.format);
    expect(Math.abs(pcm.length / PCM_SAMPLE_RATE - durationSeconds)).toBeLessThan(0.1);
    // Not silence: the speech-like tone survives the round trip.
    const rms = Math.sqrt(pcm.reduce((sum, s) => sum + s * s, 0) / pcm.length);
    expect(rms).toBeGreaterThan(0.05);

    const ffmpeg = await ffmpegSeconds(audio, `speech.${TTS_MEDIA_TYPES[format].extension}`);
    // Ogg/Opus ends where its last granule position says (the frame padding is dropped); MP3 may carry a frame more.
    expect(Math.abs(ffmpeg - durationSeconds)).toBeLessThan(format === "opus" ? 0.025 : 0.1);
  });

  it("keeps within the bytes per second the size rule counts on", async () => {
    for (const format of ["mp3", "opus"] as const) {
      const { audio } = await encodeSpeech(source, "wav", format);
      // The rule allows 1/8 s of audio per character; the source is SOURCE_SECONDS long.
      expect(audio.length, format).toBeLessThanOrEqual(ttsAnswerBytes(SOURCE_SECONDS * 8, true, format));
    }
  });
});

describe("encodeRawPcm", () => {
  it("writes 16-bit little-endian mono at the rate asked (24 kHz), as long as the source, that ffmpeg reads back", async () => {
    const { audio, durationSeconds } = await encodeRawPcm(source, "wav", 24_000);
    expect(Math.abs(durationSeconds - SOURCE_SECONDS)).toBeLessThan(0.01);
    expect(Math.abs(audio.length / 2 / 24_000 - SOURCE_SECONDS)).toBeLessThan(0.01);
    const file = path.join(dir, "speech.pcm");
    writeFileSync(file, audio);
    const { stdout } = await run(
      ffmpegInstaller.path,
      ["-hide_banner", "-loglevel", "error", "-f", "s16le", "-ar", "24000", "-ac", "1", "-i", file, "-f", "s16le", "-ac", "1", "-ar", "16000", "-"],
      { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
    );
    const back = new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length / 2);
    expect(Math.abs(back.length / 16_000 - SOURCE_SECONDS)).toBeLessThan(0.01);
    // The same sound as the source, not noise or silence: the 16 kHz samples ffmpeg brings back follow the decoded source.
    const original = await decodeToPcm(source, "wav");
    let error = 0;
    let energy = 0;
    for (let i = 100; i < Math.min(original.length, back.length) - 100; i++) {
      error += (back[i] / 0x8000 - original[i]) ** 2;
      energy += original[i] ** 2;
    }
    expect(error / energy).toBeLessThan(0.05);
  });
});

describe("Ogg Opus file", () => {
  it("computes Ogg's CRC-32 (polynomial 0x04c11db7, no reflection, no final XOR)", () => {
    expect(oggCrc(new TextEncoder().encode("123456789"))).toBe(0x89a1897f);
    expect(oggCrc(new Uint8Array(0))).toBe(0);
  });

  it("writes OpusHead, OpusTags, then audio pages whose granule positions count 48 kHz samples after the pre-skip", () => {
    const packets = Array.from({ length: 120 }, (_, i) => new Uint8Array(40 + (i % 3)).fill(i));
    const samples = 120 * 320 - 100;
    const file = oggOpusFile(packets, { inputSampleRate: 16_000, samples, frameSamples: 320 });
    const pages: { flags: number; granule: bigint; sequence: number; body: Uint8Array }[] = [];
    for (let at = 0; at < file.length; ) {
      const view = new DataView(file.buffer, file.byteOffset + at);
      expect(String.fromCharCode(...file.subarray(at, at + 4))).toBe("OggS");
      const segments = file[at + 26];
      const bodyLength = file.subarray(at + 27, at + 27 + segments).reduce((n, s) => n + s, 0);
      const page = file.slice(at, at + 27 + segments + bodyLength);
      const crc = view.getUint32(22, true);
      page.fill(0, 22, 26);
      expect(oggCrc(page)).toBe(crc);
      pages.push({ flags: file[at + 5], granule: view.getBigInt64(6, true), sequence: view.getUint32(18, true), body: page.subarray(27 + segments) });
      at += page.length;
    }
    expect(pages.map((p) => p.sequence)).toEqual([0, 1, 2, 3, 4]);
    expect(new TextDecoder().decode(pages[0].body.subarray(0, 8))).toBe("OpusHead");
    const head = new DataView(pages[0].body.buffer, pages[0].body.byteOffset);
    expect([pages[0].body[8], pages[0].body[9], head.getUint16(10, true), head.getUint32(12, true)]).toEqual([1, 1, OPUS_PRE_SKIP, 16_000]);
    expect(new TextDecoder().decode(pages[1].body.subarray(0, 8))).toBe("OpusTags");
    expect(pages.map((p) => p.flags)).toEqual([2, 0, 0, 0, 4]);
    expect(pages.map((p) => p.granule)).toEqual([
      0n,
      0n,
      BigInt(OPUS_PRE_SKIP + 50 * 960),
      BigInt(OPUS_PRE_SKIP + 100 * 960),
      BigInt(OPUS_PRE_SKIP + samples * 3),
    ]);
  });
});

it("the size rule: on Vercel (4.5 MB), 560 characters of JSON in WAV, all 2,000 in MP3 and in Opus", () => {
  expect(ttsCharsFitting(4_500_000, "wav")).toBe(560);
  expect(ttsCharsFitting(4_500_000, "mp3")).toBe(2_000);
  expect(ttsCharsFitting(4_500_000, "opus")).toBe(2_000);
});
