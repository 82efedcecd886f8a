import { LRUCache } from "lru-cache";
import type { CacheStore, CacheValue } from "./types";

/**
 * Bytes one entry is charged besides its strings: the LRU's slots, the Map entry and the two string headers. Measured
 * at 150-165 bytes on Node 24 (memory.test.ts checks the heap growth of a filled cache against the charge), rounded up
 * so the byte bound holds for the heap, not just for the text.
 */
export const ENTRY_OVERHEAD_BYTES = 192;

/**
 * Heap bytes of a string in V8: one byte per UTF-16 unit when every unit is Latin-1, else two. Twi, Amharic or an
 * emoji in a translation doubles it, which a UTF-8 byte count would under- or over-state.
 */
export function heapBytes(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the full Latin-1 range is the point
  return /[^\u0000-\u00ff]/.test(text) ? text.length * 2 : text.length;
}

export interface MemoryCacheOptions {
  /** Upper bound on the bytes held (keys + serialised values + per-entry overhead); least recently used go first. */
  maxBytes: number;
  /** Injectable clock (ms) for TTL tests; monotonic by default. */
  now?: () => number;
}

/**
 * In-process cache for one instance: lru-cache with a byte bound (maxSize + sizeCalculation) and per-entry TTL.
 * Values are held as JSON text: the size charged is the real size, and a hit can never hand out an object another
 * request already changed.
 */
export class MemoryCacheStore implements CacheStore {
  readonly name = "memory" as const;
  private readonly lru: LRUCache<string, string>;

  constructor(options: MemoryCacheOptions) {
    this.lru = new LRUCache<string, string>({
      maxSize: options.maxBytes,
      sizeCalculation: (value, key) => heapBytes(value) + heapBytes(key) + ENTRY_OVERHEAD_BYTES,
      // Expired entries are dropped when read or pushed out by newer ones; no timers.
      ttlAutopurge: false,
      // With an injected clock every read consults it; otherwise lru-cache caches "now" for 1 ms (the default).
      ...(options.now && { perf: { now: options.now }, ttlResolution: 0 }),
    });
  }

  async get(key: string): Promise<CacheValue | undefined> {
    const raw = this.lru.get(key);
    return raw === undefined ? undefined : (JSON.parse(raw) as CacheValue);
  }

  async set(key: string, value: CacheValue, ttlMs: number): Promise<void> {
    // An entry larger than the whole bound is not stored (lru-cache refuses it); that is a miss next time, no error.
    this.lru.set(key, JSON.stringify(value), { ttl: ttlMs });
  }

  async health() {
    return { ok: true, detail: `memory (per instance) ${this.lru.size} entries, ${this.lru.calculatedSize} of ${this.lru.maxSize} bytes` };
  }

  /** Bytes currently charged against the bound. */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  get entries(): number {
    return this.lru.size;
  }
}
