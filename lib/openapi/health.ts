import { z } from "zod";

/** GET /health response (lib/health.ts builds it; this schema documents it). */
const Check = z.object({ status: z.enum(["ok", "degraded", "down"]) }).catchall(z.unknown());

export const HealthResponse = z
  .object({
    status: z.enum(["ok", "degraded", "down"]).describe("down (HTTP 503) only when the service cannot serve, i.e. the database is unreachable"),
    version: z.string(),
    uptime_seconds: z.number().int(),
    checks: z
      .object({
        database: Check.describe("engine (pglite|postgres), latency_ms"),
        rate_limiter: Check.describe("backend (memory|redis|upstash), ok, fail_mode"),
        providers: Check.describe("sandbox flag, and per provider: mode (live|sandbox), circuit, base_url, configured"),
        cache: Check.describe(
          "translation cache: enabled, backend (memory|redis|upstash), scope (key|global), ttl_seconds, ok, degraded (store failing: served uncached), last_error, last_error_at, detail",
        ),
      })
      .catchall(z.unknown()),
  })
  .describe("GET /health response")
  .meta({
    examples: [
      {
        status: "ok",
        version: "0.1.0",
        uptime_seconds: 3600,
        checks: {
          database: { status: "ok", engine: "postgres", latency_ms: 2 },
          rate_limiter: { status: "ok", backend: "upstash", ok: true, fail_mode: "open" },
          providers: {
            status: "ok",
            sandbox: false,
            provider_a: { mode: "live", circuit: "closed", base_url: "https://api.sunbird.ai", configured: true },
          },
          cache: { status: "ok", enabled: true, backend: "upstash", ok: true, degraded: false, scope: "key", ttl_seconds: 604800 },
        },
      },
    ],
  });
