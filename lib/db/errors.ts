/**
 * Whether an error means "the database cannot be reached right now" (→ 503, retry later) rather than a bug (→ 500).
 * Errors arrive wrapped differently by Prisma, its driver adapters and node-postgres, so the whole cause chain is read.
 * Prisma wraps a driver adapter's error of a raw query (`$queryRaw`, P2010/P2039) in `meta.driverAdapterError`, not in
 * `cause`, and its message then reads "Server has closed the connection." rather than the kind's name: both are read.
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
  /ECONNREFUSED|ECONNRESET|Connection terminated|connection timeout|timeout exceeded when trying to connect|Can't reach database|DatabaseNotReachable|ConnectionClosed|database system is (starting up|shutting down)|terminating connection due to administrator command|Query read timeout|Server has closed the connection/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 8; depth++) {
    if (typeof e !== "object") return false;
    const { code, originalCode, message, name, kind, meta } = e as {
      code?: unknown;
      originalCode?: unknown;
      message?: unknown;
      name?: unknown;
      kind?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    if (typeof code === "string" && CONNECTIVITY_CODES.has(code)) return true;
    if (typeof originalCode === "string" && CONNECTIVITY_CODES.has(originalCode)) return true;
    if (typeof kind === "string" && /DatabaseNotReachable|ConnectionClosed|SocketTimeout/.test(kind)) return true;
    if (typeof message === "string" && CONNECTIVITY_MESSAGE.test(message)) return true;
    if (name === "AggregateError" && Array.isArray((e as AggregateError).errors)) return (e as AggregateError).errors.some(isDatabaseUnavailable);
    e = meta?.driverAdapterError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
