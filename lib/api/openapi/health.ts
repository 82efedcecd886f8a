import { z } from "zod";
import packageJson from "@/package.json";

/** GET /health response (lib/health.ts builds it; this schema documents it). */
const Check = z.object({ status: z.enum(["ok", "degraded", "down"]) }).catchall(z.unknown());

export const HealthResponse = z
  .object({
    status: z.enum(["ok", "degraded", "down"]).describe("down (HTTP 503) only when the service cannot serve, i.e. the database is unreachable"),
    version: z.string(),
    uptime_seconds: z.number().int().optional().describe("operator view only"),
    checks: z
      .object({
        database: Check.describe("status; the operator view adds engine (pglite|postgres) and latency_ms"),
        rate_limiter: Check.describe("status; the operator view adds backend (memory|redis|upstash), ok, fail_mode, detail"),
        providers: Check.describe("sandbox flag, and per provider: mode (live|sandbox) and circuit; the operator view adds base_url and configured"),
        upstream_budgets: Check.optional().describe(
          "operator view only: per provider, whether its calls draw on a request budget (metered: live providers), unlimited, and each window's limit, window_seconds, remaining and resets_at as this instance last saw them; always ok (a budget reached is load, not a fault)",
        ),
        cache: Check.describe(
          "translation cache: status; the operator view adds enabled, backend (memory|redis|upstash), scope (key|global), ttl_seconds, ok, degraded (store failing: served uncached), last_error, last_error_at, detail",
        ),
      })
      .catchall(z.unknown()),
  })
  .describe(
    "GET /health response. Without credentials: the public view below. With `Authorization: Bearer <HEALTH_OPERATOR_TOKEN>` (a server setting): also uptime, database engine and latency, rate-limiter settings and provider base URLs.",
  )
  .meta({
    examples: [
      {
        status: "ok",
        version: packageJson.version,
        checks: {
          database: { status: "ok" },
          rate_limiter: { status: "ok" },
          providers: { status: "ok", sandbox: false, provider_a: { mode: "live", circuit: "closed" } },
          cache: { status: "ok" },
        },
      },
    ],
  });

/** GET /health/live response. */
export const LiveResponse = z
  .object({ status: z.literal("ok") })
  .describe("GET /health/live: the process answers; nothing else is checked.")
  .meta({ examples: [{ status: "ok" }] });

/** GET /health/ready response (200 ready, 503 not). */
export const ReadyResponse = z
  .object({
    status: z.enum(["ready", "not_ready"]),
    checks: z.object({
      database: z.enum(["ok", "down"]).describe("the database answers a ping"),
      shared_store: z.enum(["ok", "down"]).describe("the rate-limit store (Redis, Upstash or in process) answers"),
    }),
  })
  .describe("GET /health/ready: whether this instance can serve requests now.")
  .meta({ examples: [{ status: "ready", checks: { database: "ok", shared_store: "ok" } }] });
