import type { UsageDay } from "@/lib/keys/usage";

/**
 * Usage per day as two small bar charts (requests; characters translated), drawn on the server as inline SVG.
 * Each chart has a text alternative, and the numbers are also available as a table.
 */
const W = 600;
const H = 150;
const PAD = { top: 12, right: 8, bottom: 24, left: 44 };

function niceMax(n: number): number {
  if (n <= 4) return 4;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  const steps = [1, 2, 2.5, 5, 10];
  for (const s of steps) if (s * magnitude >= n) return s * magnitude;
  return 10 * magnitude;
}

function shortDay(day: string): string {
  const [, m, d] = day.split("-");
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][Number(m) - 1];
  return `${Number(d)} ${month}`;
}

function BarChart({ id, days, value, label, color }: { id: string; days: UsageDay[]; value: (d: UsageDay) => number; label: string; color: string }) {
  const values = days.map(value);
  const total = values.reduce((a, b) => a + b, 0);
  const max = niceMax(Math.max(0, ...values));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / days.length;
  const barW = Math.max(2, slot * 0.7);
  const busiest = values.indexOf(Math.max(...values));
  const summary =
    total === 0
      ? `No ${label} in the last ${days.length} days.`
      : `${total.toLocaleString("en-US")} ${label} in the last ${days.length} days; busiest day ${shortDay(days[busiest].day)} with ${values[busiest].toLocaleString("en-US")}.`;

  return (
    <figure className="min-w-0">
      <figcaption className="text-sm font-semibold text-slate-900">
        {label[0].toUpperCase() + label.slice(1)} per day <span className="font-normal text-slate-700">— total {total.toLocaleString("en-US")}</span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} className="mt-2 h-auto w-full" role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>{`${label} per day, last ${days.length} days`}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {[0, 0.5, 1].map((f) => {
          const y = PAD.top + innerH * (1 - f);
          return (
            <g key={f}>
              <line x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} stroke="#cbd5e1" strokeWidth={1} />
              <text x={PAD.left - 6} y={y + 4} textAnchor="end" fontSize={11} fill="#334155">
                {(max * f).toLocaleString("en-US")}
              </text>
            </g>
          );
        })}
        {values.map((v, i) => {
          const h = max === 0 ? 0 : (v / max) * innerH;
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <rect key={days[i].day} x={x} y={PAD.top + innerH - h} width={barW} height={Math.max(h, v > 0 ? 1 : 0)} fill={color} rx={1}>
              <title>{`${shortDay(days[i].day)}: ${v.toLocaleString("en-US")} ${label}`}</title>
            </rect>
          );
        })}
        {[0, Math.floor(days.length / 2), days.length - 1].map((i) => (
          <text
            key={i}
            x={PAD.left + i * slot + slot / 2}
            y={H - 6}
            textAnchor={i === 0 ? "start" : i === days.length - 1 ? "end" : "middle"}
            fontSize={11}
            fill="#334155"
          >
            {i === days.length - 1 ? "today" : shortDay(days[i].day)}
          </text>
        ))}
      </svg>
    </figure>
  );
}

export function UsageChart({ days }: { days: UsageDay[] }) {
  return (
    <div>
      <div className="grid gap-6 lg:grid-cols-2">
        <BarChart id="usage-requests" days={days} value={(d) => d.requests} label="requests" color="#047857" />
        <BarChart id="usage-chars" days={days} value={(d) => d.charactersTranslated} label="characters translated" color="#6d28d9" />
      </div>
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-medium text-brand-800 underline underline-offset-2">Show the numbers as a table</summary>
        <div className="relative mt-2 max-h-72 overflow-auto rounded-md border border-slate-200">
          <table className="min-w-full text-left">
            <caption className="sr-only">Requests, characters translated upstream and cache hits per day (UTC)</caption>
            <thead className="sticky top-0 bg-slate-100">
              <tr>
                <th scope="col" className="px-3 py-1.5">
                  Day (UTC)
                </th>
                <th scope="col" className="px-3 py-1.5 text-right">
                  Requests
                </th>
                <th scope="col" className="px-3 py-1.5 text-right">
                  Characters translated
                </th>
                <th scope="col" className="px-3 py-1.5 text-right">
                  Cache hits
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {[...days].reverse().map((d) => (
                <tr key={d.day}>
                  <th scope="row" className="px-3 py-1 font-normal">
                    {d.day}
                  </th>
                  <td className="px-3 py-1 text-right tabular-nums">{d.requests.toLocaleString("en-US")}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{d.charactersTranslated.toLocaleString("en-US")}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{d.cacheHits.toLocaleString("en-US")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
