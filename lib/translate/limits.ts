import { codePointLength } from "@/lib/kit/text";
import type { InputLimit, TranslationRoute } from "@/lib/providers/descriptor";
import { descriptorFor } from "@/lib/providers/descriptors";
import type { ProviderId } from "@/lib/providers/types";
import type { ChunkLimit } from "./segment";

/**
 * Text limits. "Characters" are Unicode code points (what a person counts; an emoji is one), measured on the text after
 * trimming surrounding whitespace — the text that is actually translated and reported as characters_translated.
 *
 * A request takes 1–5,000 characters (single translate, and each batch item). Each translation route has its own input
 * limit, declared by its provider's descriptor (lib/providers/*.descriptor.ts): today Sunbird 5,000 characters, Khaya
 * 1,000 characters (it refuses or silently truncates longer input, so it is never sent), Hugging Face models 512
 * tokens, estimated (below). A route's limit bounds one call, not the request: in auto routing a longer text is split
 * for the route (./long-text.ts); only a forced provider answers TEXT_TOO_LONG for a text over its limit.
 */
export const MAX_TEXT_CHARS = 5_000;

/**
 * Token estimate for the Hugging Face models (Marian opus-mt and NLLB SentencePiece vocabularies), used to enforce the 512-token
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

/** Whether `text` fits `limit`; `prefix` is what the route prepends to the text (counted by a token limit). */
export function checkLimit(limit: InputLimit, text: string, prefix = ""): LimitCheck {
  if (limit.unit === "tokens") {
    const tokens = estimateTokens(text, prefix);
    return { ok: tokens <= limit.max, limit: `${limit.max} tokens`, actual: `an estimated ${fmt(tokens)} tokens` };
  }
  const chars = codePointLength(text);
  return { ok: chars <= limit.max, limit: `${fmt(limit.max)} characters`, actual: `${fmt(chars)} characters` };
}

/** Whether `text` fits what one call of `route` takes. */
export function checkRouteLimit(route: TranslationRoute, text: string): LimitCheck {
  return checkLimit(route.limit, text, route.hf?.inputPrefix);
}

/**
 * What one call of `route` is sent at most: its input limit and, for a route with a bounded output, its maxChunkChars.
 * A text that does not pass is split for the route (./long-text.ts).
 */
export function chunkLimit(route: TranslationRoute): ChunkLimit {
  const cap = route.maxChunkChars ?? Number.POSITIVE_INFINITY;
  if (route.limit.unit === "characters") return Math.min(route.limit.max, cap);
  return (chunk) => codePointLength(chunk) <= cap && checkRouteLimit(route, chunk).ok;
}

/** Whether `text` fits `provider`'s own input limit; `prefix` is what the route that will run prepends. */
export function checkProviderLimit(provider: ProviderId, text: string, prefix = ""): LimitCheck {
  const { translation } = descriptorFor(provider);
  if (!translation) throw new Error(`${provider} does not translate`);
  return checkLimit(translation.limit, text, prefix);
}
