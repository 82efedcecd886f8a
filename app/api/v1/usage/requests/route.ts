import { serveRoute } from "@/lib/api/route";
import { validate } from "@/lib/kit/body";
import { services } from "@/lib/server";
import { REQUEST_LOG_DEFAULT_PAGE_SIZE, RequestLogQuery, readRequestLog } from "@/lib/usage/requests";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/**
 * GET /api/v1/usage/requests — the calling key's requests of the last 7 days, newest first (metadata only), filtered
 * by status class or status, endpoint and request id, one page at a time (lib/usage/requests.ts).
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/usage/requests", {
  GET: async ({ req, key }) => {
    const params = new URL(req.url).searchParams;
    const names = ["status", "endpoint", "request_id", "page", "per_page"] as const;
    const query = validate(RequestLogQuery, Object.fromEntries(names.filter((k) => params.has(k)).map((k) => [k, params.get(k)])), "query");
    return readRequestLog(
      services().keys,
      key.id,
      { status: query.status, endpoint: query.endpoint, requestId: query.request_id },
      { page: Number(query.page ?? 1), perPage: Number(query.per_page ?? REQUEST_LOG_DEFAULT_PAGE_SIZE) },
    );
  },
});
