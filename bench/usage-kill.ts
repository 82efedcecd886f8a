/**
 * How many usage counts a hard kill loses: the durability of `requests_total` under SIGKILL, on PGlite and PostgreSQL.
 *
 *   npx tsx bench/usage-kill.ts            (needs a production build in .next: npm run build)
 *
 *   KILL_REQUESTS=250      authenticated requests per round (GET /api/v1/languages, 10 at a time)
 *   KILL_ROUNDS=3          rounds per database
 *   KILL_DATABASES=pglite,postgres
 *   KILL_APP_ENV='{"USAGE_FLUSH_INTERVAL_MS":"50"}'   extra environment for the app
 *
 * Each round: start the app on a fresh database, mint a key, send the requests, SIGKILL the server the moment the last
 * response arrives, start it again on the same database and read `requests_total` from GET /keys/me (exact: that route
 * writes pending counts first and counts itself in the same statement). Lost = requests answered − requests counted.
 * Also printed: how many of the answered requests arrived in the last flush interval before the kill, the bound the
 * docs/benchmark.md states ("The hot path": usage counts).
 */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, waitFor } from "../e2e/support/net";
import { createDatabase, type PostgresServer, startPostgres } from "../e2e/support/postgres";

const env = process.env;
const REQUESTS = Number(env.KILL_REQUESTS ?? 250);
const ROUNDS = Number(env.KILL_ROUNDS ?? 3);
const DATABASES = (env.KILL_DATABASES ?? "pglite,postgres").split(",");
const APP_ENV: Record<string, string> = env.KILL_APP_ENV ? JSON.parse(env.KILL_APP_ENV) : {};
const FLUSH_MS = Number(APP_ENV.USAGE_FLUSH_INTERVAL_MS ?? 50);
const ROOT = path.resolve(import.meta.dirname, "..");

async function startApp(databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: {
      PATH: env.PATH,
      HOME: env.HOME,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: databaseUrl,
      PROVIDER_MODE: "sandbox",
      API_KEY_HASH_SECRET: "kill-hash-secret",
      NEXTAUTH_SECRET: "kill-nextauth-secret-of-enough-length",
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT_DEFAULT: "100000000/1s",
      ...APP_ENV,
    },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`);
    if ((await fetch(`${url}/health`)).status !== 200) throw new Error("not healthy yet");
  }, 60_000);
  return { url, child };
}

async function round(databaseUrl: string): Promise<{ lost: number; inLastWindow: number; seconds: number }> {
  let app = await startApp(databaseUrl);
  const minted = await fetch(`${app.url}/api/v1/auth/keys`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "kill" }),
  });
  const { api_key: key } = (await minted.json()) as { api_key: string };
  const auth = { authorization: `Bearer ${key}` };
  const answeredAt: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < REQUESTS) {
      next += 1;
      const res = await fetch(`${app.url}/api/v1/languages`, { headers: auth });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      answeredAt.push(performance.now());
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  app.child.kill("SIGKILL");
  const killedAt = performance.now();
  await new Promise((r) => app.child.once("exit", r));
  app = await startApp(databaseUrl);
  const me = (await (await fetch(`${app.url}/api/v1/auth/keys/me`, { headers: auth })).json()) as { requests_total: number };
  app.child.kill("SIGTERM");
  await new Promise((r) => app.child.once("exit", r));
  return {
    lost: REQUESTS + 1 - me.requests_total, // + 1: the /keys/me request counts itself
    inLastWindow: answeredAt.filter((t) => t >= killedAt - FLUSH_MS).length,
    seconds: (killedAt - started) / 1000,
  };
}

async function main() {
  let pg: PostgresServer | undefined;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "lugha-kill-"));
  try {
    for (const db of DATABASES) {
      if (db === "postgres") pg = await startPostgres();
      for (let i = 1; i <= ROUNDS; i++) {
        let url = `pglite:${path.join(tmp, `pglite-${i}`)}`;
        if (db === "postgres" && pg) {
          url = await createDatabase(pg.adminUrl);
          const migrate = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/migrate.ts"], {
            cwd: ROOT,
            env: { PATH: env.PATH, HOME: env.HOME, DATABASE_URL: url } as unknown as NodeJS.ProcessEnv,
            stdio: "inherit",
          });
          await new Promise((r) => migrate.once("exit", r));
        }
        const r = await round(url);
        console.log(
          `${db} round ${i}: ${REQUESTS} requests in ${r.seconds.toFixed(2)} s; lost ${r.lost}; answered in the last ${FLUSH_MS} ms before the kill: ${r.inLastWindow}`,
        );
      }
    }
  } finally {
    await pg?.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
