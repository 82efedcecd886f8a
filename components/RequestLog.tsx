import type { RequestLogResponse } from "@/lib/usage/requests";

/**
 * The dashboard's request log: the key's requests of the last 7 days, newest first (GET /api/v1/usage/requests reads
 * the same lines). A plain GET form filters it by status class, endpoint and request id, so the filters live in the
 * URL (shareable, the back button works, no script needed); links page through it; the CSV link exports every line
 * that matches. A table from 768 px, one card per request below (no sideways scrolling on a phone).
 */
export interface RequestLogFilters {
  status: string;
  endpoint: string;
  requestId: string;
}

const STATUS_CHOICES: [string, string][] = [
  ["", "Any status"],
  ["2xx", "Succeeded (2xx)"],
  ["4xx", "Refused (4xx)"],
  ["429", "Rate limited (429)"],
  ["5xx", "Failed (5xx)"],
];

const time = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});
const when = (iso: string) => `${time.format(new Date(iso))} UTC`;

/** "27 Nov, 19:22:50 UTC": the day and the clock each kept whole, so a narrow column wraps between them, never into the next. */
function When({ iso }: { iso: string }) {
  const [day, clock] = when(iso).split(", ");
  return (
    <time dateTime={iso}>
      <span className="whitespace-nowrap">{day},</span> <span className="whitespace-nowrap">{clock}</span>
    </time>
  );
}

function query(filters: RequestLogFilters, page?: number): string {
  const q = new URLSearchParams();
  if (filters.status) q.set("status", filters.status);
  if (filters.endpoint) q.set("endpoint", filters.endpoint);
  if (filters.requestId) q.set("request_id", filters.requestId);
  if (page && page > 1) q.set("page", String(page));
  const s = q.toString();
  return s ? `?${s}` : "";
}

const statusTone = (s: number) => (s < 400 ? "text-emerald-800" : s === 429 ? "text-violet-800" : s < 500 ? "text-amber-900" : "text-red-800");
const served = (r: RequestLogResponse["requests"][number]) => r.model_used ?? r.provider ?? "—";

