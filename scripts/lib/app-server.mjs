/**
 * The production build as a server for a test run outside vitest (scripts/test.mjs: the Python client's tests), on a
 * loopback port, in sandbox mode on an in-memory PGlite database, with nothing from the developer's environment but
 * PATH and HOME: the same settings as e2e/support/app.ts's startApp. Its output goes to a log file (a pipe nobody
 * reads would block it once full).
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import net from "node:net";

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * @param {{ env?: Record<string, string>, log: string }} options
 * @returns {Promise<{ url: string, stop(): Promise<void> }>}
 */
export async function startBuiltApp({ env = {}, log }) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const fd = openSync(log, "w");
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: "pglite:memory",
      PROVIDER_MODE: "sandbox",
      API_KEY_HASH_SECRET: "test-hash-secret",
      NEXTAUTH_SECRET: "test-nextauth-secret-of-32-characters",
      NEXTAUTH_URL: url,
      ...env,
    },
    stdio: ["ignore", fd, fd],
  });
  closeSync(fd);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${readFileSync(log, "utf8")}`);
    try {
      if ((await fetch(`${url}/health`)).status === 200) return { url, stop };
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the app did not become healthy within 60 s:\n${readFileSync(log, "utf8")}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A new API key from the app (POST /api/v1/auth/keys). */
export async function mintKey(url, name) {
  const res = await fetch(`${url}/api/v1/auth/keys`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  const body = await res.json().catch(() => undefined);
  if (res.status !== 200 || !body?.api_key) throw new Error(`POST /api/v1/auth/keys answered ${res.status}: ${JSON.stringify(body)}`);
  return body.api_key;
}
