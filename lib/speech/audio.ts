import { readVint } from "@/lib/kit/ebml";
import { ApiError } from "@/lib/kit/errors";
import type { AudioFormat } from "@/lib/providers/descriptor";

/**
 * Audio checks for uploads (speech-to-text) and for what providers synthesise (text-to-speech).
 *
 * The format is recognised by the file's bytes (file-type's magic numbers), never by its name or the declared type: a
 * text file renamed .wav is not audio, and an MP3 declared as application/octet-stream is an MP3. The container is then
 * parsed (music-metadata) for its audio track and duration, and checked against what its own header declares, so an
 * upload cut short in transit is refused instead of being half-transcribed.
 *
 * Accepted: WAV, MP3, OGG (Opus, Vorbis, FLAC, Speex), WebM (audio only), FLAC, M4A (MP4 audio: AAC/ALAC).
 * Refused with 415 UNSUPPORTED_MEDIA_TYPE: empty files, anything else (text, images, AAC/ADTS, AMR, video files),
 * files whose header is cut or whose audio is shorter than the header says, and files with no decodable duration.
 */

export type { AudioFormat };
export const AUDIO_FORMATS: readonly AudioFormat[] = ["wav", "mp3", "ogg", "webm", "flac", "m4a"];

/** The media type sent upstream and reported to the caller, one per format. */
export const AUDIO_CONTENT_TYPES: Readonly<Record<AudioFormat, string>> = {
  wav: "audio/wav",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  webm: "audio/webm",
  flac: "audio/flac",
  m4a: "audio/mp4",
};

export const FORMAT_NAMES: Readonly<Record<AudioFormat, string>> = {
  wav: "WAV",
  mp3: "MP3",
  ogg: "OGG",
  webm: "WebM",
  flac: "FLAC",
  m4a: "M4A",
};

export const ACCEPTED_FORMATS_TEXT = "WAV, MP3, OGG/Opus, WebM, FLAC or M4A";

export interface AudioInfo {
  format: AudioFormat;
  contentType: string;
  /** Seconds of audio actually present in the file. */
  durationSeconds: number;
  sampleRate?: number;
  channels?: number;
  codec?: string;
}

/** Why a file was refused; `message` is ours (no file content is quoted) and safe to return. */
export class AudioRejected extends Error {
  override readonly name = "AudioRejected";
  constructor(
    readonly reason: "empty" | "not_audio" | "unsupported_format" | "video" | "truncated" | "no_duration",
    message: string,
  ) {
    super(message);
  }
}

/** file-type's answer → our format; video containers are accepted here and checked for an audio-only track below. */
const BY_EXTENSION: Readonly<Record<string, AudioFormat>> = {
  wav: "wav",
  mp3: "mp3",
  ogg: "ogg",
  oga: "ogg",
  opus: "ogg",
  spx: "ogg",
  webm: "webm",
  flac: "flac",
  m4a: "m4a",
  mp4: "m4a",
  m4b: "m4a",
};

/** Allowed deficit between the duration a header declares and the audio present (rounding, padding, encoder delay). */
const TOLERANCE_SECONDS = 0.25;
const TOLERANCE_RATIO = 0.02;

/**
 * The sniffing and metadata parsers, loaded on first use: they are large, and the translate routes, which share
 * modules with speech, never need them — imported up front they lengthened every cold start.
 */
async function audioParsers() {
  const [{ fileTypeFromBuffer }, { parseBuffer }] = await Promise.all([import("file-type"), import("music-metadata")]);
  return { fileTypeFromBuffer, parseBuffer };
}

/**
 * Identifies and measures `bytes`. Throws AudioRejected (use `asUnsupportedMedia` for the API error) when the bytes are
 * not complete audio in one of the accepted formats.
 */
export async function analyzeAudio(bytes: Uint8Array): Promise<AudioInfo> {
  return canonicalPcmWav(bytes) ?? analyzeWithParsers(bytes);
}

/**
 * The WAV most encoders and the speech providers write, read without the parsers: RIFF/WAVE, a 16-byte `fmt ` chunk
 * of PCM (format 1), then the `data` chunk, whole, ending the file. What the parsers report for it, computed as they do
 * (audio.test.ts holds the two equal); any other layout, a streaming size or a cut file goes to the parsers. Loading
 * file-type and music-metadata was ≈50 ms of a function's first TTS or STT answer (docs/benchmark.md, "The gate on one
 * core"); Khaya's synthesis, Sunbird's Orpheus voices, the sandbox's and many uploads are WAV.
 */
