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

/** "4 MB", "12.5 kB", "900 bytes": a size as people read it (binary units, as the limits are set). */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} kB`;
  return `${n} bytes`;
}
