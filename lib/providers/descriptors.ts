import type { ProviderDescriptor } from "./descriptor";
import { huggingFace } from "./huggingface.descriptor";
import { khaya } from "./khaya.descriptor";
import { sunbird } from "./sunbird.descriptor";
import type { ProviderId } from "./types";

/**
 * Every provider, in routing order: auto routing tries the providers that serve a request in this order, for
 * translation, speech-to-text and text-to-speech alike. Adding a provider: its client, its descriptor (beside the
 * client) and its emulator (./sandbox), then one entry here and its id in PROVIDER_IDS (the API's provider enum).
 */
export const PROVIDERS: readonly ProviderDescriptor[] = [sunbird, khaya, huggingFace];

export function descriptorFor(id: ProviderId, providers: readonly ProviderDescriptor[] = PROVIDERS): ProviderDescriptor {
  const descriptor = providers.find((d) => d.id === id);
  if (!descriptor) throw new Error(`no descriptor for provider ${id}`);
  return descriptor;
}
