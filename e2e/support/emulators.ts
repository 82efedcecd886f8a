import { PROVIDERS } from "@/lib/providers/descriptors";
import { type EmulatorKind, type EmulatorServer, type EmulatorServerOptions, startEmulatorServer } from "@/lib/providers/sandbox";

/**
 * Every provider's emulator on loopback (in routing order: provider_a, provider_b, provider_c), and the environment
 * that points an app's live clients at them — read from the descriptors, so a new provider is served here too.
 */
export async function startLiveEmulators(): Promise<{ emulators: [EmulatorServer, EmulatorServer, EmulatorServer]; env: Record<string, string> }> {
  const emulators = await Promise.all(PROVIDERS.map((d) => startEmulatorServer(d.emulator.kind)));
  return { emulators: emulators as [EmulatorServer, EmulatorServer, EmulatorServer], env: liveEnv(emulators) };
}

/** Live mode with each provider's URL variable pointing at its emulator (`emulators` in routing order), plus `extra`. */
export function liveEnv(emulators: readonly EmulatorServer[], extra: Record<string, string> = {}): Record<string, string> {
  return { PROVIDER_MODE: "live", ...Object.fromEntries(PROVIDERS.map((d, i) => [d.env.url, emulators[i].url])), ...extra };
}

/** Credentials in each provider's own form, for emulators that check them (a test of the live clients' auth). */
export const EMULATOR_CREDENTIALS: Record<EmulatorKind, string> = {
  sunbird: "eyJ.emulated-token",
  khaya: "0123456789abcdef0123456789abcdef",
  hf: "hf_emulatedtoken",
};

/**
 * Every provider's emulator on loopback, each accepting only its EMULATOR_CREDENTIALS (`options` per kind: injected
 * faults, undeployed models), and the environment of an app whose live clients use them with those credentials —
 * Hugging Face's Hub answered by its emulator too. `extra` is added to the environment.
 */
export async function startCheckingEmulators(
  options: Partial<Record<EmulatorKind, EmulatorServerOptions>> = {},
  extra: Record<string, string> = {},
): Promise<{ emulators: [EmulatorServer, EmulatorServer, EmulatorServer]; env: Record<string, string> }> {
  const emulators = await Promise.all(
    PROVIDERS.map((d) => startEmulatorServer(d.emulator.kind, { credential: EMULATOR_CREDENTIALS[d.emulator.kind], ...options[d.emulator.kind] })),
  );
  const credentials = Object.fromEntries(PROVIDERS.map((d) => [d.env.credential, EMULATOR_CREDENTIALS[d.emulator.kind]]));
  const hub = emulators[PROVIDERS.findIndex((d) => d.emulator.kind === "hf")].url;
  return {
    emulators: emulators as [EmulatorServer, EmulatorServer, EmulatorServer],
    env: liveEnv(emulators, { ...credentials, HF_HUB_URL: hub, ...extra }),
  };
}
