import type { ProviderDescriptor } from "../descriptor";
import { PROVIDERS } from "../descriptors";
import { createEmulatorCore, type Emulator, type EmulatorKind, type EmulatorOptions } from "./emulator";

/** Every emulator, in routing order: one per provider descriptor. */
export const EMULATOR_KINDS: readonly EmulatorKind[] = PROVIDERS.map((d) => d.emulator.kind);

/** An emulator of one upstream API as a fetch handler, with its live controls and stats. */
export function createEmulator(kind: EmulatorKind, opts: EmulatorOptions = {}): Emulator {
  const descriptor = PROVIDERS.find((d) => d.emulator.kind === kind);
  if (!descriptor) throw new Error(`no provider emulates ${kind}`);
  return emulatorFor(descriptor, opts);
}

/** The emulator a provider's descriptor names. */
export function emulatorFor(descriptor: ProviderDescriptor, opts: EmulatorOptions = {}): Emulator {
  return createEmulatorCore(descriptor.emulator.kind, descriptor.emulator.behaviour(opts), opts.controls);
}
