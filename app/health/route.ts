import { serveRoute } from "@/lib/api/route";
import { healthReport } from "@/lib/server/health";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

export const dynamic = "force-dynamic";

/**
 * GET /health — no authentication (the operator token adds detail: lib/health.ts). 200 while the service can serve
 * (ok or degraded), 503 when it cannot.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/health", {
  GET: async ({ req }) => {
    const report = await healthReport(req);
    return Response.json(report, { status: report.status === "down" ? 503 : 200 });
  },
});
