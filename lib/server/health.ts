import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { budgetsCheck } from "@/lib/budgets";
import { databaseTarget } from "@/lib/db";
import { processLog } from "@/lib/kit/log";
import { rateLimiterStatus } from "@/lib/ratelimit";
import packageJson from "@/package.json";
import { availabilityReport } from "./availability";
import { type Services, services } from "./index";
import { OUT_OF_CREDIT_MESSAGE } from "./status";

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
 * What /health shows to whom (docs/decisions.md "Health"). Anyone: status, version, each check's status, `sandbox`, and each
 * provider's mode and circuit — what the portal's banner and a deploy check need. The operator (Authorization: Bearer
 * HEALTH_OPERATOR_TOKEN) also gets what helps an attacker map the deployment: uptime, the database engine and its
 * latency, the rate limiter's backend, fail mode and detail, the translation cache's backend, scope and state,
 * provider base URLs and whether each is configured, and `availability`: the models and pairs marked unavailable,
 * why, and when each is re-checked.
 */
export async function healthReport(req?: Request, s: Services = services()): Promise<HealthReport> {
  const full = await fullHealthReport(s);
  return req && isOperator(req, s.config.HEALTH_OPERATOR_TOKEN) ? full : publicView(full);
}

/** The shortest HEALTH_OPERATOR_TOKEN accepted; a shorter one is ignored (with a warning), as if unset. */
export const MIN_OPERATOR_TOKEN_LENGTH = 16;
const COMPARE_KEY = randomBytes(32);
let warnedShortToken = false;

/** Whether the request carries the operator token. Compared as HMACs of equal length, in constant time. */
export function isOperator(req: Request, operatorToken: string | undefined): boolean {
  const token = operatorToken?.trim();
  if (!token) return false;
  if (token.length < MIN_OPERATOR_TOKEN_LENGTH) {
    if (!warnedShortToken)
      processLog().warn(
        { event: "operator_token_ignored" },
        `HEALTH_OPERATOR_TOKEN is shorter than ${MIN_OPERATOR_TOKEN_LENGTH} characters; ignored`,
      );
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
    const { mode, circuit, out_of_credit, message } = value as Record<string, unknown>;
    publicProviders[id] = { mode, circuit, out_of_credit, ...(message !== undefined && { message }) };
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
async function fullHealthReport(s: Services): Promise<HealthReport> {
  const db = await timed(async () => (await s.database()).ping(), 3_000);
  const checks: HealthReport["checks"] = {
    database: {
      status: db.ok ? "ok" : "down",
      engine: engineName(s),
      latency_ms: db.latency_ms,
      ...(db.error ? { error: "database unreachable" } : {}),
    },
  };
  const limiter = await rateLimiterStatus(s.limiter);
  checks.rate_limiter = { status: limiter.ok ? "ok" : "degraded", ...limiter };
  checks.providers = providersCheck(s);
  checks.cache = await cacheCheck(s);
  // Operator-only (publicView drops it); an unavailable route is filtered out of routing, not a fault of this instance.
  checks.availability = { status: "ok", ...availabilityReport(s.availability) };
  checks.upstream_budgets = budgetsCheck((id) => s.providerStatus()[id].mode === "live", s.budgets);
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
function providersCheck(s: Services): CheckResult {
  const providers = s.providerStatus();
  const list = Object.values(providers);
  const unhealthy = list.some((p) => p.circuit !== "closed" || !p.configured || p.out_of_credit);
  const shown = Object.fromEntries(Object.entries(providers).map(([id, p]) => [id, p.out_of_credit ? { ...p, message: OUT_OF_CREDIT_MESSAGE } : p]));
  return {
    status: unhealthy ? "degraded" : "ok",
    sandbox: list.some((p) => p.mode === "sandbox"),
    ...shown,
  };
}

/**
 * The translation cache: "degraded" while its store fails (requests are then served uncached, never refused). Off is
 * not a fault.
 */
async function cacheCheck(s: Services): Promise<CheckResult> {
  const cache = await s.caching.cache.status();
  return { status: cache.enabled && (!cache.ok || cache.degraded) ? "degraded" : "ok", ...cache };
}

/** The configured engine; "misconfigured" when DATABASE_URL is unusable here (e.g. unset on Vercel). Never throws. */
function engineName(s: Services): string {
  try {
    return databaseTarget(s.config.DATABASE_URL, Boolean(s.config.VERCEL)).kind;
  } catch {
    return "misconfigured";
  }
}

/** GET /health/ready: the database and the shared store (the rate limiter's) both answer within 3 s. */
export async function readiness(s: Services = services()) {
  const [db, store] = await Promise.all([
    timed(async () => (await s.database()).ping(), 3_000),
    timed(async () => {
      const status = await rateLimiterStatus(s.limiter);
      if (!status.ok) throw new Error("shared store unavailable");
    }, 3_000),
  ]);
  const ready = db.ok && store.ok;
  return {
    status: ready ? ("ready" as const) : ("not_ready" as const),
    checks: { database: db.ok ? ("ok" as const) : ("down" as const), shared_store: store.ok ? ("ok" as const) : ("down" as const) },
  };
}
