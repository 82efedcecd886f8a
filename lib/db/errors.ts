/**
 * Whether an error means "the database cannot be reached right now" (→ 503, retry later) rather than a bug (→ 500).
 * Errors arrive wrapped differently by Prisma, its driver adapters and node-postgres, so the whole cause chain is read.
 */
const CONNECTIVITY_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "57P01",
  "57P02",
  "57P03", // admin_shutdown, crash_shutdown, cannot_connect_now
  "53300", // too_many_connections
  "P1001",
  "P1002",
  "P1017",
  "P2024", // Prisma: can't reach, timed out, connection closed, pool timeout
]);
const CONNECTIVITY_MESSAGE =
  /ECONNREFUSED|ECONNRESET|Connection terminated|connection timeout|timeout exceeded when trying to connect|Can't reach database|DatabaseNotReachable|ConnectionClosed|database system is (starting up|shutting down)|terminating connection due to administrator command|Query read timeout/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 8; depth++) {
    if (typeof e !== "object") return false;
    const { code, message, name, kind } = e as { code?: unknown; message?: unknown; name?: unknown; kind?: unknown };
    if (typeof code === "string" && CONNECTIVITY_CODES.has(code)) return true;
    if (typeof kind === "string" && /DatabaseNotReachable|ConnectionClosed|SocketTimeout/.test(kind)) return true;
    if (typeof message === "string" && CONNECTIVITY_MESSAGE.test(message)) return true;
    if (name === "AggregateError" && Array.isArray((e as AggregateError).errors)) return (e as AggregateError).errors.some(isDatabaseUnavailable);
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
