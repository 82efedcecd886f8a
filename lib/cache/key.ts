import { createHash } from "node:crypto";

/** Bumped whenever the stored value's shape or the key's inputs change, so old entries are never read as new ones. */
export const CACHE_KEY_VERSION = "v1";
const PREFIX = `lugha:tc:${CACHE_KEY_VERSION}`;

/** A value that may take part in a key: plain scalars, or a list of strings (do-not-translate terms, ...). */
export type CacheKeyExtra = string | number | boolean | null | undefined | readonly string[];

/** Everything that determines a translation's output. Two requests with equal inputs may share one cached result. */
export interface CacheKeyInput {
  /** The API key id (default scope) or "global" (see cacheScope). */
  scope: string;
  /** Provider mode: live answers and sandbox answers never mix. */
  mode: string;
  /** The provider as the request asked for it ("auto" or a provider id), not the one that served. */
  requestedProvider: string;
  /** Resolved source and target codes (after auto-detection). */
  source: string;
  target: string;
  /** Identifies the serving model map: a change of model invalidates what the old one produced. */
  modelMapVersion: string;
  text: string;
  /**
   * Further options that change the output (format, placeholder handling, do-not-translate terms, glossary id, ...).
   * Undefined values are ignored, so adding an option later does not change the keys of requests that do not use it.
   */
  extra?: Readonly<Record<string, CacheKeyExtra>>;
}

/** The scope part of a key: per API key unless the operator opted into one cache shared by every key. */
export function cacheScope(scope: "key" | "global", apiKeyId: string): string {
  return scope === "global" ? "global" : `key:${apiKeyId}`;
}

/**
 * `lugha:tc:v1:<scope>:<sha256>`. The scope stays readable so an operator can drop one key's entries by prefix; the
 * text and every other input only enter the SHA-256, so the store never holds a request's text as a key.
 */
export function cacheKey(input: CacheKeyInput): string {
  const extra = Object.entries(input.extra ?? {})
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // A JSON array, so no choice of field values can make two different inputs serialise alike.
  const canonical = JSON.stringify([input.mode, input.requestedProvider, input.source, input.target, input.modelMapVersion, input.text, extra]);
  const digest = createHash("sha256").update(canonical).digest("hex");
  return `${PREFIX}:${encodeURIComponent(input.scope)}:${digest}`;
}
