// No imports: lib/config validates TRANSLATION_CACHE_MAX_BYTES with it wherever the configuration is read.

/** "67108864", "64MB", "64 MiB", "512k": bytes. Undefined for anything else. */
export function parseBytes(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:([kmg])i?)?b?\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m[2] ?? "").toLowerCase() as "" | "k" | "m" | "g"];
  const bytes = Math.floor(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) && bytes >= 1 ? bytes : undefined;
}
