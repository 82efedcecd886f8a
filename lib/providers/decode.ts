import { readVint } from "@/lib/kit/ebml";
import type { AudioFormat } from "./descriptor";
import { pcmLayout, pcmSample, sample16 } from "./wav-windows";

/**
 * Decoding an upload to 16 kHz mono PCM in-process, so that any recording can be cut into windows and sent as WAV to a
 * provider that takes only so much audio at once (or does not take its format at all).
 *
 * The codecs are WebAssembly builds from maintained packages (opus-decoder, mpg123-decoder, @wasm-audio-decoders/flac)
 * and the Ogg framing is codec-parser's: no ffmpeg or other binary, so a Vercel function and `npm start` behave alike.
 * Each is imported on first use: a request that needs no decoding (every translation, and speech that fits a provider
 * whole) never loads them. WebM is demuxed here (its Opus blocks are all a recorder writes), the rest by the packages.
 *
 * Decoded: WAV (PCM), MP3, OGG/Opus, WebM/Opus, FLAC. Not decoded (sent whole, where a provider takes them): M4A/AAC and
 * OGG/Vorbis — no maintained AAC decoder exists without native code, and voice apps do not send Vorbis.
 *
 * 16 kHz mono is what the speech models work on (Whisper resamples to it). A recording to be cut into windows is held
 * as 16-bit samples (`decodeToPcm16`), the precision its WAV windows carry: a ten-minute recording is 19 MB while it is
 * cut and sent, half what floats would take.
 */

/** The rate every decoded recording is brought to. */
export const PCM_SAMPLE_RATE = 16_000;

/** Formats this module turns into PCM (an OGG or WebM that does not carry Opus is refused by `decodeToPcm`). */
export const DECODED_FORMATS: readonly AudioFormat[] = ["wav", "mp3", "ogg", "webm", "flac"];

/** Mono float samples in [-1, 1] at PCM_SAMPLE_RATE. */
export type Pcm = Float32Array;
/** Mono signed 16-bit samples at PCM_SAMPLE_RATE. */
export type Pcm16 = Int16Array;

/** The recording could not be decoded (a codec this module does not carry, or bytes its decoder refuses). */
export class UndecodableAudio extends Error {
  override readonly name = "UndecodableAudio";
}

/** Bytes fed to a streaming decoder at a time: its output is folded to 16 kHz mono before the next chunk. */
const CHUNK_BYTES = 256 * 1024;
/** Opus frames decoded per call. */
const OPUS_FRAMES_PER_CALL = 200;

/** `bytes` (of `format`, as recognised by lib/speech) as 16 kHz mono float samples. `durationSeconds` sizes the buffer. */
export async function decodeToPcm(bytes: Uint8Array, format: AudioFormat, durationSeconds = 0): Promise<Pcm> {
  return decodeInto(bytes, format, new PcmCollector(durationSeconds, Float32Array, (v) => v));
}

/** `bytes` as 16 kHz mono 16-bit samples (half the memory of decodeToPcm's), for recordings sent on as 16-bit WAV. */
export async function decodeToPcm16(bytes: Uint8Array, format: AudioFormat, durationSeconds = 0): Promise<Pcm16> {
  return decodeInto(bytes, format, new PcmCollector(durationSeconds, Int16Array, sample16));
}

async function decodeInto<T extends Pcm | Pcm16>(bytes: Uint8Array, format: AudioFormat, out: PcmCollector<T>): Promise<T> {
  switch (format) {
    case "wav":
      decodeWav(bytes, out);
      break;
    case "mp3":
      await decodeMp3(bytes, out);
      break;
    case "flac":
      await decodeFlac(bytes, out);
      break;
    case "ogg":
      await decodeOpus(oggOpus(await oggPackets(bytes)), out);
      break;
    case "webm":
      await decodeOpus(webmOpus(bytes), out);
      break;
    default:
      throw new UndecodableAudio(`${format} audio is not decoded in-process`);
  }
  return out.result();
}

/**
 * Collects decoded audio as 16 kHz mono, averaging channels and resampling as it goes (so no full-rate copy is kept),
 * each sample stored as `store` turns it (a float in [-1, 1]) into the array's type.
 */
class PcmCollector<T extends Pcm | Pcm16> {
  private buffer: T;
  private length = 0;
  /** Resampling state: the position (in input samples) of the next output sample, and the partial box sum. */
  private position = 0;
  private sum = 0;
  private count = 0;
  private inputIndex = 0;
  private last = 0;

  constructor(
    durationSeconds: number,
    private readonly ArrayType: new (length: number) => T,
    private readonly store: (v: number) => number,
  ) {
    this.buffer = new ArrayType(Math.ceil((durationSeconds + 1) * PCM_SAMPLE_RATE));
  }

