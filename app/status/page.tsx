import type { Metadata } from "next";
import { OUT_OF_CREDIT_MESSAGE, statusReport } from "@/lib/server/status";

export const metadata: Metadata = { title: "Status" };
export const dynamic = "force-dynamic";

const CIRCUIT_TEXT = { closed: "Operational", half_open: "Recovering", open: "Unavailable" } as const;
const CIRCUIT_STYLE = {
  closed: "border-emerald-300 bg-emerald-50 text-emerald-900",
  half_open: "border-amber-300 bg-amber-50 text-amber-950",
  open: "border-red-300 bg-red-50 text-red-900",
} as const;

const percent = (rate: number | null) => (rate === null ? "no calls" : `${(rate * 100).toFixed(rate > 0 && rate < 0.01 ? 2 : 1)} %`);
const millis = (ms: number | null) => (ms === null ? "no calls" : `${ms} ms`);

/**
 * The public status page: each provider's state (its circuit, as /health shows it), its error rate and median latency
 * over the last hour on this server (the upstream attempts /metrics counts), whether the service runs in the sandbox,
 * and the last circuit openings. No URL, credential or engine: the same public facts as /health.
 */
export default function StatusPage() {
  const report = statusReport();
  const allUp = report.providers.every((p) => p.circuit === "closed" && !p.out_of_credit);
  const sandboxed = report.providers.filter((p) => p.mode === "sandbox");
  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-10 sm:px-6">
      <div>
        <h1 className="text-3xl font-bold text-slate-950">Status</h1>
        <p className="mt-2 text-slate-800">
          {allUp ? "Every provider is operational." : "Some providers are failing: requests are routed to the others where they can be."} Figures
          cover the last hour on this server; updated{" "}
          <time dateTime={report.generated_at}>{report.generated_at.replace("T", " ").slice(0, 19)} UTC</time>.
        </p>
        {report.sandbox && (
          <p className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
            <strong className="font-semibold">Sandbox mode:</strong>{" "}
            {sandboxed.length === report.providers.length
              ? "every provider answers from an offline emulator; no output is a real translation."
              : `${sandboxed.map((p) => p.name).join(" and ")} ${sandboxed.length === 1 ? "answers" : "answer"} from an offline emulator; that output is not a real translation.`}
          </p>
        )}
      </div>

      <section aria-labelledby="providers-heading" className="space-y-3">
        <h2 id="providers-heading" className="text-xl font-semibold text-slate-950">
          Providers
        </h2>
        <ul className="grid gap-4 md:grid-cols-3">
          {report.providers.map((p) => (
            <li key={p.id} className="rounded-lg border border-slate-300 bg-white p-4 shadow-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h3 className="text-lg font-semibold text-slate-950">{p.name}</h3>
                <span className={`rounded-full border px-2 py-0.5 text-sm font-medium ${CIRCUIT_STYLE[p.circuit]}`}>{CIRCUIT_TEXT[p.circuit]}</span>
              </div>
              <p className="text-sm text-slate-700">
                <code className="font-mono">{p.id}</code> · {p.mode === "sandbox" ? "sandbox" : "live"}
              </p>
              {p.out_of_credit && (
                <p className="mt-2 rounded-md border border-amber-300 bg-amber-50 px-2 py-1 text-sm text-amber-950">{OUT_OF_CREDIT_MESSAGE}</p>
              )}
              <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                <dt className="text-slate-700">Circuit</dt>
                <dd className="font-mono text-slate-950">{p.circuit}</dd>
                <dt className="text-slate-700">Calls (1 h)</dt>
                <dd className="font-mono text-slate-950">{p.calls}</dd>
                <dt className="text-slate-700">Error rate</dt>
                <dd className="font-mono text-slate-950">{percent(p.error_rate)}</dd>
                <dt className="text-slate-700">Median latency</dt>
                <dd className="font-mono text-slate-950">{millis(p.p50_ms)}</dd>
              </dl>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="incidents-heading" className="space-y-3">
        <h2 id="incidents-heading" className="text-xl font-semibold text-slate-950">
          Recent incidents
        </h2>
        {report.incidents.length === 0 ? (
          <p className="text-slate-800">No circuit has opened since this server started.</p>
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-300 bg-white">
            {report.incidents.map((i) => (
              <li key={`${i.provider}-${i.at}`} className="px-4 py-3 text-sm text-slate-900">
                <time dateTime={i.at} className="font-mono">
                  {i.at.replace("T", " ").slice(0, 19)} UTC
                </time>{" "}
                — {i.name}: circuit opened {i.reason === "hung" ? "(the provider stopped answering)" : "(repeated failures)"}; requests failed over to
                other providers while it was open.
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
