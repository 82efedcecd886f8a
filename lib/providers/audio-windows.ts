import { decodeToPcm16, PCM_SAMPLE_RATE, type Pcm16, UndecodableAudio } from "./decode";
import type { AudioFormat } from "./descriptor";
import { ProviderError, type ProviderId, type TranscribeRequest, type TranscriptSegment } from "./types";
import { type AudioWindow, isSplittableWav, splitPcm, splitWav } from "./wav-windows";

/**
 * How a provider client sends one recording: whole, as uploaded, when the upstream takes its format and its length;
 * otherwise as WAV windows of at most the upstream's length, cut at quiet moments (./wav-windows.ts), a PCM WAV as it
 * is and anything else decoded first (./decode.ts). Each window is its own request (and its own quota unit upstream);
 * the texts are joined in order and every window's offsets reach the answer as segments.
 */

export interface WindowedAudio {
  windows: AudioWindow[];
  /** The media type of every window: the upload's own when it is sent whole, else audio/wav. */
  contentType: string;
}

/**
 * A window's bytes as a request body without a copy (a window of decoded audio is several MB, and a copy per window in
 * flight adds up). Only bytes in a SharedArrayBuffer, which fetch does not send, are copied; uploads never are.
 */
export function windowBody(audio: Uint8Array): Uint8Array<ArrayBuffer> {
  return audio.buffer instanceof ArrayBuffer ? (audio as Uint8Array<ArrayBuffer>) : new Uint8Array(audio);
}

/** What one upstream takes in one request. */
export interface UpstreamAudioLimits {
  /** Formats it decodes itself; any other decodable format is converted to WAV. */
  native: readonly AudioFormat[];
  /** The longest audio per request, seconds. */
  maxSeconds: number;
}

/**
 * Decoded recordings by upload: a fallback chain hands every provider the same bytes, so a recording is decoded once
 * per request however many providers try it.
 */
const decoded = new WeakMap<Uint8Array, Promise<Pcm16>>();

/** The windows `req`'s recording goes upstream in, or a "rejected" ProviderError when it cannot be made to fit. */
export async function windowsFor(provider: ProviderId, req: TranscribeRequest, limits: UpstreamAudioLimits): Promise<WindowedAudio> {
  const duration = req.durationSeconds ?? 0;
  const native = req.format === undefined || limits.native.includes(req.format);
  if (native && duration <= limits.maxSeconds)
    return { windows: [{ audio: req.audio, byteLength: req.audio.byteLength, start: 0, end: duration }], contentType: req.contentType };
  // A PCM WAV is cut without decoding (the original samples, original format).
  if (isSplittableWav(req.audio)) return { windows: splitWav(req.audio, limits.maxSeconds), contentType: "audio/wav" };
  if (req.format === undefined) throw tooLong(provider, limits.maxSeconds);
  let pcm = decoded.get(req.audio);
  if (!pcm) {
    pcm = decodeToPcm16(req.audio, req.format, duration);
    decoded.set(req.audio, pcm);
  }
  try {
    return { windows: splitPcm(await pcm, PCM_SAMPLE_RATE, limits.maxSeconds), contentType: "audio/wav" };
  } catch (err) {
    if (err instanceof UndecodableAudio) {
      if (!native) throw new ProviderError(provider, "rejected", "provider does not accept this audio format", undefined, undefined, "AUDIO_FORMAT");
      throw tooLong(provider, limits.maxSeconds);
    }
    throw err;
  }
}

function tooLong(provider: ProviderId, maxSeconds: number) {
  return new ProviderError(
    provider,
    "rejected",
    `audio longer than ${maxSeconds} s in this format is not accepted by the provider`,
    undefined,
    undefined,
    "AUDIO_TOO_LONG",
  );
}

/** What an upstream answered for one window: its text, and its own timing (relative to the window) when it gives any. */
export interface WindowTranscript {
  text: string;
  segments?: TranscriptSegment[] | null;
}

/**
 * Sends every window (`concurrency` at a time; the first failure fails the whole and stops the rest from starting) and
 * joins the answers: the texts in order, and segments in the recording's time — the upstream's own, shifted by its
 * window's start, or one per window. A recording sent whole keeps the upstream's timing as it is (or one segment when
 * `timed`, the upstream giving none).
 */
export async function transcribeWindows(
  windows: readonly AudioWindow[],
  concurrency: number,
  send: (window: AudioWindow) => Promise<WindowTranscript>,
  timed = false,
): Promise<{ transcript: string; segments: TranscriptSegment[] | null }> {
  const answers = await mapLimited(windows, concurrency, send);
  const segments = windows.flatMap((w, i): TranscriptSegment[] => {
    const own = answers[i].segments;
    if (own?.length) return own.map((s) => ({ start: round3(s.start + w.start), end: round3(s.end + w.start), text: s.text }));
    if (windows.length === 1 && !timed) return [];
    return [{ start: round3(w.start), end: round3(w.end), text: answers[i].text.trim() }];
  });
  const kept = segments.filter((s) => s.end > s.start && s.text);
  return {
    transcript: answers
      .map((a) => a.text.trim())
      .filter(Boolean)
      .join(" "),
    segments: kept.length ? kept : null,
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** `fn` over `items`, at most `limit` at a time; results in order; the first failure fails the whole (the rest stop starting). */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
