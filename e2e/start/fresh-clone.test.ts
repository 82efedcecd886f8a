import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyCheckout, REPO } from "../support/checkout";
import { freePort, waitFor } from "../support/net";

/**
 * `npm test -- start`: the README's first command on a fresh clone. The checkout is copied into an empty folder as a
 * clone holds it (no `.data/`, no `.env*` file), and the README's start step, `npm start`, runs there exactly as
 * written: nothing in its environment but PATH, HOME and PORT (a free port instead of 3000, which another server on
 * the machine may hold), so no DATABASE_URL, no secret, no provider credential. It must serve /health, issue a key and
 * translate, as the README's "Try it" does.
 *
 * The two steps before it are reused rather than repeated: `npm ci`'s `node_modules` (hard links, with the generated
 * Prisma client in `lib/generated` and the built TypeScript client that its postinstall and prepare scripts make) and
 * `npm run build`'s `.next` (without its cache), which `npm test` builds first. Repeating them would need the registry
 * and several minutes, and each is tested elsewhere (`npm ci` by CI, the build by the `build` part and `vercel build`
 * by the `vercel` part); what no other test did is start the server in a folder where nothing has run yet.
 */
let work: string;
let server: ChildProcess | undefined;
let output = "";
let url: string;

beforeAll(async () => {
  expect(existsSync(path.join(REPO, ".next", "BUILD_ID")), "no production build: run `npm run build` first").toBe(true);
  work = mkdtempSync(path.join(tmpdir(), "lugha-fresh-clone-"));
  copyCheckout(work, [...buildOutputs(), "lib/generated", "clients/typescript/dist"]);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  // Its own process group, so that stopping it stops the shell, npm and the server npm started.
  const env = { PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`, HOME: process.env.HOME, PORT: String(port) };
  const started = spawn("sh", ["-c", readmeStartStep()], {
    cwd: work,
    env: env as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  server = started;
  started.stdout.on("data", (d) => (output += d));
  started.stderr.on("data", (d) => (output += d));
  const exited = new Promise<never>((_, reject) =>
    started.once("exit", (code) => reject(new Error(`The start step exited with ${code} before serving:\n${output.slice(-3000)}`))),
  );
  const healthy = waitFor(async () => {
    const res = await fetch(`${url}/health`);
    if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
  }, 240_000);
  healthy.catch(() => undefined); // when the server exits first, the race below reports that instead
  await Promise.race([healthy, exited]);
}, 300_000);

afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    const stopped = new Promise((resolve) => server?.once("exit", resolve));
    process.kill(-server.pid, "SIGTERM");
    const timer = setTimeout(() => server?.pid && process.kill(-server.pid, "SIGKILL"), 10_000);
    await stopped;
    clearTimeout(timer);
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The last step of the README's first command (`npm ci && npm run build && npm start`), as written there. */
function readmeStartStep(): string {
  const first = readFileSync(path.join(REPO, "README.md"), "utf8").match(/^```bash\n(npm ci && npm run build && .+?)\s+#/m);
  expect(first, "README.md's first command").toBeTruthy();
  const step = first![1].split("&&").at(-1)!.trim();
  expect(step).toBe("npm start");
  return step;
}

/** What `npm run build` leaves in .next, without its cache (hundreds of megabytes `next start` never reads). */
function buildOutputs(): string[] {
  return readdirSync(path.join(REPO, ".next"))
    .filter((name) => name !== "cache")
    .map((name) => path.join(".next", name));
}

describe("npm start on a fresh clone, with nothing configured", () => {
  it("creates the embedded database under .data/pglite in the clone and serves /health", async () => {
    expect(output).toMatch(/Created the embedded database at \.data\/pglite \(\d+ migrations, \d+ ms\)\./);
    expect(existsSync(path.join(work, ".data", "pglite", "PG_VERSION"))).toBe(true);
    const health = await (await fetch(`${url}/health`)).json();
    expect(health).toMatchObject({ status: "ok", checks: { database: { status: "ok" }, providers: { sandbox: true } } });
  });

  it("issues a key and translates with it, on the sandbox providers", async () => {
    const issued = await fetch(`${url}/api/v1/auth/keys`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "my app" }),
    });
    expect(issued.status).toBe(200);
    const { api_key } = (await issued.json()) as { api_key: string };
    expect(api_key).toMatch(/^svc_[0-9a-f]{40}$/);

    const res = await fetch(`${url}/api/v1/translate`, {
      method: "POST",
      headers: { authorization: `Bearer ${api_key}`, "content-type": "application/json" },
      body: JSON.stringify({ text: "Good morning, how are you?", source_lang: "en", target_lang: "lug" }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { translated_text: string; sandbox: boolean; detected_source_lang: string };
    expect(body).toMatchObject({ sandbox: true, detected_source_lang: "en" });
    expect(body.translated_text).toMatch(/^\[sandbox:/);
  });
});
