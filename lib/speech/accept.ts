import type { TtsFormat } from "./formats";

/**
 * Content negotiation for the TTS response: JSON (audio_base64) or the raw audio bytes.
 *
 * Raw bytes when the Accept header names an audio type (audio/*, audio/wav, audio/mpeg, ...) that the client prefers
 * to JSON: higher q-value, or the same q-value with JSON matched only by a wildcard (so "audio/wav, *\/*" means audio).
 * Anything else — no Accept, *\/*, application/json — gets JSON. The raw form's format is ttsFormatAccepted's.
 */
export function prefersRawAudio(accept: string | null): boolean {
  let audioQ = 0;
  let jsonQ = 0;
  let jsonSpecific = false;
  for (const { type, q } of mediaRanges(accept)) {
    if (type.startsWith("audio/")) audioQ = Math.max(audioQ, q);
    else if (type === "application/json" || type === "application/*") {
      if (q > jsonQ || (q === jsonQ && !jsonSpecific)) jsonSpecific = true;
      jsonQ = Math.max(jsonQ, q);
    } else if (type === "*/*" && q > jsonQ) {
      jsonQ = q;
      jsonSpecific = false;
    }
  }
  if (audioQ <= 0) return false;
  return audioQ > jsonQ || (audioQ === jsonQ && !jsonSpecific);
}

/** The media types (lower case, without parameters) a raw TTS answer is given for, by format. */
const ACCEPTED_AUDIO: Record<string, TtsFormat> = {
  "audio/ogg": "opus",
  "audio/opus": "opus",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/wav": "wav",
  "audio/wave": "wav",
  "audio/x-wav": "wav",
};

/**
 * The format an Accept header names for a raw TTS answer: the named audio type with the highest q-value (the first on
 * a tie), or undefined when it names none of ours (audio/* alone: the request's `format` field, or WAV, decides).
 */
export function ttsFormatAccepted(accept: string | null): TtsFormat | undefined {
  let best: TtsFormat | undefined;
  let bestQ = 0;
  for (const { type, q } of mediaRanges(accept)) {
    const format = ACCEPTED_AUDIO[type];
    if (format && q > bestQ) {
      best = format;
      bestQ = q;
    }
  }
  return best;
}

/** An Accept header's media ranges, lower case, each with its q-value (1 when absent, clamped to 0..1). */
function mediaRanges(accept: string | null): { type: string; q: number }[] {
  const ranges: { type: string; q: number }[] = [];
  for (const part of (accept ?? "").split(",")) {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    const type = range.trim();
    if (!type) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split("=").map((s) => s.trim());
      if (k === "q") q = Number.isFinite(Number(v)) ? Math.min(1, Math.max(0, Number(v))) : 1;
    }
    ranges.push({ type, q });
  }
  return ranges;
}
