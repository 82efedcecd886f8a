import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "./net";

/*
 * A real, throw-away redis-server for tests: loopback only, free port, no persistence, its own temp dir.
 * Needs the `redis-server` binary (Debian: apt-get install -y redis-server; or REDIS_SERVER_BIN=/path).
 */

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server and removes its directory. Safe to call more than once. */
  stop(): Promise<void>;
}

export interface StartRedisOptions {
  /** Reuse a port, e.g. to restart Redis where clients expect it after simulating an outage. Default: a free port. */
  port?: number;
  /** How long to wait for PING to answer. Default 10 s. */
  readyTimeoutMs?: number;
}

const running = new Set<ChildProcess>();
// A test runner that dies without calling stop() must not leave servers behind.
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServer> {
  // A free port can be taken between probing and binding; try again on another one unless the caller fixed it.
  const attempts = options.port ? 1 : 3;
  let lastError: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await launch(options.port ?? (await freePort()), options.readyTimeoutMs ?? 10_000);
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

async function launch(port: number, readyTimeoutMs: number): Promise<RedisServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "lugha-redis-"));
  const bin = process.env.REDIS_SERVER_BIN ?? "redis-server";
  const child = spawn(bin, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let spawnError: Error | undefined;
  child.once("error", (err) => {
    spawnError = err;
  });

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null && !spawnError) {
        child.kill("SIGTERM");
        const killTimer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(killTimer);
      }
      running.delete(child);
      await rm(dir, { recursive: true, force: true });
    })());

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (spawnError || child.exitCode !== null) {
      await stop();
      const why = spawnError ? `${spawnError.message} (is redis-server installed? apt-get install -y redis-server)` : output;
      throw new Error(`redis-server on port ${port} did not start: ${why}`);
    }
    if (await answersPing(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server on port ${port} did not answer PING within ${readyTimeoutMs} ms: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, port, stop };
}

/** Raw RESP PING, so readiness does not depend on a client library's reconnect behaviour. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let reply = "";
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.on("data", (d) => {
      reply += d.toString();
      if (reply.includes("\r\n")) done(reply.startsWith("+PONG"));
    });
  });
}
