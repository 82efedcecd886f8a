/** The quality bands of the API reference, as the portal labels them. */
export function qualityLabel(score: number): { band: string; meaning: string } {
  if (score >= 0.9) return { band: "Excellent", meaning: "specialised provider for the language pair" };
  if (score >= 0.8) return { band: "Good", meaning: "dedicated translation model" };
  if (score >= 0.7) return { band: "Decent", meaning: "general purpose model with reasonable coverage" };
  if (score >= 0.6) return { band: "Acceptable", meaning: "multilingual fallback model" };
  return { band: "Poor", meaning: "use with caution" };
}

export const PROVIDER_BLURB: Record<string, string> = {
  auto: "auto — best for the pair, with fallback",
  provider_a: "provider_a — Ugandan languages",
  provider_b: "provider_b — West African ↔ English",
  provider_c: "provider_c — open models",
};
