/**
 * What a flood of random, well-formed API keys costs a legitimate caller (docs/security.md: the failed-authentication
 * bound; figures in docs/benchmark.md "A flood of bad keys").
 *
 *   npx tsx bench/auth-flood.ts            (needs a production build: npm run build)
 *
 *   FLOOD_DURATION=20        seconds per scenario
 *   FLOOD_CONNECTIONS=50     concurrent flood requests
 *   FLOOD_SCENARIOS=none,one-address,many-addresses,no-key
 *   FLOOD_APP_DIR=<dir>      run another checkout's build (e.g. the commit before the throttle), same script
 *
 * The app runs on PGlite with TRUST_PROXY=true, so each request names its client address in X-Forwarded-For (a proxy
 * would). Scenarios, each on a fresh app:
 *   none            the legitimate caller alone
 *   one-address     the flood from one address, which the legitimate caller shares (a NAT): its key, used once
 *                   before the flood, must keep working
 *   many-addresses  every flood request from a new address, the legitimate caller from another: the throttle cannot
 *                   help (each address has its own budget), the figure docs/security.md's bound is honest about
 *   no-key          the same flood without any key (401 MISSING_API_KEY, never a lookup): the floor, what any flood of
 *                   that many connections costs the caller by sharing the server's CPU
 * The legitimate caller sends GET /api/v1/languages one request at a time throughout; its p50/p99 are the result.
 * Loopback only; bounded by FLOOD_DURATION and FLOOD_CONNECTIONS.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { mintKey, percentile, startBuiltApp } from "./start-app";

const env = process.env;
const DURATION_S = Number(env.FLOOD_DURATION ?? 20);
const CONNECTIONS = Number(env.FLOOD_CONNECTIONS ?? 50);
const SCENARIOS = (env.FLOOD_SCENARIOS ?? "none,one-address,many-addresses,no-key").split(",");
const APP_DIR = path.resolve(env.FLOOD_APP_DIR ?? path.join(import.meta.dirname, ".."));

const randomKey = () => `svc_${randomBytes(20).toString("hex")}`;
const randomAddress = () => `10.${randomBytes(3).join(".")}`;

async function scenario(name: string) {
  const app = await startBuiltApp(APP_DIR, { PROVIDER_MODE: "sandbox", TRUST_PROXY: "true", RATE_LIMIT_DEFAULT: "100000000/1s" });
  try {
    const key = await mintKey(app.url);
    const shared = "203.0.113.66";
    const legitAddress = name === "one-address" ? shared : "198.51.100.1";
    const get = (k: string | undefined, address: string) =>
      fetch(`${app.url}/api/v1/languages`, { headers: { ...(k ? { authorization: `Bearer ${k}` } : {}), "x-forwarded-for": address } });
    for (let i = 0; i < 20; i++) await (await get(key, legitAddress)).arrayBuffer(); // warm: the key is verified

    const until = Date.now() + DURATION_S * 1000;
    const flood: Record<string, number> = {};
    const floodWorkers =
      name === "none"
        ? []
        : Array.from({ length: CONNECTIONS }, async () => {
            while (Date.now() < until) {
              const res = await get(name === "no-key" ? undefined : randomKey(), name === "one-address" ? shared : randomAddress());
              await res.arrayBuffer();
              flood[res.status] = (flood[res.status] ?? 0) + 1;
            }
          });
    const latencies: number[] = [];
    const legit: Record<string, number> = {};
    const legitWorker = (async () => {
      while (Date.now() < until) {
        const t0 = performance.now();
        const res = await get(key, legitAddress);
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        legit[res.status] = (legit[res.status] ?? 0) + 1;
      }
    })();
    await Promise.all([...floodWorkers, legitWorker]);
    latencies.sort((a, b) => a - b);
    const floodTotal = Object.values(flood).reduce((a, b) => a + b, 0);
    return {
      scenario: name,
      legit_requests: latencies.length,
      legit_statuses: legit,
      legit_p50_ms: Number(percentile(latencies, 50).toFixed(1)),
      legit_p99_ms: Number(percentile(latencies, 99).toFixed(1)),
      flood_requests_per_s: Math.round(floodTotal / DURATION_S),
      flood_statuses: flood,
    };
  } finally {
    await app.stop();
  }
}

async function main() {
  console.error(`app: ${APP_DIR}; ${DURATION_S} s per scenario, ${CONNECTIONS} flood connections`);
  const rows = [];
  for (const name of SCENARIOS) {
    const row = await scenario(name);
    console.error(JSON.stringify(row));
    rows.push(row);
  }
  console.log("| scenario | legit p50 ms | legit p99 ms | legit requests (statuses) | flood req/s | flood statuses |");
  console.log("|---|---:|---:|---|---:|---|");
  for (const r of rows)
    console.log(
      `| ${r.scenario} | ${r.legit_p50_ms} | ${r.legit_p99_ms} | ${r.legit_requests} ${JSON.stringify(r.legit_statuses)} | ${r.flood_requests_per_s} | ${JSON.stringify(r.flood_statuses)} |`,
    );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
