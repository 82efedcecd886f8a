import { type EmulatorServer, startEmulatorServer } from "@/lib/providers/sandbox";

/** The three upstream emulators on loopback, and the environment that points an app's live clients at them. */
export async function startLiveEmulators(): Promise<{ emulators: [EmulatorServer, EmulatorServer, EmulatorServer]; env: Record<string, string> }> {
  const emulators = await Promise.all([startEmulatorServer("sunbird"), startEmulatorServer("khaya"), startEmulatorServer("hf")]);
  const [a, b, c] = emulators;
  return { emulators, env: { PROVIDER_MODE: "live", SUNBIRD_API_URL: a.url, KHAYA_API_URL: b.url, HF_API_URL: c.url } };
}
