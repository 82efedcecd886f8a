import { PROVIDERS } from "@/lib/providers/descriptors";
import { type EmulatorServer, startEmulatorServer } from "@/lib/providers/sandbox";

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
