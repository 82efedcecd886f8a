import type { RequestLogRow } from "./requests";
import type { SeriesDay } from "./series";

/**
 * The dashboard's CSV exports (RFC 4180: comma-separated, CRLF line ends, a header row; a field with a comma, quote or
 * line break is quoted, its quotes doubled). A text field that a spreadsheet would read as a formula (=, +, -, @) is
 * prefixed with an apostrophe.
 */
function field(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function toCsv(header: string[], rows: (string | number | null)[][]): string {
  return `${[header, ...rows].map((r) => r.map(field).join(",")).join("\r\n")}\r\n`;
}

/** The usage table: one row per UTC day, oldest first. */
export function usageCsv(days: SeriesDay[]): string {
  return toCsv(
    ["day", "requests", "upstream_calls", "errors", "characters", "cache_hits"],
    days.map((d) => [d.day, d.requests, d.upstreamCalls, d.errors, d.characters, d.cacheHits]),
  );
}

/** The request log, newest first, with the fields of GET /api/v1/usage/requests. */
export function requestLogCsv(rows: RequestLogRow[]): string {
  return toCsv(
    ["time", "request_id", "endpoint", "status", "latency_ms", "provider", "model_used", "cache", "upstream_calls"],
    rows.map((r) => [r.time, r.request_id, r.endpoint, r.status, r.latency_ms, r.provider, r.model_used, r.cache, r.upstream_calls]),
  );
}

/** A CSV download: saved under `filename`, never cached. */
export function csvResponse(body: string, filename: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}

/** What the portal's CSV routes answer without a portal session. */
export const signInFirst = () =>
  new Response("Sign in to the portal first.\n", {
    status: 401,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
