/**
 * Audio fixtures generated at test time with Debian's espeak-ng (speech), sox (resampling, WAV) and ffmpeg (the other
 * containers): every format the STT endpoint claims, the variants live recorders produce, and the broken files it must
 * refuse. Nothing binary is committed. Generated once per test process into a temporary directory.
 *
 *   apt-get install -y espeak-ng sox libsox-fmt-all ffmpeg     (.ci/run installs them)
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

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
  /** Duration of the source WAV (seconds, from sox); every encoding is within ~0.1 s of it. */
  durationSeconds: number;
  /** One well-formed file per claimed format (16 kHz mono speech; OGG and WebM carry Opus, M4A carries AAC). */
  files: Record<FixtureFormat, AudioFile>;
  /** What live recorders write: headers without a length (WAV 0xFFFFFFFF, WebM unknown-size segment, FLAC no total). */
  streamed: { wav: AudioFile; webm: AudioFile; flac: AudioFile; mp3: AudioFile };
  /** OGG carrying Vorbis (not Opus), and MP3/FLAC written by sox rather than ffmpeg. */
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

async function requireTools() {
  const missing: string[] = [];
  for (const tool of ["espeak-ng", "sox", "soxi", "ffmpeg"]) {
    try {
      await run("sh", ["-c", `command -v ${tool}`]);
    } catch {
      missing.push(tool);
    }
  }
  if (missing.length) {
    throw new Error(`audio fixtures need ${missing.join(", ")}: apt-get install -y espeak-ng sox libsox-fmt-all ffmpeg`);
  }
}

const FFMPEG = ["-hide_banner", "-loglevel", "error", "-y"];

async function generate(): Promise<AudioFixtures> {
  await requireTools();
  const dir = mkdtempSync(path.join(tmpdir(), "lugha-audio-"));
  cachedDir = dir;
  const p = (name: string) => path.join(dir, name);
  const sentence = "Good morning. This is a test of the Lugha speech gateway.";

  await run("espeak-ng", ["-v", "en", "-s", "150", "-w", p("raw.wav"), sentence]);
  await run("sox", [p("raw.wav"), "-r", "16000", "-c", "1", "-b", "16", p("speech.wav")]);
  const durationSeconds = Number((await run("soxi", ["-D", p("speech.wav")])).stdout.trim());

  const encode = (out: string, ...args: string[]) => run("ffmpeg", [...FFMPEG, "-i", p("speech.wav"), ...args, p(out)]);
  await Promise.all([
    encode("speech.mp3", "-c:a", "libmp3lame", "-b:a", "48k"),
    encode("speech.ogg", "-c:a", "libopus", "-b:a", "32k"),
    encode("speech.webm", "-c:a", "libopus", "-b:a", "32k"),
    encode("speech.flac", "-c:a", "flac"),
    encode("speech.m4a", "-c:a", "aac", "-b:a", "48k"),
    encode("vorbis.ogg", "-c:a", "libvorbis"),
    run("sox", [p("speech.wav"), p("sox.mp3")]),
    run("sox", [p("speech.wav"), p("sox.flac")]),
    // Written to a pipe, the muxers cannot go back and patch lengths in: what a live recorder produces.
    pipe(p("speech.wav"), ["-f", "wav"], p("streamed.wav")),
    pipe(p("speech.wav"), ["-c:a", "libopus", "-f", "webm"], p("streamed.webm")),
    pipe(p("speech.wav"), ["-c:a", "flac", "-f", "flac"], p("streamed.flac")),
    pipe(p("speech.wav"), ["-c:a", "libmp3lame", "-f", "mp3"], p("streamed.mp3")),
    run("ffmpeg", [...FFMPEG, "-f", "lavfi", "-i", "testsrc=duration=1:size=64x64:rate=5", "-f", "lavfi", "-i", "sine=duration=1", "-shortest", p("video.mp4")]),
    run("ffmpeg", [...FFMPEG, "-f", "lavfi", "-i", "testsrc=duration=1:size=64x64:rate=5", "-f", "lavfi", "-i", "sine=duration=1", "-shortest", "-c:v", "libvpx", "-c:a", "libopus", p("video.webm")]).catch(
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
    variants: [file("vorbis.ogg", "audio/ogg"), file("sox.mp3", "audio/mpeg"), file("sox.flac", "audio/flac")],
    textAsWav: { name: "speech.wav", bytes: new TextEncoder().encode("This is a plain text file, renamed to speech.wav.\n".repeat(20)), contentType: "text/plain" },
    empty: { name: "empty.wav", bytes: new Uint8Array(0), contentType: "audio/wav" },
    truncatedHeader: Object.fromEntries(FIXTURE_FORMATS.map((f) => [f, cut(files[f], 40, "header")])) as Record<FixtureFormat, AudioFile>,
    truncatedBody: Object.fromEntries(FIXTURE_FORMATS.map((f) => [f, cut(files[f], Math.floor(files[f].bytes.byteLength / 2), "half")])) as Record<FixtureFormat, AudioFile>,
    video,
  };
}

/** ffmpeg writing to stdout, redirected to a file by the shell. */
function pipe(input: string, args: string[], output: string) {
  const quoted = [...FFMPEG, "-i", input, ...args, "pipe:1"].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  return run("sh", ["-c", `ffmpeg ${quoted} > '${output.replace(/'/g, `'\\''`)}'`]);
}

/**
 * A WAV header declaring `totalBytes` of audio, followed by silence, produced lazily in 64 KB chunks: an oversize upload
 * that never sits in the test's memory either. `onChunk` reports how much has been handed to the transport.
 */
export function oversizeWavStream(totalBytes: number, onChunk?: (sentSoFar: number) => void): ReadableStream<Uint8Array> {
  const header = new Uint8Array(44);
  const view = new DataView(header.buffer);
  const ascii = (o: number, s: string) => [...s].forEach((c, i) => view.setUint8(o + i, c.charCodeAt(0)));
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