export function canonicalPcmWav(bytes: Uint8Array): AudioInfo | undefined {
  if (bytes.byteLength < 46 || ascii(bytes, 0) !== "RIFF" || ascii(bytes, 8) !== "WAVE" || ascii(bytes, 12) !== "fmt " || ascii(bytes, 36) !== "data")
    return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(4, true) !== bytes.byteLength - 8 || view.getUint32(16, true) !== 16 || view.getUint16(20, true) !== 1) return undefined;
  const channels = view.getUint16(22, true);
  const sampleRate = view.getUint32(24, true);
  const blockAlign = view.getUint16(32, true);
  const size = view.getUint32(40, true);
  if (!channels || !sampleRate || !blockAlign || size < blockAlign || 44 + size + (size % 2) !== bytes.byteLength) return undefined;
  const duration = size / blockAlign / sampleRate;
  return { format: "wav", contentType: AUDIO_CONTENT_TYPES.wav, durationSeconds: duration, sampleRate, channels, codec: "PCM" };
}

/** analyzeAudio for any file: the format by its bytes (file-type), the container parsed (music-metadata) and checked. */
export async function analyzeWithParsers(bytes: Uint8Array): Promise<AudioInfo> {
  if (bytes.byteLength === 0) throw new AudioRejected("empty", "The audio file is empty.");
  const { fileTypeFromBuffer, parseBuffer } = await audioParsers();
  const detected = await fileTypeFromBuffer(bytes).catch(() => undefined);
  if (!detected) {
    throw new AudioRejected(
      "not_audio",
      `The uploaded file is not audio in a supported format (${ACCEPTED_FORMATS_TEXT}); its bytes match none of them. The file name and declared type are not used to decide.`,
    );
  }
  const format = BY_EXTENSION[detected.ext];
  if (!format) {
    const what = detected.mime.startsWith("audio/") ? `${detected.ext.toUpperCase()} audio` : `a ${detected.mime} file`;
    throw new AudioRejected("unsupported_format", `The uploaded file is ${what}, which is not accepted. Send ${ACCEPTED_FORMATS_TEXT}.`);
  }
  const name = FORMAT_NAMES[format];

  // Structural checks first: they catch a cut header before the parser guesses from whatever is left.
  const structural = structuralCheck(format, bytes);
  if (structural) throw new AudioRejected("truncated", `The ${name} file is truncated or corrupt (${structural}).`);

  const parse = (part: Uint8Array) =>
    parseBuffer(part, { mimeType: AUDIO_CONTENT_TYPES[format], size: part.byteLength }, { duration: true, skipCovers: true });
  let meta: Awaited<ReturnType<typeof parseBuffer>>;
  try {
    meta = await parse(bytes);
  } catch {
    // A browser's MediaRecorder writes its clusters with an unknown size, which the parser cannot step over: its tracks
    // are read from what precedes the first cluster, and its length is measured from the blocks (webmSecondsPresent).
    const head = format === "webm" ? webmBeforeLiveCluster(bytes) : undefined;
    const fromHead = head && (await parse(head).catch(() => undefined));
    if (!fromHead) throw new AudioRejected("truncated", `The ${name} file is truncated or corrupt: it could not be read.`);
    meta = fromHead;
  }
  const f = meta.format;
  if (f.hasVideo) {
    throw new AudioRejected(
      "video",
      `The uploaded ${name === "M4A" ? "MP4" : name} file contains video. Send an audio-only file (${ACCEPTED_FORMATS_TEXT}).`,
    );
  }
  if (f.hasAudio === false) throw new AudioRejected("no_duration", `The ${name} file contains no audio track.`);

  let duration = f.duration;
  // MP3: a Xing/Info header declares the length; the frames actually present are counted into numberOfSamples.
  if (format === "mp3" && f.numberOfSamples && f.sampleRate) {
    const present = f.numberOfSamples / f.sampleRate;
    if (duration !== undefined && isShort(present, duration)) {
      throw new AudioRejected(
        "truncated",
        `The ${name} file is truncated: its header declares ${duration.toFixed(2)} s, but only ${present.toFixed(2)} s of audio is present.`,
      );
    }
    duration ??= present;
  }
  // FLAC: STREAMINFO declares the total (0 when a streaming encoder did not know it); the last frame says what is there.
  if (format === "flac") {
    const present = flacSecondsPresent(bytes);
    if (present !== undefined && duration !== undefined && isShort(present, duration)) {
      throw new AudioRejected(
        "truncated",
        `The ${name} file is truncated: its header declares ${duration.toFixed(2)} s, but only about ${present.toFixed(2)} s of audio is present.`,
      );
    }
    duration ??= present;
  }
  // WebM from a live recorder (a browser's MediaRecorder) has no Duration element: measured from the last block.
  if (format === "webm" && duration === undefined) duration = webmSecondsPresent(bytes);
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0) {
    throw new AudioRejected("no_duration", `The ${name} file is truncated or corrupt: it contains no measurable audio.`);
  }
  return {
    format,
    contentType: AUDIO_CONTENT_TYPES[format],
    durationSeconds: duration,
    ...(f.sampleRate ? { sampleRate: f.sampleRate } : {}),
    ...(f.numberOfChannels ? { channels: f.numberOfChannels } : {}),
    ...(f.codec ? { codec: f.codec } : {}),
  };
}

