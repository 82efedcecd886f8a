import { describe, expect, it } from "vitest";
import { encodeWav } from "./wav";

describe("encodeWav", () => {
  it("writes a mono 16-bit PCM WAV header and the samples, mixing channels down and clipping", () => {
    const left = new Float32Array([0, 1, -1, 0.5]);
    const right = new Float32Array([0, 1, -1, 1.5]);
    const wav = encodeWav([left, right], 16_000);
    const view = new DataView(wav.buffer);
    const text = (from: number, to: number) => String.fromCharCode(...wav.slice(from, to));
    expect([text(0, 4), text(8, 16), text(36, 40)]).toEqual(["RIFF", "WAVEfmt ", "data"]);
    expect(wav.byteLength).toBe(44 + 4 * 2);
    expect(view.getUint32(4, true)).toBe(36 + 8);
    expect([view.getUint16(20, true), view.getUint16(22, true), view.getUint32(24, true), view.getUint16(34, true)]).toEqual([1, 1, 16_000, 16]);
    expect([0, 1, 2, 3].map((i) => view.getInt16(44 + i * 2, true))).toEqual([0, 32767, -32768, 32767]);
  });
});
