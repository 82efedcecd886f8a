/**
 * Audio fixtures generated at test time: speech synthesised by eSpeak NG (the `espeak-ng` npm package, WebAssembly) and
 * encoded by the ffmpeg binary that `@ffmpeg-installer/ffmpeg` ships — every format the STT endpoint claims, the
 * variants live recorders produce, and the broken files it must refuse. Both come with `npm ci`; nothing binary is
 * committed. Generated once per test process into a temporary directory.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ffmpegInstaller from "@ffmpeg-installer/ffmpeg";
import { call } from "./api";
import { speak } from "./espeak";

const run = promisify(execFile);
const FFMPEG_BIN = process.env.FFMPEG_PATH ?? ffmpegInstaller.path;

export type FixtureFormat = "wav" | "mp3" | "ogg" | "webm" | "flac" | "m4a";
export const FIXTURE_FORMATS: readonly FixtureFormat[] = ["wav", "mp3", "ogg", "webm", "flac", "m4a"];

export interface AudioFile {
  name: string;
  bytes: Uint8Array;
  /** What the format is, by its bytes. */
  contentType: string;
}

export interface AudioFixtures {
  dir: string;
  /** The spoken sentence. */
  sentence: string;
  /** Duration of the source WAV (seconds, from its header); every encoding is within ~0.1 s of it. */
  durationSeconds: number;
  /** One well-formed file per claimed format (16 kHz mono speech; OGG and WebM carry Opus, M4A carries AAC). */
  files: Record<FixtureFormat, AudioFile>;
  /** What live recorders write: headers without a length (WAV 0xFFFFFFFF, WebM unknown-size segment, FLAC no total). */
  streamed: { wav: AudioFile; webm: AudioFile; flac: AudioFile; mp3: AudioFile };
  /** OGG carrying Vorbis (not Opus), an MP3 behind an ID3v2 tag with variable bit rate, a 24-bit 44.1 kHz stereo FLAC. */
  variants: AudioFile[];
  /** A UTF-8 text file named speech.wav. */
  textAsWav: AudioFile;
  empty: AudioFile;
  /** Each format cut after its first 40 bytes: the header itself is incomplete. */
  truncatedHeader: Record<FixtureFormat, AudioFile>;
  /** Each format cut in half: the header is whole, the audio is not all there. */
  truncatedBody: Record<FixtureFormat, AudioFile>;
  /** A short MP4 and WebM with a video track. */
  video: AudioFile[];
}

const CONTENT_TYPES: Record<FixtureFormat, string> = {
  wav: "audio/wav",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  webm: "audio/webm",
  flac: "audio/flac",
  m4a: "audio/mp4",
};

let cached: Promise<AudioFixtures> | undefined;
let cachedDir: string | undefined;

/** The fixtures, generated on first use. Throws with the install command when a tool is missing. */
export function audioFixtures(): Promise<AudioFixtures> {
  return (cached ??= generate());
}

/** Removes the generated files (call from afterAll; safe to call when nothing was generated). */
export function removeAudioFixtures(): void {
  if (cachedDir) rmSync(cachedDir, { recursive: true, force: true });
  cached = undefined;
  cachedDir = undefined;
}

/** Seconds of audio in a PCM WAV file: the data chunk's size over the byte rate. */
export function wavDurationSeconds(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const byteRate = view.getUint32(28, true);
  for (let offset = 12; offset + 8 <= bytes.byteLength; ) {
    const id = String.fromCharCode(...bytes.subarray(offset, offset + 4));
    const size = view.getUint32(offset + 4, true);
    if (id === "data") return Math.min(size, bytes.byteLength - offset - 8) / byteRate;
    offset += 8 + size + (size % 2);
  }
  throw new Error("WAV file without a data chunk");
}

const FFMPEG = ["-hide_banner", "-loglevel", "error", "-y"];

/**
 * The 16 kHz mono 16-bit samples ffmpeg decodes from `bytes`: an independent decoder for what the service answers.
 * `name` gives ffmpeg the format's extension; `inputFormat` describes input that has no header (raw PCM).
 */
