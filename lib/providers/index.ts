import type { BaseClient, UpstreamBudget } from "./client";
import type { ProvidersConfig } from "./config";
import type { ProviderDescriptor } from "./descriptor";
// Not "./sandbox": that index also carries the node:http server, which the app never needs.
import { emulatorFor } from "./sandbox/create";
import { type Emulator, inProcessFetch } from "./sandbox/emulator";
import { type CircuitState, PROVIDER_IDS, type ProviderClient, type ProviderId, type ProviderMode } from "./types";

export { BUDGET_REFUSED, type ClientOptions, type UpstreamBudget } from "./client";
export { DEFAULT_HF_ASR_MODEL, defaultHfTtsModel, SUNBIRD_ORPHEUS_VOICES, SUNBIRD_SPARK_VOICES, toIso3 } from "./codes";
export { loadProvidersConfig, type ProvidersConfig } from "./config";
export { type CatalogueSettings, catalogueSettings, setCatalogueSettings } from "./deployment";
export type { AudioFormat, InputLimit, ProviderDescriptor, RouteContext, RouteSpec, Tier, TranslationRoute, VoiceSpec } from "./descriptor";
export { QUALITY } from "./descriptor";
export { descriptorFor, PROVIDERS } from "./descriptors";
export { HuggingFaceClient } from "./huggingface";
export { KHAYA_MAX_TEXT_CHARS, KHAYA_SPEAKERS, KhayaClient } from "./khaya";
export { SUNBIRD_LANGUAGE_ID_LABELS, SUNBIRD_MAX_TEXT_CHARS, SunbirdClient } from "./sunbird";
export * from "./types";

export interface ProviderStatus {
  mode: ProviderMode;
  circuit: CircuitState;
  /** "in-process sandbox" in sandbox mode. */
  base_url: string;
  /** False for a live provider with neither credential nor custom URL: it fails every call with kind "auth". */
  configured: boolean;
  /** True after the provider answered that the account's credit is spent (Hugging Face's 402), until a call succeeds. */
  out_of_credit: boolean;
}

/** What sandbox clients send and their emulators demand, so the real auth code runs in sandbox mode too. */
const SANDBOX_CREDENTIAL = "sandbox-credential";

export interface Registry {
  clients: Record<ProviderId, BaseClient & ProviderClient>;
  emulators: Partial<Record<ProviderId, Emulator>>;
}

/**
 * Builds one client per provider: live ones over the network, drawing on the upstream budgets (`budget`: lib/budgets,
 * from the composition root), and sandbox ones wired to an in-process emulator. The sandbox is not metered: an
 * emulator has no quota to protect, and an offline demo or test run should never be refused for want of one.
 */
export function createProviders(config: ProvidersConfig, providers: readonly ProviderDescriptor[], budget: () => UpstreamBudget): Registry {
  const emulators: Partial<Record<ProviderId, Emulator>> = {};
  const clients = Object.fromEntries(
    providers.map((descriptor) => {
      const { id } = descriptor;
      const settings = config.providers[id];
      const common = { policy: config.policy, speechAttemptTimeoutMs: config.speechAttemptTimeoutMs, circuit: config.circuit };
      if (settings.mode === "live") {
        const { baseUrl, credential, configured } = settings;
        return [id, new descriptor.client({ ...common, mode: "live", baseUrl, credential, configured, budget: budget() })];
      }
      const emulator = emulatorFor(descriptor, { credential: SANDBOX_CREDENTIAL, translation: config.sandboxTranslation });
      emulators[id] = emulator;
      const baseUrl = `http://${emulator.kind}.sandbox.invalid`;
      return [
        id,
        new descriptor.client({ ...common, mode: "sandbox", baseUrl, credential: SANDBOX_CREDENTIAL, fetch: inProcessFetch(emulator.handler) }),
      ];
    }),
  ) as Registry["clients"];
  return { clients, emulators };
}

/** Per-provider mode, circuit and base URL for /health. Never includes credentials. */
export function providerStatus(clients: Registry["clients"]): Record<ProviderId, ProviderStatus> {
  return Object.fromEntries(
    PROVIDER_IDS.map((id) => {
      const client = clients[id];
      const configured = client.mode === "sandbox" || client.isConfigured;
      const base_url = client.mode === "sandbox" ? "in-process sandbox" : client.baseUrl;
      return [id, { mode: client.mode, circuit: client.circuitState, base_url, configured, out_of_credit: client.outOfCredit }];
    }),
  ) as Record<ProviderId, ProviderStatus>;
}
