import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { budgetsCheck } from "@/lib/budgets";
import { getTranslationCache } from "@/lib/cache";
import { databaseTarget, getDatabase } from "@/lib/db";
import { providerStatus } from "@/lib/providers";
import { rateLimiterStatus } from "@/lib/ratelimit";
import { availabilityReport } from "@/lib/server/availability";
import packageJson from "@/package.json";

const startedAt = Date.now();

export interface CheckResult {
  status: "ok" | "down" | "degraded";
  [detail: string]: unknown;
}

export interface HealthReport {
  status: "ok" | "degraded" | "down";
  version: string;
  /** Operator view only. */
  uptime_seconds?: number;
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

/**
 * What /health shows to whom (README "Health"). Anyone: status, version, each check's status, `sandbox`, and each
 * provider's mode and circuit — what the portal's banner and a deploy check need. The operator (Authorization: Bearer
 * HEALTH_OPERATOR_TOKEN) also gets what helps an attacker map the deployment: uptime, the database engine and its
 * latency, the rate limiter's backend, fail mode and detail, the translation cache's backend, scope and state,
 * provider base URLs and whether each is configured, and `availability`: the models and pairs marked unavailable,
 * why, and when each is re-checked.
 */
export async function healthReport(req?: Request, env: Record<string, string | undefined> = process.env): Promise<HealthReport> {
  const full = await fullHealthReport();
  return req && isOperator(req, env) ? full : publicView(full);
}

/** The shortest HEALTH_OPERATOR_TOKEN accepted; a shorter one is ignored (with a warning), as if unset. */
export const MIN_OPERATOR_TOKEN_LENGTH = 16;
const COMPARE_KEY = randomBytes(32);
let warnedShortToken = false;

/** Whether the request carries the operator token. Compared as HMACs of equal length, in constant time. */
export function isOperator(req: Request, env: Record<string, string | undefined> = process.env): boolean {
  const token = env.HEALTH_OPERATOR_TOKEN?.trim();
  if (!token) return false;
  if (token.length < MIN_OPERATOR_TOKEN_LENGTH) {
    if (!warnedShortToken) console.warn(`[health] HEALTH_OPERATOR_TOKEN is shorter than ${MIN_OPERATOR_TOKEN_LENGTH} characters; ignored`);
    warnedShortToken = true;
    return false;
  }
  const sent = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.get("authorization") ?? "")?.[1];
  if (!sent) return false;
  const digest = (value: string) => createHmac("sha256", COMPARE_KEY).update(value).digest();
  return timingSafeEqual(digest(sent), digest(token));
}

function publicView(full: HealthReport): HealthReport {
  const { database, rate_limiter, providers, cache } = full.checks as Record<string, Record<string, unknown>>;
  const publicProviders: Record<string, unknown> = { status: providers.status, sandbox: providers.sandbox };
  for (const [id, value] of Object.entries(providers)) {
    if (id === "status" || id === "sandbox") continue;
    const { mode, circuit } = value as { mode: unknown; circuit: unknown };
    publicProviders[id] = { mode, circuit };
  }
  return {
    status: full.status,
    version: full.version,
    checks: {
      database: { status: database.status },
      rate_limiter: { status: rate_limiter.status },
      providers: publicProviders,
      cache: { status: cache.status },
    },
  };
}

/** Health: "down" only when the service cannot serve (no database); anything else unhealthy is "degraded". */
async function fullHealthReport(): Promise<HealthReport> {
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
  // Operator-only (publicView drops it); an unavailable route is filtered out of routing, not a fault of this instance.
  checks.availability = { status: "ok", ...availabilityReport() };
  checks.upstream_budgets = budgetsCheck((id) => providerStatus()[id].mode === "live");
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
