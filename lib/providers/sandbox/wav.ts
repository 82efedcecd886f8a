import { decodeToPcm, PCM_SAMPLE_RATE } from "../decode";
/** PCM WAV writing and reading for the speech emulators: real, playable files with deterministic content. */

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  durationSeconds: number;
}

/** Roughly how long a TTS voice takes to say `text`: about 60 ms per character, never under half a second. */
export function speechDurationSeconds(text: string): number {
  return Math.max(0.5, [...text].length * 0.06);
}

/**
 * 16-bit mono PCM WAV of a voice-like tone: a fundamental between 120 and 250 Hz (chosen by `seed`) with two harmonics,
 * shaped into ~4 syllables a second, plus a little deterministic noise. Same input, same bytes.
 */
export function makeWav({
  durationSeconds,
  sampleRate = 16_000,
  seed = 1,
}: {
  durationSeconds: number;
  sampleRate?: number;
  seed?: number;
}): Uint8Array<ArrayBuffer> {
  const samples = Math.max(1, Math.round(durationSeconds * sampleRate));
  const out = new Uint8Array(44 + samples * 2);
  const view = new DataView(out.buffer);
  writeHeader(view, sampleRate, samples);
  const f0 = 120 + (Math.abs(seed) % 131);
  let noise = (Math.abs(seed) % 2_147_483_646) + 1;
  for (let i = 0; i < samples; i++) {
    const t = i / sampleRate;
    const syllable = Math.max(0, Math.sin(Math.PI * 4 * t)) ** 0.6;
    const fade = Math.min(1, t / 0.02, (samples - i) / sampleRate / 0.02);
    noise = (noise * 48_271) % 2_147_483_647;
    const voiced = 0.55 * Math.sin(2 * Math.PI * f0 * t) + 0.25 * Math.sin(4 * Math.PI * f0 * t) + 0.1 * Math.sin(6 * Math.PI * f0 * t);
    const value = (voiced * syllable + 0.03 * (noise / 2_147_483_647 - 0.5)) * fade * 0.6;
    view.setInt16(44 + i * 2, Math.round(Math.max(-1, Math.min(1, value)) * 32_767), true);
  }
  return out;
}

function writeHeader(view: DataView, sampleRate: number, samples: number) {
  const ascii = (offset: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(offset + i, s.charCodeAt(i));
  };
  const dataBytes = samples * 2;
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true); // PCM fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
}

/** Reads a RIFF/WAVE header (walking the chunks); undefined when `bytes` is not a PCM WAV. */
export function parseWav(bytes: Uint8Array): WavInfo | undefined {
  if (bytes.byteLength < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE") return undefined;
  let fmt: Omit<WavInfo, "durationSeconds"> | undefined;
  for (let offset = 12; offset + 8 <= bytes.byteLength; ) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    if (id === "fmt " && offset + 24 <= bytes.byteLength) {
      fmt = {
        channels: view.getUint16(offset + 10, true),
        sampleRate: view.getUint32(offset + 12, true),
        bitsPerSample: view.getUint16(offset + 22, true),
      };
    } else if (id === "data" && fmt) {
      const dataBytes = Math.min(size, bytes.byteLength - offset - 8);
      const bytesPerSecond = fmt.sampleRate * fmt.channels * (fmt.bitsPerSample / 8);
      return bytesPerSecond > 0 ? { ...fmt, durationSeconds: dataBytes / bytesPerSecond } : undefined;
    }
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

/** The duration of a recording as an upstream's decoder would find it: a WAV by its header, anything else by its metadata. */
export async function measuredSeconds(bytes: Uint8Array): Promise<number | undefined> {
  const wav = parseWav(bytes);
  if (wav) return wav.durationSeconds;
  try {
    const { parseBuffer } = await import("music-metadata");
    return (await parseBuffer(bytes, undefined, { duration: true })).format.duration;
  } catch {
    // A browser's MediaRecorder writes WebM clusters of unknown size, which music-metadata cannot step over; the
    // upstreams decode such recordings (ffmpeg), so the emulator decodes them too.
    if (bytes[0] !== 0x1a || bytes[1] !== 0x45 || bytes[2] !== 0xdf || bytes[3] !== 0xa3) return undefined;
    try {
      return (await decodeToPcm(bytes, "webm")).length / PCM_SAMPLE_RATE;
    } catch {
      return undefined;
    }
  }
}
