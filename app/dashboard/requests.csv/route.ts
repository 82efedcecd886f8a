import { portalSession } from "@/lib/api/auth/session";
import { services } from "@/lib/server";
import { csvResponse, requestLogCsv, signInFirst } from "@/lib/usage/csv";
import { REQUEST_LOG_EXPORT_MAX, readRequestLog } from "@/lib/usage/requests";

/**
 * The request log as CSV, for the key signed in to the portal: every request of the last 7 days that matches the
 * dashboard's filters (`status`, `endpoint`, `request_id`), newest first, up to REQUEST_LOG_EXPORT_MAX rows. An API
 * client reads GET /api/v1/usage/requests.
 */
export async function GET(req: Request): Promise<Response> {
  const session = await portalSession();
  if (session.state !== "signed_in") return signInFirst();
  const params = new URL(req.url).searchParams;
  const filter = {
    status: params.get("status") || undefined,
    endpoint: params.get("endpoint") || undefined,
    requestId: params.get("request_id") || undefined,
  };
  const log = await readRequestLog(services().keys, session.key.id, filter, { page: 1, perPage: REQUEST_LOG_EXPORT_MAX });
  return csvResponse(requestLogCsv(log.requests), `lugha-requests-${new Date().toISOString().slice(0, 10)}.csv`);
}
