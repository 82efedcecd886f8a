import { serveRoute } from "@/lib/api/route";
import { validate } from "@/lib/kit/body";
import { services } from "@/lib/server";
import { usageReport } from "@/lib/usage/read";
import { UsageQuery, usageRange } from "@/lib/usage/schemas";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/**
 * GET /api/v1/usage — the calling key's requests, characters, cache hits and errors over a UTC day range (default the
 * last 30 days, at most 366), grouped by day, endpoint, status, language pair or provider (lib/usage).
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/usage", {
  GET: async ({ req, key }) => {
    const params = new URL(req.url).searchParams;
    const query = validate(
      UsageQuery,
      Object.fromEntries(["from", "to", "group_by"].filter((k) => params.has(k)).map((k) => [k, params.get(k)])),
      "query",
    );
    const range = usageRange(query);
    if ("field" in range) throw new Error("unreachable: UsageQuery checks the range");
    return usageReport(services().keys, key.id, range, query.group_by ?? "day");
  },
});
