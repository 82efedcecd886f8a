import { serveRoute } from "@/lib/api/route";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

export const dynamic = "force-dynamic";

/** GET /health/live — the process answers; no dependency is checked. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/health/live", {
  GET: async () => ({ status: "ok" }),
});
