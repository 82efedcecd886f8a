import { randomBytes } from "node:crypto";
import { healthReport } from "@/lib/health";
import { methodNotAllowed } from "@/lib/http/methods";

export const dynamic = "force-dynamic";

/**
 * GET /health — no authentication (the operator token adds detail: lib/health.ts). 200 while the service can serve
 * (ok or degraded), 503 when it cannot.
 */
export async function GET(req: Request) {
  const report = await healthReport(req);
  return Response.json(report, {
    status: report.status === "down" ? 503 : 200,
    headers: { "Cache-Control": "no-store", "X-Request-Id": `req_${randomBytes(12).toString("hex")}` },
  });
}

const notAllowed = methodNotAllowed("GET");

export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
