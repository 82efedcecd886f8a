/**
 * Cutting a long recording into windows a model can take whole (Whisper on Hugging Face: at most 30 s of raw audio;
 * Sunbird and Khaya: what their backends finish in time), in plain TypeScript, so it runs wherever the app runs.
 *
 * A PCM WAV upload is cut as it is: each window is a complete WAV file with the original header chunks (fmt, and the
 * sample format with it) and a block-aligned slice of the original samples, so nothing is re-encoded and nothing is
 * lost at a cut. Any other recording is first decoded to 16 kHz mono 16-bit samples (./decode.ts) and its windows are
 * 16-bit WAV, each written when it is read (when it is sent), so only the windows on their way upstream are in memory
 * beside the samples.
 * A cut is placed at the quietest 20 ms frame of the last third of each window (the "silence" between words), measured
 * as the mean absolute sample value over every channel; without a quiet stretch it falls at the window's end.
 */

export interface AudioWindow {
  /** The window as a WAV file (a window of decoded audio is written anew at each read: read it once per request). */
  readonly audio: Uint8Array;
  /** The size of `audio`, known without writing it. */
  byteLength: number;
  /** Offset of its first sample in the recording, seconds. */
  start: number;
  /** Offset just past its last sample, seconds. */
  end: number;
}

export interface PcmLayout {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  float: boolean;
  blockAlign: number;
  /** The fmt chunk, header included, copied into every window. */
  fmtChunk: Uint8Array;
  dataOffset: number;
  dataBytes: number;
}

const FRAME_SECONDS = 0.02;
/** The RIFF header, the fmt chunk and the data chunk's header of wav16's files. */
const WAV16_HEADER_BYTES = 44;

const ascii = (bytes: Uint8Array, offset: number, length = 4) => String.fromCharCode(...bytes.subarray(offset, offset + length));

