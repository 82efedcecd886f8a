import type { BaseClient } from "./client";
import { loadProvidersConfig, type ProvidersConfig } from "./config";
import { HuggingFaceClient } from "./huggingface";
import { KHAYA_MAX_TEXT_CHARS, KhayaClient } from "./khaya";
// Not "./sandbox": that index also carries the node:http server, which the app never needs.
import { createEmulator } from "./sandbox/create";
import { type Emulator, type EmulatorKind, inProcessFetch } from "./sandbox/emulator";
import { SUNBIRD_MAX_TEXT_CHARS, SunbirdClient } from "./sunbird";
import { type CircuitState, PROVIDER_IDS, type ProviderClient, type ProviderId, type ProviderMode } from "./types";

export type { ClientOptions } from "./client";
export { DEFAULT_HF_ASR_MODEL, defaultHfTtsModel, SUNBIRD_ORPHEUS_VOICES, SUNBIRD_SPARK_VOICES, toIso3 } from "./codes";
export { loadProvidersConfig, ProviderConfigError, type ProvidersConfig } from "./config";
export { HuggingFaceClient } from "./huggingface";
export { KHAYA_MAX_TEXT_CHARS, KHAYA_SPEAKERS, KhayaClient } from "./khaya";
export { SUNBIRD_MAX_TEXT_CHARS, SunbirdClient } from "./sunbird";
export * from "./types";

/** Input limits per provider; the clients refuse longer text, lib/translate should check before routing. */
export const PROVIDER_INPUT_LIMITS = {
  provider_a: { maxChars: SUNBIRD_MAX_TEXT_CHARS },
  provider_b: { maxChars: KHAYA_MAX_TEXT_CHARS },
  /** Marian/NLLB models truncate beyond 512 tokens; counting tokens needs the model's tokenizer, so it is not checked here. */
  provider_c: { maxTokens: 512 },
} as const satisfies Record<ProviderId, object>;

export interface ProviderStatus {
  mode: ProviderMode;
  circuit: CircuitState;
  /** "in-process sandbox" in sandbox mode. */
  base_url: string;
  /** False for a live provider with neither credential nor custom URL: it fails every call with kind "auth". */
  configured: boolean;
}

export const EMULATOR_KIND: Record<ProviderId, EmulatorKind> = { provider_a: "sunbird", provider_b: "khaya", provider_c: "hf" };
const CLIENTS: Record<ProviderId, new (opts: ConstructorParameters<typeof SunbirdClient>[0]) => BaseClient & ProviderClient> = {
  provider_a: SunbirdClient,
  provider_b: KhayaClient,
  provider_c: HuggingFaceClient,
};
/** What sandbox clients send and their emulators demand, so the real auth code runs in sandbox mode too. */
const SANDBOX_CREDENTIAL = "sandbox-credential";

interface Registry {
  clients: Record<ProviderId, BaseClient & ProviderClient>;
  emulators: Partial<Record<ProviderId, Emulator>>;
}

/** Builds the three clients: live ones over the network, sandbox ones wired to an in-process emulator. */
export function createProviders(config: ProvidersConfig = loadProvidersConfig()): Registry {
  const emulators: Partial<Record<ProviderId, Emulator>> = {};
  const clients = Object.fromEntries(
    PROVIDER_IDS.map((id) => {
      const settings = config.providers[id];
      const common = { policy: config.policy, speechAttemptTimeoutMs: config.speechAttemptTimeoutMs, circuit: config.circuit };
      if (settings.mode === "live") {
        const { baseUrl, credential, configured } = settings;
        return [id, new CLIENTS[id]({ ...common, mode: "live", baseUrl, credential, configured })];
      }
      const emulator = createEmulator(EMULATOR_KIND[id], { credential: SANDBOX_CREDENTIAL });
      emulators[id] = emulator;
      const baseUrl = `http://${EMULATOR_KIND[id]}.sandbox.invalid`;
      return [id, new CLIENTS[id]({ ...common, mode: "sandbox", baseUrl, credential: SANDBOX_CREDENTIAL, fetch: inProcessFetch(emulator.handler) })];
    }),
  ) as Registry["clients"];
  return { clients, emulators };
}

// Kept on globalThis so every bundle and hot reload shares one set of clients, and so one set of circuit breakers.
const REGISTRY = Symbol.for("lugha.providers.registry");
type GlobalWithRegistry = typeof globalThis & { [REGISTRY]?: Registry };

function registry(): Registry {
  const g = globalThis as GlobalWithRegistry;
  return (g[REGISTRY] ??= createProviders());
}

/** The three provider clients, built once from the environment. */
export function getProviders(): Record<ProviderId, ProviderClient> {
  return registry().clients;
}

/** Forget the clients (and their circuits) so the next getProviders() re-reads the environment. */
export function resetProvidersForTests(): void {
  delete (globalThis as GlobalWithRegistry)[REGISTRY];
}

/** The in-process emulator behind a sandbox provider (to inject latency or faults in tests); undefined when live. */
export function getSandboxEmulator(id: ProviderId): Emulator | undefined {
  return registry().emulators[id];
}

/** Per-provider mode, circuit and base URL for /health. Never includes credentials. */
export function providerStatus(): Record<ProviderId, ProviderStatus> {
  const { clients } = registry();
  return Object.fromEntries(
    PROVIDER_IDS.map((id) => {
      const client = clients[id];
      const configured = client.mode === "sandbox" || client.isConfigured;
      const base_url = client.mode === "sandbox" ? "in-process sandbox" : client.baseUrl;
      return [id, { mode: client.mode, circuit: client.circuitState, base_url, configured }];
    }),
  ) as Record<ProviderId, ProviderStatus>;
}
