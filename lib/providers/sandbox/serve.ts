/**
 * Runs one upstream emulator as a standalone loopback HTTP server (for the benchmark and manual testing):
 *
 *   npx tsx lib/providers/sandbox/serve.ts --kind khaya --port 4002 [--host 127.0.0.1] [--credential KEY] [--latency-ms 50]
 *
 * Prints one JSON line {"kind","url"} when listening. Drive faults at runtime with POST/PATCH <url>/__control
 * (see controls.ts), read stats with GET <url>/__control, zero them with POST <url>/__control/stats/reset, and reset
 * controls and stats with POST <url>/__control/reset.
 */
import { parseArgs } from "node:util";
import { EMULATOR_KINDS } from "./create";
import type { EmulatorKind } from "./emulator";
import { startEmulatorServer } from "./server";

async function main() {
  const { values } = parseArgs({
    options: {
      kind: { type: "string" },
      port: { type: "string", default: "0" },
      host: { type: "string", default: "127.0.0.1" },
      credential: { type: "string" },
      "latency-ms": { type: "string", default: "0" },
      "signed-url-ttl-ms": { type: "string" },
    },
  });
  const kind = values.kind as EmulatorKind;
  if (!EMULATOR_KINDS.includes(kind)) throw new Error(`--kind must be one of ${EMULATOR_KINDS.join(", ")}`);
  const port = Number(values.port);
  const latencyMs = Number(values["latency-ms"]);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error("--port must be 0..65535");
  if (!Number.isInteger(latencyMs) || latencyMs < 0) throw new Error("--latency-ms must be a non-negative integer");

  const server = await startEmulatorServer(kind, {
    port,
    host: values.host,
    credential: values.credential,
    controls: { latencyMs },
    signedUrlTtlMs: values["signed-url-ttl-ms"] ? Number(values["signed-url-ttl-ms"]) : undefined,
  });
  process.stdout.write(`${JSON.stringify({ kind, url: server.url })}\n`);

  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
