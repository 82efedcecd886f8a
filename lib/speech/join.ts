import { decodeToPcm, PCM_SAMPLE_RATE } from "@/lib/providers/decode";
import { type PcmLayout, pcmLayout, pcmSample, wav16, wavOf } from "@/lib/providers/wav-windows";
import type { AudioFormat } from "./audio";

/**
 * The clips of a long text's pieces joined, in order, into one WAV file: what a text split for synthesis answers with.
 *
 *  - PCM WAV clips of one layout (rate, channels and sample format; one voice's answers always are): their samples are
 *    put end to end under the first clip's header, untouched.
 *  - PCM WAV clips of different layouts: each is mixed down to mono and brought to the highest rate among them by linear
 *    interpolation (only ever up, so nothing is folded back from above a lower rate's band), as 16-bit.
 *  - Any other clip (a provider answering MP3 or FLAC): every clip is decoded to 16 kHz mono (lib/providers/decode) and
 *    the samples joined as 16-bit WAV.
 *
 * The duration is the joined samples' own, so the answer states exactly what a player plays.
 */

export interface Clip {
  audio: Uint8Array;
  format: AudioFormat;
}

export interface JoinedClips {
  /** A WAV file. */
  audio: Uint8Array;
  durationSeconds: number;
}

export async function joinClips(clips: readonly Clip[]): Promise<JoinedClips> {
  if (clips.length === 0) throw new RangeError("no clips to join");
  const layouts = clips.map((clip) => (clip.format === "wav" ? pcmLayout(clip.audio) : undefined));
  if (layouts.every((l): l is PcmLayout => l !== undefined)) {
    const first = layouts[0];
    if (layouts.every((l) => sameLayout(l, first))) {
      const frames = layouts.reduce((n, l) => n + l.dataBytes / l.blockAlign, 0);
      const samples = new Uint8Array(frames * first.blockAlign);
      let at = 0;
      for (const [i, l] of layouts.entries()) {
        samples.set(clips[i].audio.subarray(l.dataOffset, l.dataOffset + l.dataBytes), at);
        at += l.dataBytes;
      }
      return { audio: wavOf(first.fmtChunk, samples), durationSeconds: frames / first.sampleRate };
    }
    const rate = Math.max(...layouts.map((l) => l.sampleRate));
    return pcmJoined(
      clips.map((clip, i) => resample(monoSamples(clip.audio, layouts[i]), layouts[i].sampleRate, rate)),
      rate,
    );
  }
  const decoded: Float32Array[] = [];
  for (const clip of clips) decoded.push(await decodeToPcm(clip.audio, clip.format));
  return pcmJoined(decoded, PCM_SAMPLE_RATE);
}

function sameLayout(a: PcmLayout, b: PcmLayout): boolean {
  return a.sampleRate === b.sampleRate && a.channels === b.channels && a.bitsPerSample === b.bitsPerSample && a.float === b.float;
}

function pcmJoined(parts: readonly Float32Array[], sampleRate: number): JoinedClips {
  const joined = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return { audio: wav16(joined, sampleRate), durationSeconds: joined.length / sampleRate };
}

/** A PCM WAV's samples as mono floats (channels averaged). */
function monoSamples(bytes: Uint8Array, layout: PcmLayout): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { channels, bitsPerSample, float, blockAlign, dataOffset, dataBytes } = layout;
  const width = bitsPerSample / 8;
  const out = new Float32Array(dataBytes / blockAlign);
  for (let f = 0; f < out.length; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += pcmSample(view, dataOffset + f * blockAlign + c * width, width, float);
    out[f] = sum / channels;
  }
  return out;
}

/** `samples` at `from` Hz brought up to `to` Hz (linear interpolation); the duration is kept to the sample. */
export function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return samples;
  const out = new Float32Array(Math.round((samples.length * to) / from));
  const last = samples.length - 1;
  for (let i = 0; i < out.length; i++) {
    const position = (i * from) / to;
    const j = Math.min(Math.floor(position), last);
    const next = Math.min(j + 1, last);
    out[i] = samples[j] + (samples[next] - samples[j]) * (position - j);
  }
  return out;
}
