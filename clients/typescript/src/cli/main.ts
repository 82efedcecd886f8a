import { type ParseArgsConfig, parseArgs } from "node:util";
import { DEFAULT_BASE_URL, Lugha } from "../client.js";
import { LughaConnectionError, LughaError } from "../errors.js";
import type { TransportOptions } from "../retry.js";
import { COMMANDS, type Command, type OptionSpec, UsageError } from "./commands.js";

declare const __LUGHA_VERSION__: string | undefined;
export const VERSION = typeof __LUGHA_VERSION__ === "string" ? __LUGHA_VERSION__ : "0.0.0-dev";

/** Exit codes of `lugha`, for scripts. */
export const EXIT = {
  /** The command did what it was asked. */
  OK: 0,
  /** The API answered with an error (4xx other than 401, 5xx; a 429 or 503 after the retries). */
  API_ERROR: 1,
  /** The command line is wrong (unknown command or option, missing argument), or a local file cannot be read or written. */
  USAGE: 2,
  /** The server could not be reached, did not answer in time, or answered something that is not the API. */
  NETWORK: 3,
  /** No key: LUGHA_API_KEY is not set, or the server refused it (401). */
  AUTH: 4,
  /** `catalog`: entries are still pending or failed (the files written hold what was done; run it again to continue). */
  INCOMPLETE: 5,
} as const;

export interface CliIO {
  env: Record<string, string | undefined>;
  stdout(text: string): void;
  stderr(text: string): void;
  writeStdout(bytes: Uint8Array): Promise<void>;
  readStdin(): Promise<string>;
  /** Passed to the client (tests: a scripted fetch, no real waits). */
  transport?: TransportOptions;
}

const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: { type: "boolean", description: "print the raw JSON response (errors too) on stdout" },
  help: { type: "boolean", short: "h", description: "show help" },
};

function parseConfig(options: Record<string, OptionSpec>): NonNullable<ParseArgsConfig["options"]> {
  return Object.fromEntries(Object.entries(options).map(([name, o]) => [name, o.short ? { type: o.type, short: o.short } : { type: o.type }]));
}

function optionLines(options: Record<string, OptionSpec>): string[] {
  const rows = Object.entries(options).map(([name, o]) => [
    `${o.short ? `-${o.short}, ` : "    "}--${name}${o.placeholder ? ` ${o.placeholder}` : ""}`,
    o.description,
  ]);
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

export function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  return [
    `lugha ${VERSION}: the Lugha translation and speech API from the command line`,
    "",
    "Usage: lugha <command> [arguments] [options]",
    "",
    "Commands:",
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    "",
    "Options of every command:",
    ...optionLines(GLOBAL_OPTIONS),
    "",
    "Environment:",
    "  LUGHA_API_KEY   the API key (svc_…); create one with POST /api/v1/auth/keys or on the portal",
    `  LUGHA_BASE_URL  the service (default ${DEFAULT_BASE_URL})`,
    "",
    "Exit codes: 0 ok, 1 API error, 2 usage error (or a local file), 3 network error, 4 no key or key refused, 5 catalog entries pending or failed.",
    "Results go to stdout, messages to stderr. `lugha <command> --help` shows a command's options.",
  ].join("\n");
}

export function commandHelp(name: string, command: Command): string {
  return [
    `Usage: lugha ${name}${command.args ? ` ${command.args}` : ""} [options]`,
    "",
    command.summary,
    "",
    "Options:",
    ...optionLines({ ...command.options, ...GLOBAL_OPTIONS }),
    "",
    "Examples:",
    ...command.examples.map((e) => `  ${e}`),
  ].join("\n");
}

class MissingKey extends Error {}

