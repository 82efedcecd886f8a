/**
 * The in-process audio work of speech to text, measured on its own (no server, no upstream):
 *
 *   - per format, the time to decode a recording to 16 kHz mono (lib/providers/decode.ts), as a real-time factor
 *     (seconds of work per second of audio) and as seconds per minute of audio;
 *   - the time to cut the decoded audio into Whisper's 30 s WAV windows and write each (lib/providers/wav-windows.ts);
 *   - the peak resident memory of this process while BENCH_AUDIO_PARALLEL (default 2) ten-minute OGG/Opus voice
 *     notes are decoded and windowed at once, each window written once in turn as it is when sent — the part of a
 *     transcription that holds the audio. The server's own memory through whole transcriptions: bench/stt-memory.ts.
 *
 *   npx tsx bench/audio.ts
 *   BENCH_AUDIO_SECONDS=600 BENCH_AUDIO_FORMATS=ogg,webm,mp3,flac,wav BENCH_AUDIO_PARALLEL=2 npx tsx bench/audio.ts
 *
 * and, for text-to-speech answers, the time to encode BENCH_AUDIO_TTS_SECONDS (default 120: 2,000 characters of a slow
 * voice) of a provider's WAV (24 kHz, as Sunbird's Orpheus; the sandbox voices' tone) to each answer format (lib/speech/encode.ts),
 * as a real-time factor, and the answer's size.
 *
 * Recordings are eSpeak NG speech encoded by ffmpeg (e2e/support/audio.ts), as in the tests.
 */
import { type FixtureFormat, longRecording, removeAudioFixtures } from "../e2e/support/audio";
import { windowsFor } from "../lib/providers/audio-windows";
import { decodeToPcm16, PCM_SAMPLE_RATE } from "../lib/providers/decode";
import { makeWav } from "../lib/providers/sandbox/wav";
import { splitPcm } from "../lib/providers/wav-windows";
import { encodeSpeech } from "../lib/speech/encode";

const SECONDS = Number(process.env.BENCH_AUDIO_SECONDS ?? 600);
const FORMATS = (process.env.BENCH_AUDIO_FORMATS ?? "ogg,webm,mp3,flac,wav").split(",") as FixtureFormat[];
const PARALLEL = Number(process.env.BENCH_AUDIO_PARALLEL ?? 2);
const TTS_SECONDS = Number(process.env.BENCH_AUDIO_TTS_SECONDS ?? 120);
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
/** Writes every window's WAV in turn (as each is when it is sent); their bytes in all. */
const writeAll = (windows: readonly { audio: Uint8Array }[]) => windows.reduce((n, w) => n + w.audio.byteLength, 0);

/** Text-to-speech answers: a 24 kHz WAV (the sandbox voices' speech-like tone) encoded to MP3 and Ogg/Opus. */
async function encodeTts() {
  const wav = makeWav({ durationSeconds: TTS_SECONDS, sampleRate: 24_000 });
  console.log(`\nencode ${TTS_SECONDS} s of a provider's 24 kHz WAV (${(wav.byteLength / 1e6).toFixed(1)} MB) per answer format`);
  console.log("| format | encode s | real-time factor | answer kB | bytes per audio second |");
  console.log("|---|---|---|---|---|");
  for (const format of ["mp3", "opus"] as const) {
    const t0 = performance.now();
    const { audio } = await encodeSpeech(wav, "wav", format);
    const s = (performance.now() - t0) / 1000;
    console.log(
      `| ${format} | ${s.toFixed(2)} | ${(s / TTS_SECONDS).toFixed(4)} | ${Math.round(audio.byteLength / 1000)} | ${Math.round(audio.byteLength / TTS_SECONDS)} |`,
    );
  }
}

async function main() {
  console.log(`decode and window ${SECONDS} s of speech per format (this machine's load applies)`);
  console.log("| format | file MB | decode s | real-time factor | s per audio minute | windows | window s |");
  console.log("|---|---|---|---|---|---|---|");
  for (const format of FORMATS) {
    const file = await longRecording(SECONDS, format);
    const t0 = performance.now();
    const pcm = await decodeToPcm16(file.bytes, format, SECONDS);
    const decodeS = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const windows = splitPcm(pcm, PCM_SAMPLE_RATE, 30);
    writeAll(windows);
    const windowS = (performance.now() - t1) / 1000;
    const rtf = decodeS / SECONDS;
    console.log(
      `| ${format} | ${(file.bytes.byteLength / 1e6).toFixed(1)} | ${decodeS.toFixed(2)} | ${rtf.toFixed(4)} | ${(rtf * 60).toFixed(2)} | ${windows.length} | ${windowS.toFixed(2)} |`,
    );
  }

  // Peak RSS: the notes are read first (as an upload is), then decoded and windowed at the same time.
  const note = await longRecording(SECONDS, "ogg");
  const copies = Array.from({ length: PARALLEL }, () => note.bytes.slice());
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const t0 = performance.now();
  const results = await Promise.all(
    copies.map((audio) =>
      windowsFor(
        "provider_c",
        { audio, format: "ogg", contentType: "audio/ogg", language: "sw", durationSeconds: SECONDS, deadline: Date.now() + 600_000 },
        {
          native: ["ogg"],
          maxSeconds: 30,
        },
      ),
    ),
  );
  for (const { windows } of results) writeAll(windows);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(
    `\n${PARALLEL} × ${SECONDS} s OGG/Opus at once: ${results.map((r) => r.windows.length).join(" + ")} windows in ${((performance.now() - t0) / 1000).toFixed(1)} s; RSS ${mb(before)} MB before, peak ${mb(peak)} MB (+${mb(peak - before)} MB)`,
  );
  await encodeTts();
  removeAudioFixtures();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
