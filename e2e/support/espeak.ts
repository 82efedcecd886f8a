import { writeFileSync } from "node:fs";

/**
 * Speech as a WAV file (22,050 Hz mono 16-bit PCM), from eSpeak NG compiled to WebAssembly (its virtual file system
 * holds the output). Also what the browser tests' fake microphone plays
 * (kept apart from ./audio, whose API helpers the browser tests' runner cannot load).
 */
export async function speak(sentence: string, out: string) {
  const { default: ESpeakNg } = await import("espeak-ng");
  const espeak = await ESpeakNg({ arguments: ["-v", "en", "-s", "150", "-w", "speech.wav", sentence] });
  writeFileSync(out, espeak.FS.readFile("speech.wav"));
}