  /** Appends `channels` (all the same length) sampled at `rate`. */
  push(channels: readonly Float32Array[], rate: number): void {
    const n = channels[0]?.length ?? 0;
    if (n === 0) return;
    const step = rate / PCM_SAMPLE_RATE;
    for (let i = 0; i < n; i++) {
      let v = 0;
      for (const c of channels) v += c[i];
      v /= channels.length;
      if (step === 1) {
        this.append(v);
        continue;
      }
      // Box filter over each output sample's span of input samples: a plain low-pass before decimating, enough for speech.
      this.sum += v;
      this.count += 1;
      this.inputIndex += 1;
      while (this.inputIndex >= this.position + step) {
        // Upsampling (a rate under 16 kHz) repeats the last value where a span holds no input sample.
        if (this.count > 0) this.last = this.sum / this.count;
        this.append(this.last);
        this.sum = 0;
        this.count = 0;
        this.position += step;
      }
    }
  }

  private append(v: number) {
    if (this.length === this.buffer.length) {
      const grown = new this.ArrayType(Math.max(PCM_SAMPLE_RATE, this.buffer.length * 2));
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = this.store(v);
  }

  result(): T {
    if (this.count > 0) this.append(this.sum / this.count);
    if (this.length === 0) throw new UndecodableAudio("no audio was decoded");
    return this.buffer.subarray(0, this.length) as T;
  }
}

function decodeWav(bytes: Uint8Array, out: PcmCollector<Pcm | Pcm16>) {
  const layout = pcmLayout(bytes);
  if (!layout) throw new UndecodableAudio("not a PCM WAV file");
  const { sampleRate, channels, bitsPerSample, float, blockAlign, dataOffset, dataBytes } = layout;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames = dataBytes / blockAlign;
  const width = bitsPerSample / 8;
  const block = 16_384;
  for (let from = 0; from < frames; from += block) {
    const count = Math.min(block, frames - from);
    const data = Array.from({ length: channels }, () => new Float32Array(count));
    for (let f = 0; f < count; f++) {
      for (let c = 0; c < channels; c++) {
        const at = dataOffset + (from + f) * blockAlign + c * width;
        data[c][f] = pcmSample(view, at, width, float);
      }
    }
    out.push(data, sampleRate);
  }
}

interface DecodedChunk {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
  errors: unknown[];
}

/** Runs a streaming decoder over `bytes` in chunks; a decoder that reports errors on every chunk has nothing to give. */
function feed(bytes: Uint8Array, decode: (chunk: Uint8Array) => DecodedChunk, out: PcmCollector<Pcm | Pcm16>) {
  for (let offset = 0; offset < bytes.byteLength; offset += CHUNK_BYTES) {
    const chunk = decode(bytes.subarray(offset, offset + CHUNK_BYTES));
    if (chunk.samplesDecoded > 0) out.push(chunk.channelData, chunk.sampleRate);
  }
}

async function decodeMp3(bytes: Uint8Array, out: PcmCollector<Pcm | Pcm16>) {
  const { MPEGDecoder } = await import("mpg123-decoder");
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    feed(bytes, (chunk) => decoder.decode(chunk), out);
  } finally {
    decoder.free();
  }
}

async function decodeFlac(bytes: Uint8Array, out: PcmCollector<Pcm | Pcm16>) {
  const { FLACDecoder } = await import("@wasm-audio-decoders/flac");
  const decoder = new FLACDecoder();
  await decoder.ready;
  try {
    for (let offset = 0; offset < bytes.byteLength; offset += CHUNK_BYTES) {
      const chunk = await decoder.decode(bytes.subarray(offset, offset + CHUNK_BYTES));
      if (chunk.samplesDecoded > 0) out.push(chunk.channelData, chunk.sampleRate);
    }
    const rest = await decoder.flush();
    if (rest.samplesDecoded > 0) out.push(rest.channelData, rest.sampleRate);
  } finally {
    decoder.free();
  }
}

/** An Opus stream: its identification header ("OpusHead") and its audio packets, in order. */
interface OpusStream {
  head: Uint8Array;
  packets: Iterable<Uint8Array>;
}

/** The fields of an OpusHead (RFC 7845 §5.1) the decoder needs. */
function parseOpusHead(head: Uint8Array) {
  const ascii = String.fromCharCode(...head.subarray(0, 8));
  if (ascii !== "OpusHead" || head.byteLength < 19) throw new UndecodableAudio("the stream does not carry Opus");
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const channels = head[9];
  const preSkip = view.getUint16(10, true);
  const family = head[18];
  if (family === 0)
    return { channels, preSkip, streamCount: 1, coupledStreamCount: channels > 1 ? 1 : 0, channelMappingTable: channels > 1 ? [0, 1] : [0] };
  return {
    channels,
    preSkip,
    streamCount: head[19],
    coupledStreamCount: head[20],
    channelMappingTable: [...head.subarray(21, 21 + channels)],
  };
}

