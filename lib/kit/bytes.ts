/**
 * The chunks of a body as one new array of their own (never a view into a pooled or shared buffer, so callers may keep
 * it or hand on its `.buffer`).
 */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const c of chunks) total += c.byteLength;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
