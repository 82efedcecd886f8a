import { getDatabase, databaseTarget } from "@/lib/db";
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

/** Health (DESIGN.md): "down" only when the service cannot serve (no database); anything else unhealthy is "degraded". */
export async function healthReport(extraChecks: Record<string, () => Promise<CheckResult | Record<string, unknown>>> = {}): Promise<HealthReport> {
  const db = await timed(async () => (await getDatabase()).ping(), 3_000);
  const checks: HealthReport["checks"] = {
    database: {
      status: db.ok ? "ok" : "down",
      engine: databaseTarget().kind,
      latency_ms: db.latency_ms,
      ...(db.error ? { error: "database unreachable" } : {}),
    },
  };
  for (const [name, run] of Object.entries(extraChecks)) {
    try {
      checks[name] = await run();
    } catch (err) {
      checks[name] = { status: "degraded", error: (err as Error).message.slice(0, 200) };
    }
  }
  const degraded = Object.entries(checks).some(([name, c]) => name !== "database" && c.status !== "ok");
  return {
    status: !db.ok ? "down" : degraded ? "degraded" : "ok",
    version: packageJson.version,
    uptime_seconds: Math.floor((Date.now() - startedAt) / 1000),
    checks,
  };
}
