export { FAIL_MODES, emulatorControlsSchema, type EmulatorControls, type EmulatorStats, type FailMode, type RecordedRequest } from "./controls";
export { createEmulator } from "./create";
export { EMULATOR_KINDS, inProcessFetch, type Emulator, type EmulatorKind, type EmulatorOptions, type FetchHandler } from "./emulator";
export { startEmulatorServer, type EmulatorServer, type EmulatorServerOptions } from "./server";
export { makeWav, parseWav, speechDurationSeconds, type WavInfo } from "./wav";
