import { portalSession } from "@/lib/api/auth/session";
import { services } from "@/lib/server";
import { csvResponse, signInFirst, usageCsv } from "@/lib/usage/csv";
import { dashboardUsage } from "@/lib/usage/read";

/**
 * The dashboard's usage table as CSV (one row per UTC day, the last `days` days: 7, 30 or 90, default 90), for the key
 * signed in to the portal. The portal authenticates by its session cookie; an API client reads GET /api/v1/usage.
 */
export async function GET(req: Request): Promise<Response> {
  const session = await portalSession();
  if (session.state !== "signed_in") return signInFirst();
  const asked = Number(new URL(req.url).searchParams.get("days"));
  const days = [7, 30, 90].includes(asked) ? asked : 90;
  const usage = await dashboardUsage(services().keys, session.key.id, days);
  return csvResponse(usageCsv(usage.days), `lugha-usage-${usage.days.at(-1)?.day ?? "today"}.csv`);
}
