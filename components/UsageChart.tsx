"use client";

import Link from "next/link";
import { type KeyboardEvent, useId, useMemo, useRef, useState } from "react";
import { ScrollRegion } from "@/components/ScrollRegion";
import { OUTCOMES, type Outcome, type SeriesDay } from "@/lib/usage/series";

/**
 * The dashboard's usage chart: requests per UTC day split by endpoint or by outcome, or characters or cache hits, over
 * 7, 30 or 90 days. Drawn with HTML and CSS rather than a scaled SVG, so every label is real text at a fixed 12–14 px at
 * any width (a scaled SVG's ticks shrank to ~6 px on a phone). Each day is a button in one roving tab stop (arrow
 * keys, Home, End): hovering, focusing or tapping it shows its tooltip. The numbers are also a table. The data is
 * lib/usage's dashboardUsage — the same rows GET /api/v1/usage reads.
 */

export const RANGES = [7, 30, 90] as const;
type View = "endpoint" | "outcome" | "upstreamCalls" | "characters" | "cacheHits";

const VIEWS: { id: View; label: string }[] = [
  { id: "endpoint", label: "Requests by endpoint" },
  { id: "outcome", label: "Requests by outcome" },
  { id: "upstreamCalls", label: "Upstream calls" },
  { id: "characters", label: "Characters translated" },
  { id: "cacheHits", label: "Cache hits" },
];

const OUTCOME_LABELS: Record<Outcome, string> = {
  "2xx": "Succeeded (2xx)",
  "4xx": "Refused (4xx)",
  "429": "Rate limited (429)",
  "5xx": "Failed (5xx)",
};
const OUTCOME_COLORS: Record<Outcome, string> = { "2xx": "#047857", "4xx": "#b45309", "429": "#6d28d9", "5xx": "#b91c1c" };
/** Distinct, on white at least 3:1 (WCAG non-text contrast). */
const ENDPOINT_COLORS = ["#047857", "#1d4ed8", "#b45309", "#6d28d9", "#be123c", "#0f766e", "#4d7c0f", "#475569"];
const MAX_ENDPOINT_SERIES = ENDPOINT_COLORS.length - 1;
const OTHER = "Other endpoints";

interface Segment {
  label: string;
  color: string;
  value: number;
}

const number = (n: number) => n.toLocaleString("en-US");

function dayLabel(day: string, long = false): string {
  const date = new Date(`${day}T00:00:00Z`);
  return date.toLocaleDateString("en-GB", {
    timeZone: "UTC",
    day: "numeric",
    month: "short",
    ...(long ? { weekday: "short", year: "numeric" } : {}),
  });
}

function niceMax(n: number): number {
  if (n <= 4) return 4;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  for (const s of [1, 2, 2.5, 5, 10]) if (s * magnitude >= n) return s * magnitude;
  return 10 * magnitude;
}

export interface UsageChartProps {
  /** The last 90 UTC days, oldest first. */
  days: SeriesDay[];
  /** Endpoints with requests, busiest first. */
  endpoints: string[];
  /** endpoint → human name (the manifest's summaries). */
  endpointLabels: Record<string, string>;
  /** Where the usage table downloads as CSV (the range is added as `days`). */
  csvHref?: string;
}