export async function ffmpegPcm(bytes: Uint8Array, name: string, inputFormat: string[] = []): Promise<Int16Array> {
  const dir = mkdtempSync(path.join(tmpdir(), "lugha-decode-"));
  try {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    const args = ["-hide_banner", "-loglevel", "error", ...inputFormat, "-i", file, "-f", "s16le", "-ac", "1", "-ar", "16000", "-"];
    const { stdout } = await run(FFMPEG_BIN, args, { encoding: "buffer", maxBuffer: 256 * 1024 * 1024 });
    return new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length / 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Seconds of audio ffmpeg decodes from `bytes` (see ffmpegPcm). */
export async function ffmpegSeconds(bytes: Uint8Array, name: string): Promise<number> {
  return (await ffmpegPcm(bytes, name)).length / 16_000;
}

async function generate(): Promise<AudioFixtures> {
  const dir = mkdtempSync(path.join(tmpdir(), "lugha-audio-"));
  cachedDir = dir;
  const p = (name: string) => path.join(dir, name);
  const sentence = "Good morning. This is a test of the Lugha speech gateway.";

  await speak(sentence, p("raw.wav"));
  await run(FFMPEG_BIN, [...FFMPEG, "-i", p("raw.wav"), "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", p("speech.wav")]);
  const durationSeconds = wavDurationSeconds(readFileSync(p("speech.wav")));

  const encode = (out: string, ...args: string[]) => run(FFMPEG_BIN, [...FFMPEG, "-i", p("speech.wav"), ...args, p(out)]);
  /** A one-second video with a tone: what a user uploads by mistake. */
  const lavfi = ["-f", "lavfi", "-i", "testsrc=duration=1:size=64x64:rate=5", "-f", "lavfi", "-i", "sine=duration=1", "-shortest"];
  const clip = (out: string, ...codecs: string[]) => run(FFMPEG_BIN, [...FFMPEG, ...lavfi, ...codecs, p(out)]);
  await Promise.all([
    encode("speech.mp3", "-c:a", "libmp3lame", "-b:a", "48k"),
    encode("speech.ogg", "-c:a", "libopus", "-b:a", "32k"),
    encode("speech.webm", "-c:a", "libopus", "-b:a", "32k"),
    encode("speech.flac", "-c:a", "flac"),
    encode("speech.m4a", "-c:a", "aac", "-b:a", "48k"),
    encode("vorbis.ogg", "-c:a", "libvorbis"),
    encode("id3.mp3", "-c:a", "libmp3lame", "-q:a", "4", "-id3v2_version", "3", "-metadata", "title=Lugha test"),
    encode("hifi.flac", "-c:a", "flac", "-ar", "44100", "-ac", "2", "-sample_fmt", "s32", "-bits_per_raw_sample", "24"),
    // Written to a pipe, the muxers cannot go back and patch lengths in: what a live recorder produces.
    pipe(p("speech.wav"), ["-f", "wav"], p("streamed.wav")),
    pipe(p("speech.wav"), ["-c:a", "libopus", "-f", "webm"], p("streamed.webm")),
    pipe(p("speech.wav"), ["-c:a", "flac", "-f", "flac"], p("streamed.flac")),
    pipe(p("speech.wav"), ["-c:a", "libmp3lame", "-f", "mp3"], p("streamed.mp3")),
    clip("video.mp4"),
    clip("video.webm", "-c:v", "libvpx", "-c:a", "libopus").catch(
      () => undefined, // libvpx may be missing from a minimal ffmpeg; the MP4 is enough then
    ),
  ]);

  const file = (name: string, contentType: string): AudioFile => ({ name, bytes: new Uint8Array(readFileSync(p(name))), contentType });
  const files = Object.fromEntries(FIXTURE_FORMATS.map((f) => [f, file(`speech.${f}`, CONTENT_TYPES[f])])) as Record<FixtureFormat, AudioFile>;
  const cut = (f: AudioFile, bytes: number, label: string): AudioFile => ({ ...f, name: `${label}-${f.name}`, bytes: f.bytes.slice(0, bytes) });
  const video = [file("video.mp4", "video/mp4")];
  try {
    video.push(file("video.webm", "video/webm"));
  } catch {
    /* not generated */
  }

  return {
    dir,
    sentence,
    durationSeconds,
    files,
    streamed: {
      wav: file("streamed.wav", "audio/wav"),
      webm: file("streamed.webm", "audio/webm"),
      flac: file("streamed.flac", "audio/flac"),
      mp3: file("streamed.mp3", "audio/mpeg"),
    },
    variants: [file("vorbis.ogg", "audio/ogg"), file("id3.mp3", "audio/mpeg"), file("hifi.flac", "audio/flac")],
    textAsWav: {
      name: "speech.wav",
      bytes: new TextEncoder().encode("This is a plain text file, renamed to speech.wav.\n".repeat(20)),
      contentType: "text/plain",
    },
    empty: { name: "empty.wav", bytes: new Uint8Array(0), contentType: "audio/wav" },
    truncatedHeader: Object.fromEntries(FIXTURE_FORMATS.map((f) => [f, cut(files[f], 40, "header")])) as Record<FixtureFormat, AudioFile>,
    truncatedBody: Object.fromEntries(FIXTURE_FORMATS.map((f) => [f, cut(files[f], Math.floor(files[f].bytes.byteLength / 2), "half")])) as Record<
      FixtureFormat,
      AudioFile
    >,
    video,
  };
}

const ENCODERS: Record<FixtureFormat, string[]> = {
  wav: ["-c:a", "pcm_s16le"],
  mp3: ["-c:a", "libmp3lame", "-b:a", "32k"],
  ogg: ["-c:a", "libopus", "-b:a", "24k"],
  webm: ["-c:a", "libopus", "-b:a", "24k"],
  flac: ["-c:a", "flac"],
  m4a: ["-c:a", "aac", "-b:a", "32k"],
};

/**
 * A long recording: the fixtures' spoken sentence followed by 0.6 s of silence, over and over for `seconds`, in
 * `format` (16 kHz mono; what a voice note of that length is). Generated once per format and length.
 */
export async function longRecording(seconds: number, format: FixtureFormat): Promise<AudioFile> {
  const fx = await audioFixtures();
  const out = path.join(fx.dir, `long-${seconds}.${format}`);
  const paused = path.join(fx.dir, "paused.wav");
  await (longMade[paused] ??= run(FFMPEG_BIN, [...FFMPEG, "-i", path.join(fx.dir, "speech.wav"), "-af", "apad=pad_len=9600", paused]).then(
    () => undefined,
  ));
  await (longMade[out] ??= run(FFMPEG_BIN, [
    ...FFMPEG,
    "-stream_loop",
    "-1",
    "-i",
    paused,
    "-t",
    String(seconds),
    "-ar",
    "16000",
    "-ac",
    "1",
    ...ENCODERS[format],
    out,
  ]).then(() => undefined));
  return { name: path.basename(out), bytes: new Uint8Array(readFileSync(out)), contentType: CONTENT_TYPES[format] };
}
const longMade: Record<string, Promise<void>> = {};

/** ffmpeg writing to stdout (a pipe, so it cannot seek back), collected into a file. */
async function pipe(input: string, args: string[], output: string) {
  const { stdout } = await run(FFMPEG_BIN, [...FFMPEG, "-i", input, ...args, "pipe:1"], { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 });
  writeFileSync(output, stdout);
}

/**
 * A WAV header declaring `totalBytes` of audio, followed by silence, produced lazily in 64 KB chunks: an oversize upload
 * that never sits in the test's memory either. `onChunk` reports how much has been handed to the transport.
 */
export function oversizeWavStream(totalBytes: number, onChunk?: (sentSoFar: number) => void): ReadableStream<Uint8Array> {
  const header = new Uint8Array(44);
  const view = new DataView(header.buffer);
  const ascii = (o: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(o + i, s.charCodeAt(i));
  };
  const dataBytes = Math.min(0xffffffff - 36, totalBytes - 44);
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 16_000, true);
  view.setUint32(28, 32_000, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  const chunk = new Uint8Array(64 * 1024);
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const piece = sent === 0 ? header : chunk.subarray(0, Math.min(chunk.byteLength, totalBytes - sent));
      sent += piece.byteLength;
      onChunk?.(sent);
      controller.enqueue(piece);
    },
  });
}