/** Runs one command line; returns the exit code. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    if (name === "help" && rest[0] && COMMANDS[rest[0]]) io.stdout(commandHelp(rest[0], COMMANDS[rest[0]]));
    else io.stdout(mainHelp());
    return name === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (name === "--version" || name === "-v") {
    io.stdout(VERSION);
    return EXIT.OK;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr(`lugha: unknown command "${name}"; one of: ${Object.keys(COMMANDS).join(", ")} (lugha --help)`);
    return EXIT.USAGE;
  }

  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    const parsed = parseArgs({
      args: rest,
      options: parseConfig({ ...command.options, ...GLOBAL_OPTIONS }),
      allowPositionals: true,
      strict: true,
    });
    positionals = parsed.positionals;
    // No option is `multiple`: each value is a string or a boolean.
    values = Object.fromEntries(Object.entries(parsed.values).map(([k, v]) => [k, Array.isArray(v) ? v.at(-1) : v]));
    for (const [option, spec] of Object.entries(command.options)) {
      const value = values[option];
      if (spec.choices && typeof value === "string" && !spec.choices.includes(value))
        throw new UsageError(`--${option} must be one of ${spec.choices.join(", ")}`);
    }
  } catch (err) {
    io.stderr(`lugha ${name}: ${(err as Error).message}\n(lugha ${name} --help)`);
    return EXIT.USAGE;
  }
  if (values.help) {
    io.stdout(commandHelp(name, command));
    return EXIT.OK;
  }

  const json = values.json === true;
  const apiKey = io.env.LUGHA_API_KEY?.trim() || undefined;
  let client: Lugha | undefined;
  try {
    let code: number = EXIT.OK;
    await command.run({
      values,
      positionals,
      // Made on first use, so that a command checks its arguments (exit 2) before the key (exit 4).
      get client() {
        if (command.needsKey !== false && !apiKey) throw new MissingKey();
        client ??= new Lugha({ apiKey, baseUrl: io.env.LUGHA_BASE_URL?.trim() || DEFAULT_BASE_URL, ...io.transport });
        return client;
      },
      result: (raw, human) => {
        const text = json ? JSON.stringify(raw, null, 2) : human();
        if (text) io.stdout(text);
      },
      note: (message) => io.stderr(message),
      writeStdout: io.writeStdout,
      readStdin: io.readStdin,
      sleep: io.transport?.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      setExitCode: (c) => {
        code = c;
      },
    });
    return code;
  } catch (err) {
    if (err instanceof MissingKey) {
      io.stderr(`lugha ${name}: LUGHA_API_KEY is not set (create a key with POST /api/v1/auth/keys or on the portal)`);
      return EXIT.AUTH;
    }
    if (err instanceof UsageError) {
      io.stderr(`lugha ${name}: ${err.message}`);
      return EXIT.USAGE;
    }
    if (err instanceof LughaConnectionError) {
      io.stderr(`lugha ${name}: ${err.message}`);
      return EXIT.NETWORK;
    }
    if (err instanceof LughaError) {
      if (json && typeof err.body === "object" && err.body !== null) io.stdout(JSON.stringify(err.body, null, 2));
      const id = err.requestId ? ` (request ${err.requestId})` : "";
      // The message usually names the first field error itself ("Invalid request: body.text: Field required"): say each once.
      const fields = (err.errors ?? [])
        .map((e) => `${e.loc.join(".")}: ${e.msg}`)
        .filter((line, i) => !err.message.includes(line) && err.message.trim() !== err.errors![i]!.msg.trim())
        .map((line) => `\n  ${line}`)
        .join("");
      const wait = err.status === 429 && err.retryAfter ? ` — retry after ${err.retryAfter} s` : "";
      io.stderr(`lugha ${name}: ${err.status} ${err.code}: ${err.message}${wait}${id}${fields}`);
      if (err.status === 401) return EXIT.AUTH;
      // Not the API's error envelope (a proxy's HTML page, a 404 from another server): the URL is probably wrong.
      if (err.code === "INVALID_RESPONSE" || err.code.startsWith("HTTP_")) return EXIT.NETWORK;
      return EXIT.API_ERROR;
    }
    io.stderr(`lugha ${name}: ${(err as Error)?.stack ?? String(err)}`);
    return EXIT.API_ERROR;
  }
}
