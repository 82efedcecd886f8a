import type { HfModelRoute, ProviderId } from "@/lib/providers/types";

/**
 * quality_score (the bands of docs/guide.md#quality-scores). Fixed, documented values per kind of engine — not
 * measurements. The band says what served the pair: a specialised provider for the pair ≥ 0.90, a dedicated pair model 0.80–0.89, a general-purpose
 * model 0.70–0.79, a multilingual fallback 0.60–0.69. The score reported is the one of the engine that actually
 * served (a provider_c request that fell back from its dedicated model to NLLB reports NLLB's score and model).
 */
export const QUALITY = {
  /** provider_a (Sunbird) on its Ugandan pairs: specialised provider. */
  provider_a: 0.92,
  /** provider_b (Khaya) on its English ↔ West/East African pairs: specialised provider. */
  provider_b: 0.9,
  /** provider_c, Helsinki-NLP opus-mt model trained for exactly this pair. */
  dedicated: 0.85,
  /** provider_c, NLLB-200 (general many-to-many model). */
  general: 0.75,
  /** provider_c, opus-mt-en-mul / opus-mt-mul-en (multilingual fallback). */
  fallback: 0.65,
} as const;

export type QualityTier = "specialised" | HfModelRoute["tier"];

export function qualityFor(provider: ProviderId, hfTier?: HfModelRoute["tier"]): number {
  if (provider === "provider_a") return QUALITY.provider_a;
  if (provider === "provider_b") return QUALITY.provider_b;
  return QUALITY[hfTier ?? "fallback"];
}

/** The band name of a score (for docs and the portal). */
export function qualityBand(score: number): "excellent" | "good" | "decent" | "acceptable" | "poor" {
  if (score >= 0.9) return "excellent";
  if (score >= 0.8) return "good";
  if (score >= 0.7) return "decent";
  if (score >= 0.6) return "acceptable";
  return "poor";
}
