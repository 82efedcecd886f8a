export { type EmulatorControls, type EmulatorStats, emulatorControlsSchema, FAIL_MODES, type FailMode, type RecordedRequest } from "./controls";
export { createEmulator, EMULATOR_KINDS } from "./create";
export { type Emulator, type EmulatorKind, type EmulatorOptions, type FetchHandler, inProcessFetch } from "./emulator";
export { HF_REFERENCE_UNDEPLOYED, type HfDeployment, hfDeployment } from "./hf";
export { type EmulatorServer, type EmulatorServerOptions, startEmulatorServer } from "./server";
export type { SunbirdBatchFaults } from "./sunbird-speech";
export { hostileTranslation, type SandboxTranslation, setDefaultSandboxTranslation } from "./translation";
export { makeWav, parseWav, speechDurationSeconds, type WavInfo } from "./wav";