/** A multipart/form-data body streamed around `file` (text fields first), with its Content-Type. */
export function multipartStream(
  fields: Record<string, string>,
  file: { field: string; name: string; type: string; stream: ReadableStream<Uint8Array> },
): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----lugha-test-${Math.random().toString(16).slice(2)}`;
  const enc = new TextEncoder();
  let head = "";
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const reader = file.stream.getReader();
  let stage: "head" | "file" | "tail" | "done" = "head";
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stage === "head") {
        stage = "file";
        return controller.enqueue(enc.encode(head));
      }
      if (stage === "file") {
        const { done, value } = await reader.read();
        if (!done) return controller.enqueue(value);
        stage = "tail";
      }
      if (stage === "tail") {
        stage = "done";
        return controller.enqueue(enc.encode(tail));
      }
      controller.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POST /api/v1/speech/stt as a multipart upload of `bytes` (typed only by its name, as many clients send it) with `fields`. */
export function sttUpload(baseUrl: string, key: string, bytes: Uint8Array, fileName: string, fields: Record<string, string>) {
  const form = new FormData();
  form.set("audio", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "application/octet-stream" }), fileName);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return call(baseUrl, "POST", "/api/v1/speech/stt", { key, body: form });
}

/**
 * `webm` with every cluster's size rewritten as "unknown" (all value bits set, in the same number of bytes), as
 * Chromium's MediaRecorder writes its clusters: it cannot know a cluster's size when it starts sending it.
 */
export function liveRecorderWebm(webm: Uint8Array): { bytes: Uint8Array; clusters: number } {
  const bytes = webm.slice();
  const vint = (at: number, id = false) => {
    const length = Math.clz32(bytes[at]) - 23;
    let value = id ? bytes[at] : bytes[at] & (0xff >> length);
    for (let i = 1; i < length; i++) value = value * 256 + bytes[at + i];
    return { length, value };
  };
  const header = vint(0, true);
  let offset = header.length + vint(header.length).length + vint(header.length).value;
  const segment = vint(offset, true);
  offset += segment.length + vint(offset + segment.length).length;
  let clusters = 0;
  while (offset < bytes.byteLength) {
    const id = vint(offset, true);
    const size = vint(offset + id.length);
    if (id.value === 0x1f43b675) {
      bytes[offset + id.length] = 0xff >> (size.length - 1);
      bytes.fill(0xff, offset + id.length + 1, offset + id.length + size.length);
      clusters += 1;
    }
    offset += id.length + size.length + size.value;
  }
  return { bytes, clusters };
}