/** The API error for a refused upload: 415 UNSUPPORTED_MEDIA_TYPE with field errors on `loc`. */
export function asUnsupportedMedia(err: AudioRejected, loc: (string | number)[] = ["body", "audio"]): ApiError {
  return new ApiError("UNSUPPORTED_MEDIA_TYPE", err.message, { errors: [{ loc, msg: err.message, type: `audio_${err.reason}` }] });
}

function isShort(present: number, declared: number): boolean {
  return present < declared - Math.max(TOLERANCE_SECONDS, declared * TOLERANCE_RATIO);
}

/** A reason when the container's own framing says the file is cut; undefined when it looks whole. */
function structuralCheck(format: AudioFormat, bytes: Uint8Array): string | undefined {
  switch (format) {
    case "wav":
      return checkWav(bytes);
    case "webm":
      return checkEbml(bytes);
    case "m4a":
      return checkIsoBoxes(bytes);
    case "flac":
      return bytes.byteLength < 42 ? "the stream header is incomplete" : undefined;
    case "ogg":
      return checkOgg(bytes);
    default:
      return undefined;
  }
}

const ascii = (bytes: Uint8Array, offset: number, length = 4) => String.fromCharCode(...bytes.subarray(offset, offset + length));

/**
 * RIFF/WAVE: a fmt chunk, then a data chunk whose declared size is present. Streaming recorders that never patch the
 * header write 0 or 0xFFFFFFFF as the data size; those are measured by what is there.
 */
