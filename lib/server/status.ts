import { upstreamWindow } from "@/lib/kit/telemetry";
import { PROVIDERS } from "@/lib/providers";
import { type Services, services } from "./index";

/** What /health and /status say of a provider out of credit: it is up, but refuses this account until it is paid for. */
export const OUT_OF_CREDIT_MESSAGE =
  "Out of credit: the provider answers, but refuses this account until its credit is renewed or topped up (checked again every 10 minutes). Auto routing uses the other providers.";

/** One provider on the public status page. */
export interface ProviderStatusLine {
  id: string;
  name: string;
  mode: "live" | "sandbox";
  /** As /health shows it, and as lugha_circuit_state on /metrics (0 closed, 1 half open, 2 open). */
  circuit: "closed" | "half_open" | "open";
  /** True while the provider refuses this deployment's account for spent credit: up, but not usable. */
  out_of_credit: boolean;
  /** Upstream attempts of the last hour on this instance (http.client.request.duration's count). */
  calls: number;
  /** Share of those attempts that failed; null without attempts. */
  error_rate: number | null;
  /** Median attempt duration in ms, estimated from the histogram's buckets; null without attempts. */
  p50_ms: number | null;
}

export interface StatusReport {
  sandbox: boolean;
  providers: ProviderStatusLine[];
  /** Circuit openings, newest first (at most 10). */
  incidents: { provider: string; name: string; at: string; reason: "failures" | "hung" }[];
  generated_at: string;
}

/**
 * The public status page's numbers (app/status): each provider's circuit and mode (what /health shows anyone), its
 * error rate and p50 over the last hour (the upstream attempts /metrics counts), the sandbox flag and the last circuit
 * openings. Nothing an attacker could use: no URL, no credential, no key, no engine.
 */
export function statusReport(s: Services = services()): StatusReport {
  const window = upstreamWindow();
  const providers = PROVIDERS.map((d): ProviderStatusLine => {
    const client = s.providers.clients[d.id];
    const { calls, error_rate, p50_ms } = window.summary(d.id);
    return {
      id: d.id,
      name: d.displayName,
      mode: client.mode,
      circuit: client.circuitState,
      out_of_credit: client.outOfCredit,
      calls,
      error_rate,
      p50_ms,
    };
  });
  const incidents = PROVIDERS.flatMap((d) =>
    s.providers.clients[d.id].circuit.openings.map((o) => ({ provider: d.id, name: d.displayName, at: o.at, reason: o.reason })),
  )
    .sort((a, b) => b.at - a.at)
    .slice(0, 10)
    .map((i) => ({ ...i, at: new Date(i.at).toISOString() }));
  return {
    sandbox: providers.some((p) => p.mode === "sandbox"),
    providers,
    incidents,
    generated_at: new Date().toISOString(),
  };
}
