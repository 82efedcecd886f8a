import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import IORedis from "ioredis";

/*
 * A local stand-in for Upstash's REST API, so the production client (@upstash/redis + @upstash/ratelimit) runs
 * unchanged against a real redis-server in tests:
 *   POST /            body ["CMD", ...args]          -> 200 {result} | 400 {error}
 *   POST /pipeline    body [["CMD", ...], ...]       -> 200 [{result} | {error}, ...]   (in order, not atomic)
 *   POST /multi-exec  body [["CMD", ...], ...]       -> 200 [{result} | {error}, ...]   (MULTI/EXEC, atomic)
 * Authorization: Bearer <token>, else 401. With `Upstash-Encoding: base64` (the client's default) every string in a
 * result is base64 encoded, as the client decodes them all.
 *
 * Lua: @upstash/ratelimit's scripts start with `#!lua flags=allow-key-locking`, an Upstash-only flag real Redis
 * rejects. The shim drops that flag before EVAL / SCRIPT LOAD, and because the client addresses scripts by the
 * SHA1 of the text it sent, it keeps a map from that SHA1 to the one Redis knows for EVALSHA / SCRIPT EXISTS.
 */

export interface UpstashShim {
  url: string;
  token: string;
  stop(): Promise<void>;
}

type Arg = string | number | boolean | null;
type RespValue = string | number | null | RespValue[];
type Reply = { result: RespValue } | { error: string };

const UPSTASH_ONLY_FLAGS = new Set(["allow-key-locking"]);

/** Removes Upstash-only flags from a script's shebang line; other flags (no-writes, ...) are kept. */
export function stripUpstashFlags(script: string): string {
  const m = /^#!lua(?:[ \t]+flags=([^\n]*))?(\r?\n|$)/.exec(script);
  if (!m) return script;
  const kept = (m[1] ?? "")
    .split(",")
    .map((f) => f.trim())
    .filter((f) => f && !UPSTASH_ONLY_FLAGS.has(f));
  // Without flags the shebang goes entirely (legacy script semantics, as before flags existed); the line break stays
  // so Redis error line numbers still match the client's text.
  const shebang = kept.length ? `#!lua flags=${kept.join(",")}` : "";
  return shebang + m[2] + script.slice(m[0].length);
}

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

export async function startUpstashShim(redisUrl: string): Promise<UpstashShim> {
  const token = randomBytes(16).toString("hex");
  // Fail fast when Redis is down (tests simulate outages); reconnect by itself when it is back.
  const redis = new IORedis(redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(50 * attempt, 500),
  });
  redis.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    redis.once("ready", resolve);
    setTimeout(() => reject(new Error(`upstash shim: Redis at ${redisUrl} not ready`)), 10_000).unref();
  });

  /** SHA1 of the text the client sent -> SHA1 of the text Redis holds. */
  const scriptShas = new Map<string, string>();

  const register = (script: string) => {
    const stripped = stripUpstashFlags(script);
    scriptShas.set(sha1(script), sha1(stripped));
    return stripped;
  };
  const realSha = (sha: Arg) => scriptShas.get(String(sha).toLowerCase()) ?? String(sha);

  /** The command as Redis must receive it, plus a rewrite of the reply where the client expects its own SHA. */
  function translate(command: Arg[]): { args: string[]; reply?: (r: unknown) => unknown } {
    const args = command.map((a) => (a === null ? "" : String(a)));
    const name = args[0]?.toUpperCase();
    if ((name === "EVAL" || name === "EVAL_RO") && args.length > 1) args[1] = register(args[1]);
    else if ((name === "EVALSHA" || name === "EVALSHA_RO") && args.length > 1) args[1] = realSha(args[1]);
    else if (name === "SCRIPT" && args[1]?.toUpperCase() === "LOAD" && args.length > 2) {
      const sent = args[2];
      args[2] = register(sent);
      return { args, reply: () => sha1(sent) };
    } else if (name === "SCRIPT" && args[1]?.toUpperCase() === "EXISTS") {
      for (let i = 2; i < args.length; i++) args[i] = realSha(args[i]);
    }
    return { args };
  }

  async function single(command: Arg[]): Promise<Reply> {
    const { args, reply } = translate(command);
    try {
      const result = await redis.call(args[0], ...args.slice(1));
      return { result: (reply ? reply(result) : result) as RespValue };
    } catch (err) {
      return { error: errorText(err) };
    }
  }

  async function transaction(commands: Arg[][]): Promise<Reply[]> {
    const translated = commands.map(translate);
    const multi = redis.multi();
    for (const { args } of translated) multi.call(args[0], ...args.slice(1));
    const results = await multi.exec();
    if (!results) throw new Error("transaction aborted");
    return results.map(([err, result], i) => {
      if (err) return { error: errorText(err) };
      const reply = translated[i].reply;
      return { result: (reply ? reply(result) : result) as RespValue };
    });
  }

  const server = http.createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    try {
      if (req.method !== "POST") return send(405, { error: "only POST is supported" });
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
      const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
      const encode = (r: Reply): Reply => ("result" in r && base64 ? { result: toBase64(r.result) } : r);
      const path = (req.url ?? "/").split("?")[0].replace(/\/+$/, "") || "/";

      if (path === "/") {
        if (!isCommand(body)) return send(400, { error: "body must be a JSON array command" });
        const reply = await single(body);
        return "error" in reply ? send(400, reply) : send(200, encode(reply));
      }
      if (path === "/pipeline" || path === "/multi-exec") {
        if (!Array.isArray(body) || !body.every(isCommand)) return send(400, { error: "body must be an array of commands" });
        const replies = path === "/pipeline" ? await Promise.all(body.map(single)) : await transaction(body);
        return send(200, replies.map(encode));
      }
      return send(404, { error: `unknown path ${path}` });
    } catch (err) {
      return send(500, { error: errorText(err) });
    }
  });
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;

  let stopped: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    stop: () =>
      (stopped ??= (async () => {
        // The client keeps connections alive; close them or server.close() waits for them.
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        redis.disconnect();
      })()),
  };
}

function isCommand(value: unknown): value is Arg[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    typeof value[0] === "string" &&
    value.every((v) => v === null || ["string", "number", "boolean"].includes(typeof v))
  );
}

function toBase64(value: RespValue): RespValue {
  if (typeof value === "string") return Buffer.from(value, "utf8").toString("base64");
  if (Array.isArray(value)) return value.map(toBase64);
  return value;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
