/**
 * Content negotiation for the TTS response: JSON (audio_base64) or the raw audio bytes.
 *
 * Raw bytes when the Accept header names an audio type (audio/*, audio/wav, audio/mpeg, ...) that the client prefers
 * to JSON: higher q-value, or the same q-value with JSON matched only by a wildcard (so "audio/wav, *\/*" means audio).
 * Anything else — no Accept, *\/*, application/json — gets JSON. The raw form is whatever format the provider produced
 * (its Content-Type says which; WAV from every current provider): the service does not transcode.
 */
export function prefersRawAudio(accept: string | null): boolean {
  if (!accept) return false;
  let audioQ = 0;
  let jsonQ = 0;
  let jsonSpecific = false;
  for (const part of accept.split(",")) {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    const type = range.trim();
    if (!type) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split("=").map((s) => s.trim());
      if (k === "q") q = Number.isFinite(Number(v)) ? Math.min(1, Math.max(0, Number(v))) : 1;
    }
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
