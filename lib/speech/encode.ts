import { decodeToPcm, PCM_SAMPLE_RATE, type Pcm } from "@/lib/providers/decode";
import type { AudioFormat } from "./audio";
import { MP3_KBITS_PER_SECOND, OPUS_BITS_PER_SECOND, type TtsFormat } from "./formats";

/**
 * MP3 and Ogg/Opus encoding of text-to-speech answers (lib/speech/formats.ts). The encoders are imported on first use,
 * so a process that answers only WAV never loads them.
 */

/** 20 ms Opus frames at 16 kHz. */
const OPUS_FRAME_SAMPLES = PCM_SAMPLE_RATE / 50;

export interface EncodedSpeech {
  audio: Uint8Array;
  durationSeconds: number;
}

/** `audio` (of `source` format, from a provider) in `format` ("wav" is not encoded: the caller passes it through). */
export async function encodeSpeech(audio: Uint8Array, source: AudioFormat, format: Exclude<TtsFormat, "wav">): Promise<EncodedSpeech> {
  const pcm = await decodeToPcm(audio, source);
  const durationSeconds = pcm.length / PCM_SAMPLE_RATE;
  return { audio: format === "mp3" ? await encodeMp3(pcm) : await encodeOggOpus(pcm), durationSeconds };
}

/**
 * `audio` (of `source` format, from a provider) as raw samples without a header: 16-bit signed little-endian mono at
 * `rate` (OpenAI's `pcm` is 24 kHz). The 16 kHz decoded audio is brought to `rate` by linear interpolation.
 */
