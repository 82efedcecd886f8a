import { serveRoute } from "@/lib/api/route";
import { services } from "@/lib/server";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

/**
 * POST /api/v1/auth/keys — issue an API key. No authentication; throttled per client IP.
 * The plain key is in this response and nowhere else, ever.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/auth/keys", {
  POST: async ({ body }) => {
    const { apiKey, row } = await services().keys.issueKey(body.name, body.expires_in_days);
    return {
      api_key: apiKey,
      name: row.name,
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
    };
  },
});