/** The PCM layout of a WAV file, or undefined when it is not PCM WAV this module can cut. */
export function pcmLayout(bytes: Uint8Array): PcmLayout | undefined {
  if (bytes.byteLength < 44 || ascii(bytes, 0) !== "RIFF" || ascii(bytes, 8) !== "WAVE") return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fmt: Omit<PcmLayout, "dataOffset" | "dataBytes"> | undefined;
  for (let offset = 12; offset + 8 <= bytes.byteLength; ) {
    const id = ascii(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    if (id === "fmt ") {
      if (offset + 8 + 16 > bytes.byteLength) return undefined;
      let tag = view.getUint16(offset + 8, true);
      const channels = view.getUint16(offset + 10, true);
      const sampleRate = view.getUint32(offset + 12, true);
      const blockAlign = view.getUint16(offset + 20, true);
      const bitsPerSample = view.getUint16(offset + 22, true);
      if (tag === 0xfffe && size >= 40) tag = view.getUint16(offset + 8 + 24, true); // the sub-format GUID starts with the tag
      if ((tag !== 1 && tag !== 3) || !channels || !sampleRate || !blockAlign) return undefined;
      if (tag === 3 && bitsPerSample !== 32) return undefined;
      if (![8, 16, 24, 32].includes(bitsPerSample) || blockAlign !== (channels * bitsPerSample) / 8) return undefined;
      fmt = {
        sampleRate,
        channels,
        bitsPerSample,
        float: tag === 3,
        blockAlign,
        fmtChunk: bytes.slice(offset, offset + 8 + size + (size % 2)),
      };
    } else if (id === "data") {
      if (!fmt) return undefined;
      const available = bytes.byteLength - offset - 8;
      const declared = size === 0 || size === 0xffffffff ? available : Math.min(size, available);
      const dataBytes = declared - (declared % fmt.blockAlign);
      return { ...fmt, dataOffset: offset + 8, dataBytes };
    }
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

/** Whether `bytes` is a PCM WAV that `splitWav` can cut. */
export const isSplittableWav = (bytes: Uint8Array) => pcmLayout(bytes) !== undefined;

/**
 * Windows of at most `maxSeconds` covering the whole recording, in order; a recording no longer than `maxSeconds` is
 * one window (the original bytes). Throws when `bytes` is not PCM WAV (check with isSplittableWav first).
 */
export function splitWav(bytes: Uint8Array, maxSeconds: number): AudioWindow[] {
  const layout = pcmLayout(bytes);
  if (!layout) throw new Error("not a PCM WAV file");
  const { sampleRate, blockAlign, dataOffset, dataBytes } = layout;
  const totalFrames = dataBytes / blockAlign;
  if (totalFrames / sampleRate <= maxSeconds) return [{ audio: bytes, byteLength: bytes.byteLength, start: 0, end: totalFrames / sampleRate }];
  return cuts(totalFrames, sampleRate, maxSeconds, (frame, count) => meanLevel(bytes, layout, frame, count)).map(([from, to]) => {
    const audio = wavOf(layout.fmtChunk, bytes.subarray(dataOffset + from * blockAlign, dataOffset + to * blockAlign));
    return { audio, byteLength: audio.byteLength, start: from / sampleRate, end: to / sampleRate };
  });
}

/**
 * Windows of at most `maxSeconds` of mono 16-bit samples at `sampleRate`, each a 16-bit PCM WAV file written when its
 * `audio` is read: all of a recording's windows at once would double the memory its samples take.
 */
export function splitPcm(samples: Int16Array, sampleRate: number, maxSeconds: number): AudioWindow[] {
  const level = (frame: number, count: number) => {
    let sum = 0;
    for (let i = frame; i < frame + count; i++) sum += Math.abs(samples[i]);
    return sum / count / 32_768;
  };
  return cuts(samples.length, sampleRate, maxSeconds, level).map(([from, to]) => ({
    get audio() {
      return wav16(samples.subarray(from, to), sampleRate);
    },
    byteLength: WAV16_HEADER_BYTES + (to - from) * 2,
    start: from / sampleRate,
    end: to / sampleRate,
  }));
}

/** [from, to) sample-frame ranges of at most `maxSeconds`, covering `totalFrames`, each cut at its quietest end. */
function cuts(totalFrames: number, sampleRate: number, maxSeconds: number, level: (frame: number, count: number) => number): [number, number][] {
  const maxFrames = Math.max(1, Math.floor(maxSeconds * sampleRate));
  const frameLength = Math.max(1, Math.round(FRAME_SECONDS * sampleRate));
  const ranges: [number, number][] = [];
  for (let from = 0; from < totalFrames; ) {
    let to = Math.min(totalFrames, from + maxFrames);
    if (to < totalFrames) to = quietestCut(from + Math.floor((maxFrames * 2) / 3), to, frameLength, level);
    ranges.push([from, to]);
    from = to;
  }
  return ranges;
}

/** The middle of the quietest `frameLength` stretch in [from, to) (in sample frames), or `to` when none is quieter. */
function quietestCut(from: number, to: number, frameLength: number, level: (frame: number, count: number) => number): number {
  let best = to;
  let bestLevel = Number.POSITIVE_INFINITY;
  for (let frame = from; frame + frameLength <= to; frame += frameLength) {
    const value = level(frame, frameLength);
    if (value < bestLevel) {
      bestLevel = value;
      best = frame + Math.floor(frameLength / 2);
    }
  }
  return best;
}

/** One PCM sample at byte `at` as -1..1: unsigned 8-bit, signed 16/24/32-bit or 32-bit float, little-endian. */
export function pcmSample(view: DataView, at: number, width: number, float: boolean): number {
  if (float) return view.getFloat32(at, true);
  if (width === 1) return (view.getUint8(at) - 128) / 128;
  if (width === 2) return view.getInt16(at, true) / 32_768;
  if (width === 3) return ((view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getUint8(at + 2) << 16)) << 8) / 2 ** 31;
  return view.getInt32(at, true) / 2 ** 31;
}

/** Mean absolute sample value (0..1) of `count` sample frames from `frame`, over every channel. */
function meanLevel(bytes: Uint8Array, layout: PcmLayout, frame: number, count: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { blockAlign, channels, bitsPerSample, float, dataOffset } = layout;
  const width = bitsPerSample / 8;
  let sum = 0;
  for (let f = frame; f < frame + count; f++) {
    for (let c = 0; c < channels; c++) {
      const at = dataOffset + f * blockAlign + c * width;
      sum += Math.abs(pcmSample(view, at, width, float));
    }
  }
  return sum / (count * channels);
}

/** A WAV file with `fmtChunk` (header included) around `samples`. */
export function wavOf(fmtChunk: Uint8Array, samples: Uint8Array): Uint8Array {
  const out = wavWithRoom(fmtChunk, samples.byteLength);
  out.set(samples, out.byteLength - samples.byteLength);
  return out;
}

/** A WAV file with `fmtChunk` (header included) and `dataBytes` of samples still to be written at its end. */
function wavWithRoom(fmtChunk: Uint8Array, dataBytes: number): Uint8Array {
  const out = new Uint8Array(12 + fmtChunk.byteLength + 8 + dataBytes);
  const view = new DataView(out.buffer);
  const put = (offset: number, s: string) => {
    for (let i = 0; i < s.length; i++) out[offset + i] = s.charCodeAt(i);
  };
  put(0, "RIFF");
  view.setUint32(4, out.byteLength - 8, true);
  put(8, "WAVE");
  out.set(fmtChunk, 12);
  const data = 12 + fmtChunk.byteLength;
  put(data, "data");
  view.setUint32(data + 4, dataBytes, true);
  return out;
}

/** A float sample in [-1, 1] (clamped) as a signed 16-bit value. */
export function sample16(v: number): number {
  const clamped = Math.max(-1, Math.min(1, v));
  return Math.round(clamped < 0 ? clamped * 32_768 : clamped * 32_767);
}

/** Mono samples (floats in [-1, 1], or 16-bit) as a 16-bit PCM WAV file. */
export function wav16(samples: Float32Array | Int16Array, sampleRate: number): Uint8Array {
  const fmt = new Uint8Array(24);
  const f = new DataView(fmt.buffer);
  fmt.set([0x66, 0x6d, 0x74, 0x20]); // "fmt "
  f.setUint32(4, 16, true);
  f.setUint16(8, 1, true); // PCM
  f.setUint16(10, 1, true); // mono
  f.setUint32(12, sampleRate, true);
  f.setUint32(16, sampleRate * 2, true);
  f.setUint16(20, 2, true);
  f.setUint16(22, 16, true);
  const out = wavWithRoom(fmt, samples.length * 2);
  const d = new DataView(out.buffer, out.byteLength - samples.length * 2);
  const float = samples instanceof Float32Array;
  for (let i = 0; i < samples.length; i++) d.setInt16(i * 2, float ? sample16(samples[i]) : samples[i], true);
  return out;
}
