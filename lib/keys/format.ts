import { createHash, createHmac, randomBytes } from "node:crypto";

/** API key format: "svc_" + exactly 40 lowercase hex characters (160 bits from a CSPRNG). */
export const KEY_PREFIX = "svc_";
const KEY_PATTERN = /^svc_[0-9a-f]{40}$/;
/** How much of a key the portal and /keys/me may show: the prefix plus 8 hex characters (32 of 160 bits). */
const DISPLAY_LENGTH = KEY_PREFIX.length + 8;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(20).toString("hex");
}

/** Keys are case-sensitive: "SVC_…" or upper-case hex is not a key. */
export function isWellFormedKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_LENGTH);
}

/**
 * The only form of a key that is stored: HMAC-SHA-256 with API_KEY_HASH_SECRET (a pepper kept out of the database,
 * so a leaked table cannot be checked against guesses), or plain SHA-256 when no secret is configured. Keys carry
 * 160 random bits, so a fast hash is enough; lookup is by this hash (a unique index), which is timing-safe by
 * construction: the plain key is never compared byte by byte.
 */
export function hashApiKey(key: string, secret: string | undefined): string {
  return secret ? createHmac("sha256", secret).update(key).digest("hex") : createHash("sha256").update(key).digest("hex");
}