export function UsageChart({ days: allDays, endpoints, endpointLabels, csvHref }: UsageChartProps) {
  const [range, setRange] = useState<(typeof RANGES)[number]>(30);
  const [view, setView] = useState<View>("endpoint");
  const [active, setActive] = useState<number | null>(null);
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const bars = useRef<(HTMLButtonElement | null)[]>([]);
  const ids = useId();
  const days = useMemo(() => allDays.slice(-range), [allDays, range]);
  const shown = endpoints.slice(0, MAX_ENDPOINT_SERIES);
  const label = (e: string) => endpointLabels[e] ?? e;

  const segments = (d: SeriesDay): Segment[] => {
    if (view === "outcome") return OUTCOMES.map((o) => ({ label: OUTCOME_LABELS[o], color: OUTCOME_COLORS[o], value: d.byOutcome[o] }));
    if (view === "upstreamCalls") return [{ label: "Upstream calls", color: "#b45309", value: d.upstreamCalls }];
    if (view === "characters") return [{ label: "Characters translated", color: "#6d28d9", value: d.characters }];
    if (view === "cacheHits") return [{ label: "Cache hits", color: "#0f766e", value: d.cacheHits }];
    const out = shown.map((e, i) => ({ label: label(e), color: ENDPOINT_COLORS[i], value: d.byEndpoint[e] ?? 0 }));
    const other = endpoints.slice(MAX_ENDPOINT_SERIES).reduce((s, e) => s + (d.byEndpoint[e] ?? 0), 0);
    if (endpoints.length > MAX_ENDPOINT_SERIES) out.push({ label: OTHER, color: ENDPOINT_COLORS[MAX_ENDPOINT_SERIES], value: other });
    return out;
  };
  const unit = view === "characters" ? "characters" : view === "cacheHits" ? "cache hits" : view === "upstreamCalls" ? "upstream calls" : "requests";
  const totalOf = (d: SeriesDay) => segments(d).reduce((s, x) => s + x.value, 0);
  const totals = days.map(totalOf);
  const max = niceMax(Math.max(0, ...totals));
  const legend = segments(days[0] ?? allDays[0]).map(({ label, color }) => ({ label, color }));
  const sum = (f: (d: SeriesDay) => number) => days.reduce((s, d) => s + f(d), 0);
  const everUsed = allDays.some((d) => d.requests > 0);
  const current = focusIndex ?? days.length - 1;

  const move = (e: KeyboardEvent, i: number) => {
    const next = e.key === "ArrowRight" ? i + 1 : e.key === "ArrowLeft" ? i - 1 : e.key === "Home" ? 0 : e.key === "End" ? days.length - 1 : -2;
    if (next === -2 || next < 0 || next >= days.length) return;
    e.preventDefault();
    setFocusIndex(next);
    setActive(next);
    bars.current[next]?.focus({ preventScroll: true });
  };

  const describe = (d: SeriesDay) =>
    `${dayLabel(d.day, true)}: ${number(totalOf(d))} ${unit}${segments(d)
      .filter((s) => s.value > 0 && segments(d).length > 1)
      .map((s, i) => `${i === 0 ? " — " : ", "}${s.label} ${number(s.value)}`)
      .join("")}`;

  return (
    <div>
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
        <fieldset className="flex flex-wrap items-center gap-2">
          <legend className="sr-only">Range</legend>
          {RANGES.map((r) => (
            <button
              key={r}
              type="button"
              aria-pressed={range === r}
              onClick={() => {
                setRange(r);
                setActive(null);
                setFocusIndex(null);
              }}
              className={`min-h-11 rounded-md border px-3 text-sm font-semibold ${range === r ? "border-brand-700 bg-brand-700 text-white" : "border-slate-300 bg-white text-slate-900 hover:bg-slate-50"}`}
            >
              {r} days
            </button>
          ))}
        </fieldset>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
          Show
          <select
            value={view}
            onChange={(e) => setView(e.target.value as View)}
            className="min-h-11 rounded-md border border-slate-400 bg-white px-2 text-base"
          >
            {VIEWS.map((v) => (
              <option key={v.id} value={v.id}>
                {v.label}
              </option>
            ))}
          </select>
        </label>
      </div>

      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="usage-totals">
        {[
          ["Requests", sum((d) => d.requests)],
          ["Upstream calls", sum((d) => d.upstreamCalls)],
          ["Errors (4xx/5xx)", sum((d) => d.errors)],
          ["Characters sent to providers", sum((d) => d.characters)],
          ["Cache hits", sum((d) => d.cacheHits)],
        ].map(([name, value]) => (
          <div key={name} className="rounded-md border border-slate-200 px-3 py-2">
            <dt className="text-sm text-slate-700">{name}</dt>
            <dd className="text-xl font-semibold tabular-nums text-slate-950">{number(value as number)}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-sm text-slate-700" data-testid="usage-cache-note">
        Upstream calls are what the requests cost at the providers (their quota is counted in calls); a batch packs its texts into few calls.
        Characters sent to providers leave out translations answered from the translation cache, which send nothing upstream
        {sum((d) => d.cacheHits) > 0 ? ` (${number(sum((d) => d.cacheHits))} in this range: see Cache hits)` : ""}.
      </p>

      {!everUsed ? (
        <div className="mt-4 rounded-md border border-dashed border-slate-300 bg-slate-50 p-6 text-center" data-testid="usage-empty">
          <p className="font-semibold text-slate-900">No requests yet</p>
          <p className="mt-1 text-sm text-slate-700">Your chart fills in as soon as this key makes its first request.</p>
          <p className="mt-3 flex flex-wrap justify-center gap-3">
            <a href="#playground-title" className="btn-primary">
              Make your first request in the playground
            </a>
            <Link href="/#quick-start-title" className="btn-secondary">
              Read the quick start
            </Link>
          </p>
        </div>
      ) : (
        <figure className="mt-4" aria-labelledby={`${ids}-caption`}>
          <figcaption id={`${ids}-caption`} className="text-sm font-semibold text-slate-900">
            {VIEWS.find((v) => v.id === view)?.label} per UTC day, last {range} days
          </figcaption>
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-800" aria-label="Legend">
            {legend.map((l) => (
              <li key={l.label} className="flex items-center gap-1.5">
                <span aria-hidden="true" className="inline-block size-3 rounded-sm" style={{ background: l.color }} />
                {l.label}
              </li>
            ))}
          </ul>
          <div className="relative mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-2">
            <div className="flex h-48 flex-col justify-between text-right text-xs text-slate-700 tabular-nums" aria-hidden="true">
              <span>{number(max)}</span>
              <span>{number(max / 2)}</span>
              <span>0</span>
            </div>
            <div className="relative h-48 border-b border-l border-slate-300">
              <div className="pointer-events-none absolute inset-x-0 top-0 border-t border-dashed border-slate-200" />
              <div className="pointer-events-none absolute inset-x-0 top-1/2 border-t border-dashed border-slate-200" />
              {/* biome-ignore lint/a11y/useSemanticElements: a fieldset's anonymous content box leaves the bars' percentage heights unresolved */}
              <div role="group" aria-label={`${unit} per day; the arrow keys move between days`} className="absolute inset-0 flex items-end">
                {days.map((d, i) => {
                  const total = totals[i];
                  return (
                    <button
                      key={d.day}
                      ref={(el) => {
                        bars.current[i] = el;
                      }}
                      type="button"
                      tabIndex={i === current ? 0 : -1}
                      aria-label={describe(d)}
                      aria-describedby={active === i ? `${ids}-tip` : undefined}
                      onMouseEnter={() => setActive(i)}
                      onMouseLeave={() => setActive(null)}
                      onFocus={() => {
                        setActive(i);
                        setFocusIndex(i);
                      }}
                      onBlur={() => setActive(null)}
                      onClick={() => setActive(i)}
                      onKeyDown={(e) => move(e, i)}
                      data-testid="usage-bar"
                      className={`group flex h-full min-w-0 flex-1 basis-0 justify-center outline-offset-0 ${active === i ? "bg-slate-100" : ""}`}
                    >
                      {/* The gap between bars is the rest of the day's column: a width in % of the column (padding in % would resolve against the whole chart). */}
                      <span className="flex h-full w-3/4 min-w-px flex-col-reverse" data-testid="usage-bar-stack">
                        {segments(d).map((s) =>
                          s.value > 0 ? (
                            <span
                              key={s.label}
                              className="block w-full"
                              data-testid="usage-segment"
                              style={{ background: s.color, height: `${(s.value / max) * 100}%`, minHeight: total > 0 ? 1 : 0 }}
                            />
                          ) : null,
                        )}
                      </span>
                    </button>
                  );
                })}
              </div>
              {active !== null && days[active] && (
                <div
                  id={`${ids}-tip`}
                  role="tooltip"
                  data-testid="usage-tooltip"
                  className="pointer-events-none absolute -top-2 z-10 w-max max-w-[16rem] -translate-y-full rounded-md border border-slate-300 bg-white p-2 text-sm text-slate-900 shadow-lg"
                  style={
                    active < days.length / 2
                      ? { left: `${(active / days.length) * 100}%` }
                      : { right: `${((days.length - active - 1) / days.length) * 100}%` }
                  }
                >
                  <p className="font-semibold">{dayLabel(days[active].day, true)}</p>
                  <p className="tabular-nums">
                    {number(totals[active])} {unit}
                  </p>
                  {segments(days[active]).length > 1 && (
                    <ul className="mt-1 space-y-0.5">
                      {segments(days[active])
                        .filter((s) => s.value > 0)
                        .map((s) => (
                          <li key={s.label} className="flex items-center gap-1.5 tabular-nums">
                            <span aria-hidden="true" className="inline-block size-2.5 rounded-sm" style={{ background: s.color }} />
                            {s.label}: {number(s.value)}
                          </li>
                        ))}
                    </ul>
                  )}
                </div>
              )}
            </div>
            <div />
            <div className="mt-1 flex justify-between text-xs text-slate-700" aria-hidden="true">
              <span>{dayLabel(days[0].day)}</span>
              {range > 7 && <span>{dayLabel(days[Math.floor(days.length / 2)].day)}</span>}
              <span>today</span>
            </div>
          </div>
        </figure>
      )}

      {csvHref && (
        <p className="mt-4 text-sm">
          <a href={`${csvHref}?days=${range}`} download className="btn-secondary min-h-11" data-testid="usage-csv">
            Download the last {range} days as CSV
          </a>
        </p>
      )}
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-medium text-brand-800 underline underline-offset-2">Show the numbers as a table</summary>
        <ScrollRegion label="Usage per day" className="relative mt-2 max-h-72 overflow-auto rounded-md border border-slate-200">
          <table className="min-w-full text-left">
            <caption className="sr-only">
              Requests, upstream calls, errors, characters translated upstream and cache hits per UTC day, last {range} days
            </caption>
            <thead className="sticky top-0 bg-slate-100">
              <tr>
                {["Day (UTC)", "Requests", "Upstream calls", "Errors", "Characters translated", "Cache hits"].map((h, i) => (
                  <th key={h} scope="col" className={`px-3 py-1.5 ${i > 0 ? "text-right" : ""}`}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {[...days].reverse().map((d) => (
                <tr key={d.day}>
                  <th scope="row" className="px-3 py-1 font-normal whitespace-nowrap">
                    {d.day}
                  </th>
                  <td className="px-3 py-1 text-right tabular-nums">{number(d.requests)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{number(d.upstreamCalls)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{number(d.errors)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{number(d.characters)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{number(d.cacheHits)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </details>
    </div>
  );
}
