import { z } from "zod";
import type { KeyStore } from "@/lib/keys/store";
import { REQUEST_LOG_DAYS } from "@/lib/keys/usage-buffer";

/**
 * The request log: a key's requests of the last REQUEST_LOG_DAYS days, newest first — metadata only (when, endpoint,
 * status, latency, provider and model, cache, request id), never the text or the audio. Written by the usage flush
 * with the counts (lib/keys/usage-buffer.ts); read by GET /api/v1/usage/requests, the dashboard and its CSV export.
 */

export { REQUEST_LOG_DAYS };
export const REQUEST_LOG_DEFAULT_PAGE_SIZE = 50;
export const REQUEST_LOG_MAX_PAGE_SIZE = 200;
/** The most rows one CSV export holds. */
export const REQUEST_LOG_EXPORT_MAX = 10_000;

/** A status class, or one status. */
export const STATUS_FILTER = /^(?:[1-5]xx|[1-5]\d\d)$/;

const positiveInt = (what: string, max?: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, "Input should be a positive whole number")
    .refine((v) => !/^\d{1,6}$/.test(v) || (Number(v) >= 1 && (max === undefined || Number(v) <= max)), {
      message: `Input should be between 1 and ${max ?? 999_999}`,
      params: { type: "out_of_range" },
    })
    .optional()
    .describe(what);

export const RequestLogQuery = z
  .object({
    status: z
      .string()
      .regex(STATUS_FILTER, "Input should be a status class (2xx, 4xx, 5xx) or a status (429)")
      .optional()
      .describe("Only requests answered with this status class (2xx, 4xx, 5xx) or this status (e.g. 429)"),
    endpoint: z.string().max(200).optional().describe('Only requests to this endpoint: method and path, e.g. "POST /api/v1/translate"'),
    request_id: z.string().max(200).optional().describe("Only the request with this id (the X-Request-Id of its response)"),
    page: positiveInt("Page number, 1 first (default 1)"),
    per_page: positiveInt(
      `Requests per page (default ${REQUEST_LOG_DEFAULT_PAGE_SIZE}, at most ${REQUEST_LOG_MAX_PAGE_SIZE})`,
      REQUEST_LOG_MAX_PAGE_SIZE,
    ),
  })
  .describe("GET /api/v1/usage/requests query parameters");
export type RequestLogQuery = z.infer<typeof RequestLogQuery>;

export const RequestLogRow = z
  .object({
    time: z.string().describe("When the response was sent (ISO 8601, UTC, milliseconds)"),
    request_id: z.string().describe("The X-Request-Id of the response: quote it when reporting a problem"),
    endpoint: z.string().describe('Method and path, e.g. "POST /api/v1/translate"'),
    status: z.number().int().describe("HTTP status of the response"),
    latency_ms: z.number().int().describe("Time from arrival to response, milliseconds"),
    provider: z.string().nullable().describe("The provider that served it (a batch: when one served every item), else null"),
    model_used: z.string().nullable().describe('"<provider>/<model>" that served it, else null'),
    cache: z
      .enum(["hit", "miss", "bypass", "partial"])
      .nullable()
      .describe(
        "Translations, as X-Lugha-Cache said: hit (answered from the translation cache), miss, bypass (the request asked for a fresh translation), or partial (a batch with some items cached); null elsewhere and when the cache is off",
      ),
    upstream_calls: z
      .number()
      .int()
      .describe("Upstream calls (quota units) the request cost, all providers together: 0 for a cache hit or a request that calls no provider"),
  })
  .describe("One request of the calling key");
export type RequestLogRow = z.infer<typeof RequestLogRow>;

export const RequestLogResponse = z
  .object({
    total: z.number().int().describe("Requests matching the filters over the retention period"),
    page: z.number().int(),
    per_page: z.number().int(),
    requests: z.array(RequestLogRow).describe("Newest first"),
  })
  .describe(`Recent requests of the calling key (the last ${REQUEST_LOG_DAYS} days)`);
export type RequestLogResponse = z.infer<typeof RequestLogResponse>;

export interface RequestLogFilter {
  status?: string;
  endpoint?: string;
  requestId?: string;
}

/** The WHERE clause of a filter and its parameters ($1 is the key id); no caller input reaches the statement text. */
function where(keyId: string, filter: RequestLogFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [keyId];
  const clauses = ["key_id = $1::uuid", `at >= now() - interval '${REQUEST_LOG_DAYS} days'`];
  const status = filter.status && STATUS_FILTER.test(filter.status) ? filter.status : undefined;
  if (status?.endsWith("xx")) {
    params.push(Number(status[0]) * 100);
    clauses.push(`status >= $${params.length}::int AND status < $${params.length}::int + 100`);
  } else if (status) {
    params.push(Number(status));
    clauses.push(`status = $${params.length}::int`);
  }
  if (filter.endpoint) {
    params.push(filter.endpoint);
    clauses.push(`endpoint = $${params.length}`);
  }
  if (filter.requestId) {
    params.push(filter.requestId.trim());
    clauses.push(`request_id = $${params.length}`);
  }
  return { sql: clauses.join(" AND "), params };
}

interface DbRow {
  at: Date;
  request_id: string;
  endpoint: string;
  status: number;
  latency_ms: number;
  provider: string;
  model: string;
  cache: string;
  upstream_calls: number;
}

const toRow = (r: DbRow): RequestLogRow => ({
  time: new Date(r.at).toISOString(),
  request_id: r.request_id,
  endpoint: r.endpoint,
  status: Number(r.status),
  latency_ms: Number(r.latency_ms),
  provider: r.provider || null,
  model_used: r.model || null,
  cache: RequestLogRow.shape.cache.unwrap().safeParse(r.cache).data ?? null,
  upstream_calls: Number(r.upstream_calls),
});

/** One page of the key's request log, newest first. This instance's pending lines are written first. */
export async function readRequestLog(
  keys: KeyStore,
  keyId: string,
  filter: RequestLogFilter,
  paging: { page: number; perPage: number },
): Promise<RequestLogResponse> {
  await keys.flushUsage();
  const prisma = await keys.prisma();
  const { sql, params } = where(keyId, filter);
  const [count] = await prisma.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT count(*)::bigint AS n FROM request_log WHERE ${sql}`, ...params);
  const rows = await prisma.$queryRawUnsafe<DbRow[]>(
    `SELECT at, request_id, endpoint, status, latency_ms, provider, model, cache, upstream_calls FROM request_log WHERE ${sql}
      ORDER BY at DESC, id DESC LIMIT ${paging.perPage} OFFSET ${(paging.page - 1) * paging.perPage}`,
    ...params,
  );
  return { total: Number(count?.n ?? 0), page: paging.page, per_page: paging.perPage, requests: rows.map(toRow) };
}

/** The endpoints the key's log holds (for the dashboard's filter), alphabetical. */
export async function requestLogEndpoints(keys: KeyStore, keyId: string): Promise<string[]> {
  const prisma = await keys.prisma();
  const rows = await prisma.$queryRawUnsafe<{ endpoint: string }[]>(
    `SELECT DISTINCT endpoint FROM request_log WHERE key_id = $1::uuid AND at >= now() - interval '${REQUEST_LOG_DAYS} days' ORDER BY endpoint`,
    keyId,
  );
  return rows.map((r) => r.endpoint);
}
