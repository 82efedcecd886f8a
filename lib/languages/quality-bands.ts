/**
 * The contract's reading of a quality_score: ≥0.90 excellent, ≥0.80 good, ≥0.70 decent, ≥0.60 acceptable, else poor.
 * Kept free of zod and server imports: the API's schema (lib/languages/schemas.ts) and the portal's client components
 * (lib/portal/quality.ts) both use it.
 */
export const QUALITY_BANDS = ["excellent", "good", "decent", "acceptable", "poor"] as const;
export type QualityBand = (typeof QUALITY_BANDS)[number];

export function qualityBand(score: number): QualityBand {
  return score >= 0.9 ? "excellent" : score >= 0.8 ? "good" : score >= 0.7 ? "decent" : score >= 0.6 ? "acceptable" : "poor";
}
