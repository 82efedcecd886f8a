import { PROVIDERS } from "@/lib/providers/descriptors";

/**
 * API provider id → human name ("provider_a" → "Sunbird AI"), from the provider descriptors. Server components only:
 * they pass the result to client components as a prop, since importing the descriptors into a client component would
 * bundle the provider clients.
 */
export function providerNames(): Record<string, string> {
  return Object.fromEntries(PROVIDERS.map((d) => [d.id, d.displayName]));
}

/** The playground's provider choices: auto, then every provider in routing order with what it is chosen for. */
export function providerChoices(): [id: string, blurb: string][] {
  return [["auto", "the best provider for the pair, then the next when one fails"], ...PROVIDERS.map((d): [string, string] => [d.id, d.blurb])];
}

/** The providers in routing order, for the home page: id, human name, what each is chosen for. */
export function providerSummaries(): { id: string; name: string; blurb: string }[] {
  return PROVIDERS.map((d) => ({ id: d.id, name: d.displayName, blurb: d.blurb }));
}
