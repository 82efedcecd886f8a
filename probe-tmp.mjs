import { parseBuffer } from "music-metadata";
import { readFileSync } from "node:fs";
for (const f of process.argv.slice(2)) {
  const buf = readFileSync(f);
  try { const m = await parseBuffer(new Uint8Array(buf), undefined, { duration: true, skipCovers: true }); console.log(f, buf.length, JSON.stringify({...m.format, trackInfo: undefined})); } catch (e) { console.log(f, "ERR", e.message); }
}
