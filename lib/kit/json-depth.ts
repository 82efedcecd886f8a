/**
 * Deepest nesting of arrays and objects in a JSON text, counted on the raw UTF-8 bytes (brackets inside strings, and
 * escaped quotes, are skipped). Stops as soon as `limit` is passed, so a hostile body costs one linear scan at most.
 * Run before JSON.parse: no API payload nests deeper than a few levels, and refusing `[[[[…]]]]` early keeps a
 * 1 MB body of brackets from costing more than its bytes.
 */
export function exceedsJsonDepth(bytes: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) {
      if (++depth > limit) return true;
    } else if (b === 0x7d || b === 0x5d) depth--;
  }
  return false;
}