export function RequestLog({ log, filters, endpoints }: { log: RequestLogResponse; filters: RequestLogFilters; endpoints: string[] }) {
  const pages = Math.max(1, Math.ceil(log.total / log.per_page));
  const filtered = Boolean(filters.status || filters.endpoint || filters.requestId);
  const first = log.total === 0 ? 0 : (log.page - 1) * log.per_page + 1;
  const last = Math.min(log.total, log.page * log.per_page);
  return (
    <div>
      <form
        method="get"
        action="/dashboard#requests-title"
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[auto_minmax(0,1fr)_minmax(0,1fr)_auto]"
        data-testid="request-log-filters"
      >
        <label className="text-sm font-medium text-slate-800">
          Status
          <select name="status" defaultValue={filters.status} className="field-input mt-1 block w-full min-h-11">
            {STATUS_CHOICES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-slate-800">
          Endpoint
          <select name="endpoint" defaultValue={filters.endpoint} className="field-input mt-1 block w-full min-h-11">
            <option value="">Any endpoint</option>
            {[...new Set([...endpoints, ...(filters.endpoint ? [filters.endpoint] : [])])].map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium text-slate-800">
          Request id
          <input
            type="search"
            name="request_id"
            defaultValue={filters.requestId}
            placeholder="req_…"
            autoComplete="off"
            spellCheck={false}
            className="field-input mt-1 block w-full min-h-11 font-mono"
          />
        </label>
        <div className="flex items-end gap-2">
          <button type="submit" className="btn-primary min-h-11">
            Filter
          </button>
          {filtered && (
            <a href="/dashboard#requests-title" className="btn-secondary min-h-11">
              Clear
            </a>
          )}
        </div>
      </form>

      <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-800">
        <p aria-live="polite" data-testid="request-log-count">
          {log.total === 0
            ? filtered
              ? "No request matches these filters."
              : "No requests in the last 7 days."
            : `${first.toLocaleString("en-US")}–${last.toLocaleString("en-US")} of ${log.total.toLocaleString("en-US")} ${filtered ? "matching requests" : "requests"}, newest first`}
        </p>
        <a href={`/dashboard/requests.csv${query(filters)}`} download className="btn-secondary min-h-11" data-testid="request-log-csv">
          Download CSV
        </a>
      </div>

      {log.requests.length > 0 && (
        <>
          <table className="mt-3 hidden w-full table-fixed text-left text-sm md:table" data-testid="request-log-table">
            <caption className="sr-only">Recent requests of this key, newest first</caption>
            <thead className="bg-slate-100">
              <tr>
                <th scope="col" className="w-[9.5rem] px-2 py-1.5">
                  Time
                </th>
                <th scope="col" className="px-2 py-1.5">
                  Endpoint
                </th>
                <th scope="col" className="w-16 px-2 py-1.5 text-right">
                  Status
                </th>
                <th scope="col" className="w-20 px-2 py-1.5 text-right">
                  Latency
                </th>
                <th scope="col" className="px-2 py-1.5">
                  Provider / model
                </th>
                <th scope="col" className="w-16 px-2 py-1.5">
                  Cache
                </th>
                <th scope="col" className="w-14 px-2 py-1.5 text-right">
                  <abbr title="Upstream calls: what the request cost at the providers">Calls</abbr>
                </th>
                <th scope="col" className="px-2 py-1.5">
                  Request id
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {log.requests.map((r) => (
                <tr key={`${r.request_id}-${r.time}`} data-testid="request-log-row">
                  <td className="px-2 py-1.5 tabular-nums" data-column="time">
                    <When iso={r.time} />
                  </td>
                  <td className="px-2 py-1.5 break-words font-mono text-xs">{r.endpoint}</td>
                  <td className={`px-2 py-1.5 text-right font-semibold tabular-nums ${statusTone(r.status)}`}>{r.status}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{r.latency_ms.toLocaleString("en-US")} ms</td>
                  <td className="px-2 py-1.5 break-words">{served(r)}</td>
                  <td className="px-2 py-1.5">{r.cache ?? "—"}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{r.upstream_calls}</td>
                  <td className="px-2 py-1.5 break-words font-mono text-xs">{r.request_id}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul className="mt-3 space-y-2 md:hidden" aria-label="Recent requests of this key, newest first">
            {log.requests.map((r) => (
              <li key={`${r.request_id}-${r.time}`} className="rounded-md border border-slate-200 p-3 text-sm" data-testid="request-log-card">
                <p className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <span className="break-words font-mono text-xs">{r.endpoint}</span>
                  <span className={`font-semibold tabular-nums ${statusTone(r.status)}`}>{r.status}</span>
                </p>
                <dl className="mt-1 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 text-slate-800">
                  <dt className="text-slate-700">Time</dt>
                  <dd className="tabular-nums">{when(r.time)}</dd>
                  <dt className="text-slate-700">Latency</dt>
                  <dd className="tabular-nums">{r.latency_ms.toLocaleString("en-US")} ms</dd>
                  <dt className="text-slate-700">Served by</dt>
                  <dd className="break-words">{served(r)}</dd>
                  <dt className="text-slate-700">Cache</dt>
                  <dd>{r.cache ?? "—"}</dd>
                  <dt className="text-slate-700">Upstream calls</dt>
                  <dd className="tabular-nums">{r.upstream_calls}</dd>
                  <dt className="text-slate-700">Request id</dt>
                  <dd className="break-words font-mono text-xs">{r.request_id}</dd>
                </dl>
              </li>
            ))}
          </ul>
        </>
      )}

      {pages > 1 && (
        <nav aria-label="Request log pages" className="mt-3 flex flex-wrap items-center gap-3 text-sm">
          {log.page > 1 ? (
            <a href={`/dashboard${query(filters, log.page - 1)}#requests-title`} className="btn-secondary min-h-11" rel="prev">
              Newer
            </a>
          ) : null}
          <span>
            Page {log.page} of {pages}
          </span>
          {log.page < pages ? (
            <a href={`/dashboard${query(filters, log.page + 1)}#requests-title`} className="btn-secondary min-h-11" rel="next">
              Older
            </a>
          ) : null}
        </nav>
      )}
    </div>
  );
}
