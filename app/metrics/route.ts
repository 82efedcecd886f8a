import { serveRoute } from "@/lib/api/route";
import { services } from "@/lib/server";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

export const dynamic = "force-dynamic";

/** GET /metrics — the OpenTelemetry metrics as Prometheus text, for the operator (Bearer HEALTH_OPERATOR_TOKEN). */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/metrics", {
  GET: async () => new Response(await services().metrics.prometheus(), { headers: { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" } }),
});
