import type { ProviderId } from "@/lib/providers/types";
import { codePointLength } from "@/lib/text";

/**
 * Text limits. "Characters" are Unicode code points (what a person counts; an emoji is one), measured on the text after
 * trimming surrounding whitespace — the text that is actually translated and reported as characters_translated.
 *
 *   request   1–5,000 characters, for single translate and for each batch item
 *   provider_a         5,000 characters
 *   provider_b         1,000 characters (Khaya refuses or silently truncates longer input, so we never send it)
 *   provider_c         512 tokens, estimated (below)
 */
export const MAX_TEXT_CHARS = 5_000;
export const PROVIDER_A_MAX_CHARS = 5_000;
export const PROVIDER_B_MAX_CHARS = 1_000;
export const PROVIDER_C_MAX_TOKENS = 512;

/**
 * Token estimate for provider_c (Marian opus-mt and NLLB SentencePiece vocabularies), used to enforce the 512-token
 * limit without shipping each model's tokenizer:
 *
 *   tokens ≈ ceil(UTF-8 bytes of (prefix + text) / 2.5) + 3
 *
 * Why: on Latin-script text these vocabularies average 3–4.5 bytes per token (English at the top); languages the
 * vocabulary covers thinly (most African languages, and text with combining diacritics) fall to ~2.5–3 bytes per token,
 * and Ethiopic (3 bytes per character) tokenises at ~1 character per token. Dividing by 2.5 therefore over-estimates for
 * well-covered text and is about right for the worst case, so text we accept is never silently truncated by the model.
 * The +3 covers the end-of-sequence and NLLB's language tokens. The ">>xxx<< " prefix of the multilingual fallback is
 * counted too. In practice: ≈1,270 ASCII characters, ≈420 Ethiopic characters.
 */
export const BYTES_PER_TOKEN = 2.5;
export const SPECIAL_TOKENS = 3;

const encoder = new TextEncoder();

export function estimateTokens(text: string, prefix = ""): number {
  return Math.ceil(encoder.encode(prefix + text).byteLength / BYTES_PER_TOKEN) + SPECIAL_TOKENS;
}

/** Length in Unicode code points. */
export { codePointLength };

export interface LimitCheck {
  ok: boolean;
  /** Human-readable limit, e.g. "1,000 characters" or "512 tokens (estimated)". */
  limit: string;
  /** The text's measure in the limit's unit, e.g. "1,204 characters" or "an estimated 640 tokens". */
  actual: string;
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** Whether `text` fits `provider`'s input limit; `prefix` is what provider_c prepends for the model that will run. */
export function checkProviderLimit(provider: ProviderId, text: string, prefix = ""): LimitCheck {
  if (provider === "provider_c") {
    const tokens = estimateTokens(text, prefix);
    return { ok: tokens <= PROVIDER_C_MAX_TOKENS, limit: `${PROVIDER_C_MAX_TOKENS} tokens`, actual: `an estimated ${fmt(tokens)} tokens` };
  }
  const max = provider === "provider_a" ? PROVIDER_A_MAX_CHARS : PROVIDER_B_MAX_CHARS;
  const chars = codePointLength(text);
  return { ok: chars <= max, limit: `${fmt(max)} characters`, actual: `${fmt(chars)} characters` };
}
