import { serveRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";

/** GET /health/live — the process answers; no dependency is checked. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/health/live", {
  GET: async () => ({ status: "ok" }),
});
