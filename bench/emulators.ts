/**
 * The three upstream emulators (Sunbird, Khaya, Hugging Face) on loopback ports in one process, for the benchmark.
 * Prints one JSON line {"sunbird","khaya","hf"} (their base URLs) when all listen. Latency and faults are driven from
 * outside through each server's /__control route (lib/providers/sandbox/controls.ts).
 */
import { startEmulatorServer } from "@/lib/providers/sandbox";

async function main() {
  const [sunbird, khaya, hf] = await Promise.all([startEmulatorServer("sunbird"), startEmulatorServer("khaya"), startEmulatorServer("hf")]);
  process.stdout.write(`${JSON.stringify({ sunbird: sunbird.url, khaya: khaya.url, hf: hf.url })}\n`);
  const stop = () => void Promise.all([sunbird.close(), khaya.close(), hf.close()]).finally(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
