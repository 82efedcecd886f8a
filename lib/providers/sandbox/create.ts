import { createEmulatorCore, type Emulator, type EmulatorKind, type EmulatorOptions, type ProviderBehaviour } from "./emulator";
import { hfBehaviour } from "./hf";
import { khayaBehaviour } from "./khaya";
import { sunbirdBehaviour } from "./sunbird";

const BEHAVIOURS: Record<EmulatorKind, (opts: EmulatorOptions) => ProviderBehaviour> = {
  sunbird: sunbirdBehaviour,
  khaya: khayaBehaviour,
  hf: hfBehaviour,
};

/** An emulator of one upstream API as a fetch handler, with its live controls and stats. */
export function createEmulator(kind: EmulatorKind, opts: EmulatorOptions = {}): Emulator {
  return createEmulatorCore(kind, BEHAVIOURS[kind](opts), opts.controls);
}
