import { execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, waitFor } from "./net";

/**
 * A real PostgreSQL (Debian's server packages) in a temporary data directory on a loopback port, for one test run.
 * As root (CI) the server runs as the `postgres` user, because initdb refuses to run as root.
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

function binDir(): string {
  try {
    return execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
  } catch {
    const root = "/usr/lib/postgresql";
    const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
    if (!versions.length) throw new Error("PostgreSQL server binaries not found: apt-get install -y postgresql");
    return path.join(root, versions[0], "bin");
  }
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), "lugha-pg-"));
  const dataDir = path.join(dir, "data");
  chmodSync(dir, 0o755);
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) => (asRoot ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args]) as [string, string[]];
  execFileSync(...run(path.join(bin, "initdb"), ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]), { stdio: "ignore" });
  const port = await freePort();
  const [cmd, args] = run(path.join(bin, "postgres"), [
    "-D", dataDir, "-p", String(port), "-k", dir, "-h", "127.0.0.1",
    "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200",
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
