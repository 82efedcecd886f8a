/**
 * 16-bit PCM WAV from decoded audio, in the browser: the playground records with MediaRecorder (WebM/Opus in Chromium,
 * MP4 in Safari), decodes it with Web Audio and uploads this, since not every speech provider accepts WebM. Channels
 * are mixed down to mono; samples are clipped to [-1, 1].
 */
export function encodeWav(channels: Float32Array[], sampleRate: number): Uint8Array<ArrayBuffer> {
  const frames = channels[0]?.length ?? 0;
  const out = new DataView(new ArrayBuffer(44 + frames * 2));
  const ascii = (offset: number, s: string) => {
    for (let i = 0; i < s.length; i++) out.setUint8(offset + i, s.charCodeAt(i));
  };
  ascii(0, "RIFF");
  out.setUint32(4, 36 + frames * 2, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  out.setUint32(16, 16, true); // fmt chunk size
  out.setUint16(20, 1, true); // PCM
  out.setUint16(22, 1, true); // mono
  out.setUint32(24, sampleRate, true);
  out.setUint32(28, sampleRate * 2, true); // bytes per second
  out.setUint16(32, 2, true); // block align
  out.setUint16(34, 16, true); // bits per sample
  ascii(36, "data");
  out.setUint32(40, frames * 2, true);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (const c of channels) sum += c[i];
    const s = Math.max(-1, Math.min(1, sum / channels.length));
    out.setInt16(44 + i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
  }
  return new Uint8Array(out.buffer);
}
