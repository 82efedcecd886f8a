import { spawn } from "node:child_process";
import { expect, it } from "vitest";
import { freePort } from "../support/net";

/*
 * The configuration is checked when the server starts (instrumentation.ts → lib/config): with a malformed value the
 * production build prints every problem and exits 1 instead of serving.
 */
async function startFailure(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", DATABASE_URL: "pglite:memory", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(timer);
  return { code, output };
}

it("a malformed value stops start-up with one message listing every problem, values not quoted", async () => {
  const { code, output } = await startFailure({ RATE_LIMIT_DEFAULT: "lots-of-requests", KEY_CACHE_TTL_MS: "-1", REDIS_URL: "cache:6379" });
  expect(code).toBe(1);
  expect(output).toMatch(/Invalid configuration \(3 problems\)/);
  for (const name of ["RATE_LIMIT_DEFAULT", "KEY_CACHE_TTL_MS", "REDIS_URL"]) expect(output).toContain(`- ${name} `);
  expect(output).not.toContain("lots-of-requests");
});

it("in production a NEXTAUTH_SECRET under 32 characters stops start-up", async () => {
  const { code, output } = await startFailure({ VERCEL: "1", NEXTAUTH_SECRET: "x" });
  expect(code).toBe(1);
  expect(output).toMatch(/NEXTAUTH_SECRET is 1 characters; in production it must be at least 32/);
});
