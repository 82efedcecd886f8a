import { PROVIDERS } from "@/lib/providers/descriptors";

/**
 * API provider id → human name ("provider_a" → "Sunbird AI"), from the provider descriptors. Server components only:
 * they pass the result to client components as a prop, since importing the descriptors into a client component would
 * bundle the provider clients.
 */
export function providerNames(): Record<string, string> {
  return Object.fromEntries(PROVIDERS.map((d) => [d.id, d.displayName]));
}