export async function encodeRawPcm(audio: Uint8Array, source: AudioFormat, rate: number): Promise<EncodedSpeech> {
  const pcm = await decodeToPcm(audio, source);
  const length = Math.floor((pcm.length * rate) / PCM_SAMPLE_RATE);
  const out = new Uint8Array(length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < length; i++) {
    const at = (i * PCM_SAMPLE_RATE) / rate;
    const j = Math.floor(at);
    const next = j + 1 < pcm.length ? pcm[j + 1] : pcm[j];
    const s = Math.max(-1, Math.min(1, pcm[j] + (next - pcm[j]) * (at - j)));
    view.setInt16(i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
  }
  return { audio: out, durationSeconds: pcm.length / PCM_SAMPLE_RATE };
}

function toInt16(pcm: Pcm, from: number, to: number): Int16Array {
  const out = new Int16Array(to - from);
  for (let i = from; i < to && i < pcm.length; i++) {
    const s = Math.max(-1, Math.min(1, pcm[i]));
    out[i - from] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}

async function encodeMp3(pcm: Pcm): Promise<Uint8Array> {
  const { Mp3Encoder } = await import("@breezystack/lamejs");
  const encoder = new Mp3Encoder(1, PCM_SAMPLE_RATE, MP3_KBITS_PER_SECOND);
  const parts: Uint8Array[] = [];
  const block = 1152 * 16;
  for (let i = 0; i < pcm.length; i += block) parts.push(encoder.encodeBuffer(toInt16(pcm, i, Math.min(pcm.length, i + block))));
  parts.push(encoder.flush());
  return concat(parts);
}

async function encodeOggOpus(pcm: Pcm): Promise<Uint8Array> {
  const { default: OpusScript } = await import("opusscript");
  const encoder = new OpusScript(PCM_SAMPLE_RATE, 1, OpusScript.Application.VOIP);
  try {
    encoder.setBitrate(OPUS_BITS_PER_SECOND);
    const packets: Uint8Array[] = [];
    for (let i = 0; i < pcm.length; i += OPUS_FRAME_SAMPLES) {
      // The last frame is padded with silence; the end granule position tells players where the audio really ends.
      const frame = toInt16(pcm, i, i + OPUS_FRAME_SAMPLES);
      packets.push(Uint8Array.from(encoder.encode(Buffer.from(frame.buffer), OPUS_FRAME_SAMPLES)));
    }
    return oggOpusFile(packets, { inputSampleRate: PCM_SAMPLE_RATE, samples: pcm.length, frameSamples: OPUS_FRAME_SAMPLES });
  } finally {
    encoder.delete();
  }
}

/** libopus's encoder delay at 48 kHz (6.5 ms): the pre-skip a decoder drops from the start. */
export const OPUS_PRE_SKIP = 312;
/** Opus granule positions count 48 kHz samples, whatever the input rate. */
const GRANULE_RATE = 48_000;
/** Audio packets per Ogg page: about a second of 20 ms frames, so a page stays well under the 255-segment limit. */
const PACKETS_PER_PAGE = 50;

/**
 * An Ogg Opus file (RFC 7845) from Opus packets of one mono stream: the OpusHead page, the OpusTags page, then pages
 * of audio packets, each with the granule position (48 kHz samples, pre-skip included) of the last sample it
 * completes; the last page's position is the real end, so the padding of the last frame is not played.
 */
export function oggOpusFile(packets: readonly Uint8Array[], stream: { inputSampleRate: number; samples: number; frameSamples: number }): Uint8Array {
  const serial = 0x4c756768; // "Lugh"
  const toGranule = (samples: number) => Math.round((samples * GRANULE_RATE) / stream.inputSampleRate);
  const head = new Uint8Array(19);
  const headView = new DataView(head.buffer);
  head.set(new TextEncoder().encode("OpusHead"), 0);
  head[8] = 1; // version
  head[9] = 1; // channels
  headView.setUint16(10, OPUS_PRE_SKIP, true);
  headView.setUint32(12, stream.inputSampleRate, true);
  headView.setInt16(16, 0, true); // output gain
  head[18] = 0; // channel mapping family 0: mono or stereo
  const vendor = new TextEncoder().encode("Lugha");
  const tags = new Uint8Array(8 + 4 + vendor.length + 4);
  tags.set(new TextEncoder().encode("OpusTags"), 0);
  new DataView(tags.buffer).setUint32(8, vendor.length, true);
  tags.set(vendor, 12);
  // user comment list length: 0 (the last four bytes, already zero)

  const pages: Uint8Array[] = [oggPage([head], { serial, sequence: 0, granule: 0, bos: true, eos: false })];
  pages.push(oggPage([tags], { serial, sequence: 1, granule: 0, bos: false, eos: false }));
  for (let first = 0, sequence = 2; first < packets.length || sequence === 2; first += PACKETS_PER_PAGE, sequence++) {
    const chunk = packets.slice(first, first + PACKETS_PER_PAGE);
    const last = first + chunk.length >= packets.length;
    const samples = last ? stream.samples : (first + chunk.length) * stream.frameSamples;
    pages.push(oggPage(chunk, { serial, sequence, granule: OPUS_PRE_SKIP + toGranule(samples), bos: false, eos: last }));
  }
  return concat(pages);
}

/** One Ogg page holding whole packets (none continued across pages). */
export function oggPage(
  packets: readonly Uint8Array[],
  page: { serial: number; sequence: number; granule: number; bos: boolean; eos: boolean },
): Uint8Array {
  const lacing: number[] = [];
  for (const packet of packets) {
    for (let left = packet.length; ; left -= 255) {
      lacing.push(Math.min(255, left));
      if (left < 255) break;
    }
  }
  if (lacing.length > 255) throw new Error("an Ogg page holds at most 255 segments");
  const bodyLength = packets.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(27 + lacing.length + bodyLength);
  const view = new DataView(out.buffer);
  out.set([0x4f, 0x67, 0x67, 0x53], 0); // "OggS"
  out[4] = 0; // version
  out[5] = (page.bos ? 2 : 0) | (page.eos ? 4 : 0);
  view.setBigInt64(6, BigInt(page.granule), true);
  view.setUint32(14, page.serial, true);
  view.setUint32(18, page.sequence, true);
  // checksum at 22, computed over the page with that field zero
  out[26] = lacing.length;
  out.set(lacing, 27);
  let at = 27 + lacing.length;
  for (const packet of packets) {
    out.set(packet, at);
    at += packet.length;
  }
  view.setUint32(22, oggCrc(out), true);
  return out;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32: polynomial 0x04c11db7, not reflected, initial value 0, no final XOR. */
export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]) >>> 0;
  return crc;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
