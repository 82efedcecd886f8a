/**
 * What the operator's view costs a translation (docs/operations.md; figures in docs/benchmark.md "Operations"), on its
 * own: the variants of bench/operations-overhead.ts (quiet, log, otlp) against fresh `next start` processes of this
 * checkout's build. The full benchmark runs the same measurement as its `operations` scenario (bench/run.ts).
 *
 *   npx tsx bench/operations.ts            (needs a production build: npm run build)
 *
 *   OPS_DURATION=10       seconds per variant (after 3 s of warm-up)
 *   OPS_CONNECTIONS=20    concurrent connections
 *   OPS_SCENARIOS=quiet,log,otlp
 *
 * The app runs in live mode against in-process emulators, on PGlite (in memory), the translation cache off, rate
 * limits out of the way; each request sends a distinct text. Loopback only.
 */
import path from "node:path";
import { startEmulatorServer } from "@/lib/providers/sandbox";
import { measureOperations, OPERATIONS_VARIANTS, type OperationsVariant, operationsTable } from "./operations-overhead";
import { mintKey, startBuiltApp } from "./start-app";

const env = process.env;
const DURATION_S = Number(env.OPS_DURATION ?? 10);
const CONNECTIONS = Number(env.OPS_CONNECTIONS ?? 20);
const VARIANTS = (env.OPS_SCENARIOS?.split(",") ?? OPERATIONS_VARIANTS) as OperationsVariant[];
const APP_DIR = path.resolve(import.meta.dirname, "..");

async function main() {
  const emulators = await Promise.all([startEmulatorServer("sunbird"), startEmulatorServer("khaya"), startEmulatorServer("hf")]);
  const live = { PROVIDER_MODE: "live", SUNBIRD_API_URL: emulators[0].url, KHAYA_API_URL: emulators[1].url, HF_API_URL: emulators[2].url };
  const rows = await measureOperations({
    variants: VARIANTS,
    start: (extra) =>
      startBuiltApp(APP_DIR, {
        ...live,
        RATE_LIMIT_TRANSLATE: "100000000/1s",
        RATE_LIMIT_DEFAULT: "100000000/1s",
        UPSTREAM_BUDGET_PROVIDER_A: "unlimited",
        ...extra,
      }),
    mintKey,
    durationS: DURATION_S,
    warmupS: 3,
    connections: CONNECTIONS,
    log: (msg) => console.error(msg),
  });
  await Promise.all(emulators.map((e) => e.close()));
  console.log(`${CONNECTIONS} connections, ${DURATION_S} s per variant, a distinct text in every request`);
  for (const line of operationsTable(rows)) console.log(line);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