async function decodeOpus(stream: OpusStream, out: PcmCollector<Pcm | Pcm16>) {
  const head = parseOpusHead(stream.head);
  const { OpusDecoder } = await import("opus-decoder");
  const decoder = new OpusDecoder({
    sampleRate: PCM_SAMPLE_RATE,
    channels: head.channels,
    streamCount: head.streamCount,
    coupledStreamCount: head.coupledStreamCount,
    channelMappingTable: head.channelMappingTable,
    // preSkip is counted at 48 kHz.
    preSkip: Math.round((head.preSkip * PCM_SAMPLE_RATE) / 48_000),
  });
  await decoder.ready;
  try {
    let batch: Uint8Array[] = [];
    const flush = () => {
      if (batch.length === 0) return;
      const chunk = decoder.decodeFrames(batch);
      if (chunk.samplesDecoded > 0) out.push(chunk.channelData, PCM_SAMPLE_RATE);
      batch = [];
    };
    for (const packet of stream.packets) {
      batch.push(packet);
      if (batch.length >= OPUS_FRAMES_PER_CALL) flush();
    }
    flush();
  } finally {
    decoder.free();
  }
}

/** The Ogg pages' packets, framed by codec-parser; undefined codec means the stream carries no codec it knows. */
async function oggPackets(bytes: Uint8Array): Promise<{ codec: string | undefined; head: Uint8Array | undefined; packets: Uint8Array[] }> {
  const { default: CodecParser } = await import("codec-parser");
  let codec: string | undefined;
  const parser = new CodecParser("audio/ogg", { onCodec: (c) => void (codec = c), enableFrameCRC32: false });
  const packets: Uint8Array[] = [];
  let head: Uint8Array | undefined;
  for (const page of parser.parseAll(bytes) as import("codec-parser").OggPage[]) {
    for (const frame of page.codecFrames) {
      head ??= (frame.header as import("codec-parser").OpusHeader).data;
      packets.push(frame.data);
    }
  }
  return { codec, head, packets };
}

function oggOpus(ogg: Awaited<ReturnType<typeof oggPackets>>): OpusStream {
  if (ogg.codec !== "opus" || !ogg.head) throw new UndecodableAudio(`OGG carrying ${ogg.codec ?? "no known codec"} is not decoded in-process`);
  return { head: ogg.head, packets: ogg.packets };
}

/** EBML element ids this demuxer reads. */
const EBML = {
  Segment: 0x18538067,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  CodecID: 0x86,
  CodecPrivate: 0x63a2,
  Cluster: 0x1f43b675,
  BlockGroup: 0xa0,
  Block: 0xa1,
  SimpleBlock: 0xa3,
} as const;
const DESCEND = new Set<number>([EBML.Segment, EBML.Tracks, EBML.TrackEntry, EBML.Cluster, EBML.BlockGroup]);

/**
 * The Opus track of a WebM file: CodecPrivate (the OpusHead) and the frames of its blocks, in file order. Elements of
 * unknown size (a live recorder's Segment and Clusters) are descended into like any other container. Laced blocks are
 * not written by recorders or by ffmpeg for Opus, and are refused.
 */
function webmOpus(bytes: Uint8Array): OpusStream {
  const tracks = new Map<number, { codec?: string; head?: Uint8Array }>();
  let current: { number?: number; codec?: string; head?: Uint8Array } | undefined;
  const frames: { track: number; data: Uint8Array }[] = [];
  const header = readVint(bytes, 0, true);
  const headerSize = header && readVint(bytes, header.length, false);
  if (!header || !headerSize || headerSize.value === undefined) throw new UndecodableAudio("the WebM header is incomplete");
  let offset = header.length + headerSize.length + headerSize.value;
  const closeTrack = () => {
    if (current?.number !== undefined) tracks.set(current.number, { codec: current.codec, head: current.head });
    current = undefined;
  };
  while (offset < bytes.byteLength) {
    const id = readVint(bytes, offset, true);
    const size = id && readVint(bytes, offset + id.length, false);
    if (!id || !size || id.value === undefined) break;
    const body = offset + id.length + size.length;
    if (id.value === EBML.TrackEntry) {
      closeTrack();
      current = {};
    } else if (id.value === EBML.Cluster) closeTrack();
    if (DESCEND.has(id.value)) {
      offset = body;
      continue;
    }
    if (size.value === undefined || body + size.value > bytes.byteLength) break;
    const content = bytes.subarray(body, body + size.value);
    if (current && id.value === EBML.TrackNumber) current.number = content.reduce((n, b) => n * 256 + b, 0);
    else if (current && id.value === EBML.CodecID) current.codec = String.fromCharCode(...content);
    else if (current && id.value === EBML.CodecPrivate) current.head = content;
    else if (id.value === EBML.SimpleBlock || id.value === EBML.Block) {
      const track = readVint(content, 0, false);
      if (track?.value !== undefined && content.byteLength > track.length + 3) {
        const flags = content[track.length + 2];
        if ((flags & 0x06) !== 0) throw new UndecodableAudio("laced WebM blocks are not decoded in-process");
        frames.push({ track: track.value, data: content.subarray(track.length + 3) });
      }
    }
    offset = body + size.value;
  }
  closeTrack();
  const opus = [...tracks.entries()].find(([, t]) => t.codec === "A_OPUS");
  if (!opus?.[1].head) throw new UndecodableAudio("the WebM file carries no Opus track");
  const number = opus[0];
  return { head: opus[1].head, packets: frames.filter((f) => f.track === number).map((f) => f.data) };
}
