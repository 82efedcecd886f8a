/**
 * Starts a production build (`next start`) on a loopback port for the focused benchmarks (bench/auth-flood.ts,
 * bench/hang.ts). `appDir` may be another checkout's directory with its own build, to measure before and after a change
 * with the same script.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { freePort, waitFor } from "../e2e/support/net";
import { serverOutput } from "./proc";

export interface BenchApp {
  url: string;
  /** The `next start` process id. */
  pid: number;
  logs(): string;
  stop(): Promise<void>;
}

export async function startBuiltApp(appDir: string, extraEnv: Record<string, string>): Promise<BenchApp> {
  const port = await freePort();
  const output = serverOutput("app");
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(appDir, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: appDir,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        DATABASE_URL: "pglite:memory",
        API_KEY_HASH_SECRET: "bench-hash-secret",
        NEXTAUTH_SECRET: "bench-nextauth-secret-of-enough-length",
        NEXTAUTH_URL: `http://127.0.0.1:${port}`,
        ...extraEnv,
      },
      stdio: output.stdio,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`next start exited ${child.exitCode}: ${output.tail()}`);
      if ((await fetch(`${url}/health`)).status !== 200) throw new Error("not healthy yet");
    },
    90_000,
    200,
  );
  return {
    url,
    pid: child.pid!,
    logs: () => output.tail(),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export async function mintKey(url: string, name = "bench"): Promise<string> {
  const res = await fetch(`${url}/api/v1/auth/keys`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  if (res.status !== 200) throw new Error(`mint ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { api_key: string }).api_key;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
