import { type ChildProcess, execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { inject } from "vitest";
import { freePort, waitFor } from "./net";
import { createDatabase } from "./postgres";

/**
 * Starts the production build (`next start`) as a real server process on a loopback port, on the database of the
 * current test project (api-pglite: an in-memory PGlite per instance; api-postgres: a fresh database on the test
 * PostgreSQL, migrated by the project's own `db:migrate` command). Nothing is inherited from the developer's
 * environment except PATH/HOME, so a local DATABASE_URL or provider credential can never leak into a test.
 */
export interface RunningApp {
  url: string;
  port: number;
  databaseUrl: string;
  /** Everything the server printed so far (stdout and stderr). */
  logs(): string;
  /** Sends `signal` (default SIGTERM) and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  process: ChildProcess;
}

export interface StartAppOptions {
  env?: Record<string, string | undefined>;
  /** Run on this database URL instead of a fresh one (e.g. two instances sharing one database). */
  databaseUrl?: string;
  /** Wait until /health answers 200 (default). With false, only until the server answers at all (any status). */
  waitUntilHealthy?: boolean;
  /** How long to wait for that (default 60 s); a file that starts a single app may wait longer on a loaded machine. */
  readyTimeoutMs?: number;
}

const running = new Set<RunningApp>();

/** A generous wait for one app's first /health (database created and migrated) when the machine is busy. */
export const COLD_START_MS = 150_000;

/** HEALTH_OPERATOR_TOKEN of every test server: with it, /health shows the operator view (engine, limiter, URLs). */
export const OPERATOR_TOKEN = "test-health-operator-token";
/** Headers for the operator view of /health. */
export const OPERATOR_HEADERS = { authorization: `Bearer ${OPERATOR_TOKEN}` };

export async function freshDatabaseUrl(): Promise<string> {
  if (inject("database") === "postgres") {
    const adminUrl = inject("postgresAdminUrl");
    if (!adminUrl) throw new Error(inject("postgresSetupError") ?? "postgres project without a server (global-setup did not run)");
    const url = await createDatabase(adminUrl);
    await promisify(execFile)(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/migrate.ts"], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: url } as unknown as NodeJS.ProcessEnv,
    });
    return url;
  }
  return "pglite:memory";
}

export async function startApp(options: StartAppOptions = {}): Promise<RunningApp> {
  const port = await freePort();
  const databaseUrl = options.databaseUrl ?? (await freshDatabaseUrl());
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: databaseUrl,
    PROVIDER_MODE: "sandbox",
    // The in-process emulators translate as machine translation at its worst (e2e/support/sandbox-setup.ts).
    SANDBOX_TRANSLATION: "hostile",
    API_KEY_HASH_SECRET: "test-hash-secret",
    NEXTAUTH_SECRET: "test-nextauth-secret-of-32-characters",
    HEALTH_OPERATOR_TOKEN: OPERATOR_TOKEN,
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
  };
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const app: RunningApp = {
    url,
    port,
    databaseUrl,
    process: child,
    logs: () => output,
    stop: async (signal = "SIGTERM") => {
      running.delete(app);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(app);
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
      const res = await fetch(`${url}/health`);
      if (res.status !== 200 && options.waitUntilHealthy !== false) throw new Error(`health ${res.status}: ${await res.text()}`);
    }, options.readyTimeoutMs ?? 60_000);
  } catch (err) {
    await app.stop("SIGKILL");
    throw err;
  }
  return app;
}

/** Stops every app this test file started (call in afterAll). */
export async function stopAllApps() {
  await Promise.all([...running].map((a) => a.stop()));
}
