import { afterAll, beforeAll, beforeEach } from "vitest";
import { PROVIDERS } from "@/lib/providers/descriptors";
import { type EmulatorServer, type EmulatorServerOptions, startEmulatorServer } from "@/lib/providers/sandbox";
import type { ProviderId } from "@/lib/providers/types";

/**
 * Every provider's emulator on loopback for one test file, keyed by provider id: started before its tests and closed
 * after them; with `resetEach`, their stats and controls are cleared before each test (files that count calls per test).
 * The record is filled in beforeAll, so read it inside tests and hooks, not at the file's top level.
 */
export function emulatorServersForFile(options: EmulatorServerOptions = {}, { resetEach = false } = {}): Record<ProviderId, EmulatorServer> {
  const servers = {} as Record<ProviderId, EmulatorServer>;
  beforeAll(async () => {
    const started = await Promise.all(PROVIDERS.map((d) => startEmulatorServer(d.emulator.kind, options)));
    PROVIDERS.forEach((d, i) => {
      servers[d.id] = started[i];
    });
  });
  afterAll(async () => {
    await Promise.all(Object.values(servers).map((s) => s.close()));
  });
  if (resetEach)
    beforeEach(() => {
      for (const s of Object.values(servers)) s.reset();
    });
  return servers;
}
