import { getTranslationCache } from "@/lib/cache";
import { databaseTarget, getDatabase } from "@/lib/db";
import { providerStatus } from "@/lib/providers";
import { rateLimiterStatus } from "@/lib/ratelimit";
import packageJson from "@/package.json";

const startedAt = Date.now();

export interface CheckResult {
  status: "ok" | "down" | "degraded";
  [detail: string]: unknown;
}

export interface HealthReport {
  status: "ok" | "degraded" | "down";
  version: string;
  uptime_seconds: number;
  checks: Record<string, CheckResult | Record<string, unknown>>;
}

async function timed(check: () => Promise<unknown>, timeoutMs: number): Promise<{ ok: boolean; latency_ms: number; error?: string }> {
  const t0 = performance.now();
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref?.()),
    ]);
    return { ok: true, latency_ms: Math.round(performance.now() - t0) };
  } catch (err) {
    return { ok: false, latency_ms: Math.round(performance.now() - t0), error: (err as Error).message.slice(0, 200) };
  }
}

/** Health: "down" only when the service cannot serve (no database); anything else unhealthy is "degraded". */
export async function healthReport(): Promise<HealthReport> {
  const db = await timed(async () => (await getDatabase()).ping(), 3_000);
  const checks: HealthReport["checks"] = {
    database: {
      status: db.ok ? "ok" : "down",
      engine: engineName(),
      latency_ms: db.latency_ms,
      ...(db.error ? { error: "database unreachable" } : {}),
    },
  };
  const limiter = await rateLimiterStatus();
  checks.rate_limiter = { status: limiter.ok ? "ok" : "degraded", ...limiter };
  checks.providers = providersCheck();
  checks.cache = await cacheCheck();
  const degraded = Object.entries(checks).some(([name, c]) => name !== "database" && c.status !== "ok");
  return {
    status: !db.ok ? "down" : degraded ? "degraded" : "ok",
    version: packageJson.version,
    uptime_seconds: Math.floor((Date.now() - startedAt) / 1000),
    checks,
  };
}

/**
 * Providers are "degraded" when a circuit is open or a live provider has no credential. Sandbox mode is not a fault,
 * but it is stated plainly (`sandbox: true`): its output is not a real translation.
 */
function providersCheck(): CheckResult {
  const providers = providerStatus();
  const list = Object.values(providers);
  const unhealthy = list.some((p) => p.circuit !== "closed" || !p.configured);
  return {
    status: unhealthy ? "degraded" : "ok",
    sandbox: list.some((p) => p.mode === "sandbox"),
    ...providers,
  };
}

/**
 * The translation cache: "degraded" while its store fails (requests are then served uncached, never refused). Off is
 * not a fault.
 */
async function cacheCheck(): Promise<CheckResult> {
  const cache = await getTranslationCache().status();
  return { status: cache.enabled && (!cache.ok || cache.degraded) ? "degraded" : "ok", ...cache };
}

/** The configured engine; "misconfigured" when DATABASE_URL is unusable here (e.g. unset on Vercel). Never throws. */
function engineName(): string {
  try {
    return databaseTarget().kind;
  } catch {
    return "misconfigured";
  }
}
