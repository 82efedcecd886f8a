/**
 * EBML (the container of WebM and Matroska) variable-length integer at `offset`: its length in bytes and its value,
 * the value undefined for the reserved "unknown size" (all value bits set). With `keepMarker` the length marker bit is
 * kept, which is how element ids are written. Undefined when the bytes end first or the first byte is 0. Used by the
 * upload check (lib/speech/audio.ts) and the WebM demuxer (lib/providers/decode.ts).
 */
export function readVint(bytes: Uint8Array, offset: number, keepMarker = false): { length: number; value?: number } | undefined {
  const first = bytes[offset];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (offset + length > bytes.byteLength) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[offset + i];
    if (bytes[offset + i] !== 0xff) allOnes = false;
  }
  return { length, value: !keepMarker && allOnes ? undefined : value };
}