function checkWav(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let blockAlign = 0;
  for (let offset = 12; ; ) {
    if (offset + 8 > bytes.byteLength) return blockAlign ? "the data chunk is missing" : "the header is incomplete";
    const id = ascii(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    if (id === "fmt ") {
      if (offset + 8 + 16 > bytes.byteLength) return "the header is incomplete";
      blockAlign = view.getUint16(offset + 20, true) || 1;
    } else if (id === "data") {
      if (!blockAlign) return "the data chunk comes before the format chunk";
      const available = bytes.byteLength - offset - 8;
      if (available < blockAlign) return "it contains no audio samples";
      if (size !== 0 && size !== 0xffffffff && available + blockAlign <= size) {
        return `the header declares ${size} bytes of audio, but only ${available} are present`;
      }
      return undefined;
    }
    offset += 8 + size + (size % 2);
  }
}

/**
 * OGG: a chain of pages, each whole, the last one flagged end-of-stream. A file cut anywhere ends in a partial page or
 * without that flag (Ogg declares no total length, so this is how a cut shows).
 */
function checkOgg(bytes: Uint8Array): string | undefined {
  let offset = 0;
  let lastFlags = 0;
  while (offset < bytes.byteLength) {
    if (offset + 27 > bytes.byteLength) return "the last page is incomplete";
    if (ascii(bytes, offset) !== "OggS") return "a page does not start where the previous one ended";
    lastFlags = bytes[offset + 5];
    const segments = bytes[offset + 26];
    if (offset + 27 + segments > bytes.byteLength) return "the last page is incomplete";
    let body = 0;
    for (let i = 0; i < segments; i++) body += bytes[offset + 27 + i];
    offset += 27 + segments + body;
    if (offset > bytes.byteLength) return "the last page is incomplete";
  }
  return lastFlags & 0x04 ? undefined : "the stream ends without its end-of-stream page";
}

/** WebM/Matroska: the EBML header, then a Segment whose declared size (unless "unknown", as live recorders write) fits. */
function checkEbml(bytes: Uint8Array): string | undefined {
  const headerId = readVint(bytes, 0, true);
  const headerSize = headerId && readVint(bytes, headerId.length);
  if (!headerId || !headerSize || headerSize.value === undefined) return "the header is incomplete";
  const segmentAt = headerId.length + headerSize.length + headerSize.value;
  const segmentId = readVint(bytes, segmentAt, true);
  const segmentSize = segmentId && readVint(bytes, segmentAt + segmentId.length);
  if (!segmentId || !segmentSize) return "the segment is missing";
  if (segmentId.value !== 0x18538067) return "the segment is missing";
  if (segmentSize.value === undefined) return undefined;
  const end = segmentAt + segmentId.length + segmentSize.length + segmentSize.value;
  if (end > bytes.byteLength) return `the segment declares ${segmentSize.value} bytes, but only ${bytes.byteLength - segmentAt} are present`;
  return undefined;
}

/** MP4/M4A: the top-level boxes (ftyp, moov, mdat, ...) must each fit in the file. */
function checkIsoBoxes(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  let sawMoov = false;
  while (offset < bytes.byteLength) {
    if (offset + 8 > bytes.byteLength) return "a box header is incomplete";
    let size = view.getUint32(offset);
    const type = ascii(bytes, offset + 4);
    if (size === 1) {
      if (offset + 16 > bytes.byteLength) return "a box header is incomplete";
      size = Number(view.getBigUint64(offset + 8));
    } else if (size === 0) {
      size = bytes.byteLength - offset; // "to the end of the file"
    }
    if (size < 8) return "a box has an invalid size";
    if (offset + size > bytes.byteLength)
      return `the ${type.replace(/[^\x20-\x7e]/g, "?")} box declares ${size} bytes, but only ${bytes.byteLength - offset} are present`;
    if (type === "moov") sawMoov = true;
    offset += size;
  }
  return sawMoov ? undefined : "the index (moov box) is missing";
}

/**
 * FLAC: how many seconds the frames present cover, from the last frame header (sync code + CRC-8 checked) and the
 * STREAMINFO block sizes. Undefined when the stream does not say (no total, or no frame found to measure by).
 */
function flacSecondsPresent(bytes: Uint8Array): number | undefined {
  if (ascii(bytes, 0) !== "fLaC" || bytes.byteLength < 42) return undefined;
  // STREAMINFO is always the first metadata block: 4-byte block header, then min/max block size, frame sizes, ...
  const si = 8;
  const maxBlock = (bytes[si + 2] << 8) | bytes[si + 3];
  const minBlock = (bytes[si] << 8) | bytes[si + 1];
  const sampleRate = (bytes[si + 10] << 12) | (bytes[si + 11] << 4) | (bytes[si + 12] >> 4);
  if (!sampleRate) return undefined;
  // Find where the frames start: walk the metadata blocks.
  let offset = 4;
  for (;;) {
    if (offset + 4 > bytes.byteLength) return 0;
    const last = (bytes[offset] & 0x80) !== 0;
    const length = (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3];
    offset += 4 + length;
    if (last) break;
  }
  const framesStart = offset;
  const searchFrom = Math.max(framesStart, bytes.byteLength - 256 * 1024);
  for (let i = bytes.byteLength - 6; i >= searchFrom; i--) {
    if (bytes[i] !== 0xff || (bytes[i + 1] & 0xfe) !== 0xf8) continue;
    const header = parseFlacFrameHeader(bytes, i, minBlock === maxBlock ? maxBlock : undefined);
    if (!header) continue;
    return (header.firstSample + header.blockSize) / sampleRate;
  }
  return bytes.byteLength > framesStart ? undefined : 0;
}

function parseFlacFrameHeader(bytes: Uint8Array, at: number, fixedBlock: number | undefined): { firstSample: number; blockSize: number } | undefined {
  const variable = (bytes[at + 1] & 0x01) === 1;
  const blockCode = bytes[at + 2] >> 4;
  const rateCode = bytes[at + 2] & 0x0f;
  if (blockCode === 0 || rateCode === 0x0f) return undefined;
  if (bytes[at + 3] >> 4 > 10 || (bytes[at + 3] & 0x01) !== 0) return undefined;
  // UTF-8-style coded frame or sample number.
  let p = at + 4;
  const lead = bytes[p];
  if (lead === undefined) return undefined;
  let extra = 0;
  let number: number;
  if (lead < 0x80) number = lead;
  else {
    extra = Math.clz32(~(lead << 24) >>> 0) - 1;
    if (extra < 1 || extra > 6) return undefined;
    number = lead & (0x3f >> extra);
  }
  for (let k = 1; k <= extra; k++) {
    const b = bytes[p + k];
    if (b === undefined || (b & 0xc0) !== 0x80) return undefined;
    number = number * 64 + (b & 0x3f);
  }
  p += 1 + extra;
  let blockSize: number;
  if (blockCode === 1) blockSize = 192;
  else if (blockCode <= 5) blockSize = 576 << (blockCode - 2);
  else if (blockCode === 6) blockSize = (bytes[p++] ?? 0) + 1;
  else if (blockCode === 7) {
    blockSize = (((bytes[p] ?? 0) << 8) | (bytes[p + 1] ?? 0)) + 1;
    p += 2;
  } else blockSize = 256 << (blockCode - 8);
  if (rateCode === 0x0c) p += 1;
  else if (rateCode === 0x0d || rateCode === 0x0e) p += 2;
  if (p >= bytes.byteLength || crc8(bytes, at, p) !== bytes[p]) return undefined;
  const firstSample = variable ? number : number * (fixedBlock ?? blockSize);
  return { firstSample, blockSize };
}

function crc8(bytes: Uint8Array, from: number, to: number): number {
  let crc = 0;
  for (let i = from; i < to; i++) {
    crc ^= bytes[i];
    for (let b = 0; b < 8; b++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

const EBML_CLUSTER = 0x1f43b675;
const EBML_CONTAINERS = new Set([0x18538067 /* Segment */, EBML_CLUSTER, 0xa0 /* BlockGroup */, 0x1549a966 /* Info */]);

/** The bytes of a WebM file before its first cluster, when that cluster's size is unknown (a live recording); else undefined. */
function webmBeforeLiveCluster(bytes: Uint8Array): Uint8Array | undefined {
  const headerId = readVint(bytes, 0, true);
  const headerSize = headerId && readVint(bytes, headerId.length);
  if (!headerId || !headerSize || headerSize.value === undefined) return undefined;
  const segmentAt = headerId.length + headerSize.length + headerSize.value;
  const segmentId = readVint(bytes, segmentAt, true);
  const segmentSize = segmentId && readVint(bytes, segmentAt + segmentId.length);
  if (!segmentId || !segmentSize) return undefined;
  let offset = segmentAt + segmentId.length + segmentSize.length;
  while (offset < bytes.byteLength) {
    const id = readVint(bytes, offset, true);
    const size = id && readVint(bytes, offset + id.length);
    if (!id || !size) return undefined;
    if (id.value === EBML_CLUSTER) return size.value === undefined ? bytes.subarray(0, offset) : undefined;
    if (size.value === undefined) return undefined;
    offset += id.length + size.length + size.value;
  }
  return undefined;
}

/**
 * Seconds covered by the blocks of a WebM file: the last cluster's timecode plus its last block's relative timecode,
 * in TimecodeScale units (default 1 ms). Clusters of unknown size (live recording) are walked like any other.
 */
function webmSecondsPresent(bytes: Uint8Array): number | undefined {
  const headerId = readVint(bytes, 0, true);
  const headerSize = headerId && readVint(bytes, headerId.length);
  if (!headerId || !headerSize || headerSize.value === undefined) return undefined;
  let offset = headerId.length + headerSize.length + headerSize.value;
  let scaleNs = 1_000_000;
  let clusterTime = 0;
  let last: number | undefined;
  while (offset < bytes.byteLength) {
    const id = readVint(bytes, offset, true);
    const size = id && readVint(bytes, offset + id.length);
    if (!id || !size || id.value === undefined) break;
    const body = offset + id.length + size.length;
    if (EBML_CONTAINERS.has(id.value)) {
      offset = body; // descend
      continue;
    }
    if (size.value === undefined || body + size.value > bytes.byteLength) break;
    if (id.value === 0x2ad7b1) scaleNs = readUint(bytes, body, size.value) || scaleNs;
    else if (id.value === 0xe7) clusterTime = readUint(bytes, body, size.value);
    else if (id.value === 0xa3 || id.value === 0xa1) {
      const track = readVint(bytes, body);
      if (track && body + track.length + 2 <= bytes.byteLength) {
        const relative = new DataView(bytes.buffer, bytes.byteOffset + body + track.length, 2).getInt16(0);
        last = Math.max(last ?? 0, clusterTime + relative);
      }
    }
    offset = body + size.value;
  }
  return last === undefined ? undefined : (last * scaleNs) / 1e9;
}

function readUint(bytes: Uint8Array, offset: number, length: number): number {
  let value = 0;
  for (let i = 0; i < length && i < 8; i++) value = value * 256 + bytes[offset + i];
  return value;
}
