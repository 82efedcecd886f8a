import { serveRoute } from "@/lib/api/route";
import type { RateLimitBucket } from "@/lib/ratelimit";
import { services } from "@/lib/server";

/** Seconds this route's function may run on Vercel: lib/api/manifest.ts maxDurationSeconds (a test keeps them equal). */
export const maxDuration = 30;

const PER_KEY_BUCKETS: RateLimitBucket[] = ["translate", "batch", "stt", "tts", "default"];

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serveRoute("/api/v1/auth/keys/me", {
  /** The calling key's metadata. requests_total includes this request. */
  GET: async ({ key }) => ({
    name: key.name,
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt.toISOString(),
    requests_total: key.requestsTotal,
    display_prefix: key.displayPrefix,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    rate_limits: Object.fromEntries(
      PER_KEY_BUCKETS.map((b) => {
        const rule = services().rule(b);
        return [b, { limit: rule.limit, window_seconds: rule.windowMs / 1000 }];
      }),
    ),
  }),
  /** Revoke the calling key. Every later request with it gets 401 INVALID_API_KEY. */
  DELETE: async ({ key }) => {
    await services().keys.revokeKey(key.id);
    return { revoked: true, name: key.name, display_prefix: key.displayPrefix };
  },
});
