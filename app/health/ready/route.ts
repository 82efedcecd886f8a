import { serveRoute } from "@/lib/api/route";
import { readiness } from "@/lib/server/health";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

export const dynamic = "force-dynamic";

/** GET /health/ready — 200 when the database and the shared store answer, 503 when either does not. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/health/ready", {
  GET: async () => {
    const report = await readiness();
    return Response.json(report, { status: report.status === "ready" ? 200 : 503 });
  },
});
