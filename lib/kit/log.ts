import pino from "pino";

/**
 * The process's structured log: one JSON object per line on stdout (pino), with `level` as a name, `time` in ISO 8601
 * and `msg`. What goes in is chosen by the caller, field by field: never an API key, a text, an audio payload or a
 * glossary term (docs/operations.md lists the fields; e2e/api/logs.test.ts checks it).
 */
export type Logger = pino.Logger;
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

const LOG = Symbol.for("lugha.log");
type WithLog = typeof globalThis & { [LOG]?: Logger };

/** A logger at `level` writing JSON lines to stdout. */
export function createLogger(level: LogLevel = "info"): Logger {
  return pino({
    level,
    base: undefined,
    messageKey: "msg",
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}

/**
 * The one logger of the process (kept on globalThis: Next.js may evaluate this module once per route bundle). The
 * composition root sets its level from LOG_LEVEL (lib/server); parts built without a logger of their own use it.
 */
export function processLog(): Logger {
  const g = globalThis as WithLog;
  return (g[LOG] ??= createLogger("info"));
}

/** Sets the process logger's level (LOG_LEVEL); returns the logger. */
export function configureLog(level: LogLevel): Logger {
  const log = processLog();
  log.level = level;
  return log;
}

/** An error as log fields: its class and message, never its stack's arguments or a request body. */
export function errorFields(err: unknown): { err_name: string; err_message: string } {
  return err instanceof Error
    ? { err_name: err.name, err_message: err.message.slice(0, 300) }
    : { err_name: typeof err, err_message: String(err).slice(0, 300) };
}
