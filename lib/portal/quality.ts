import { type QualityBand, qualityBand } from "@/lib/languages/quality-bands";

/** What each quality band of the API (quality_band, lib/languages/quality-bands.ts) means, in words. */
export const BAND_MEANING: Record<QualityBand, string> = {
  excellent: "specialised provider for the language pair",
  good: "dedicated translation model",
  decent: "general purpose model with reasonable coverage",
  acceptable: "multilingual fallback model",
  poor: "use with caution",
};

/** The quality bands of the API reference, as the portal labels them. */
export function qualityLabel(score: number): { band: string; meaning: string } {
  const band = qualityBand(score);
  return { band: band[0].toUpperCase() + band.slice(1), meaning: BAND_MEANING[band] };
}
