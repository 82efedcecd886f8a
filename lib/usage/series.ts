import type { UsageGroupRow } from "./read";

/**
 * The dashboard chart's data: per day, requests split by endpoint and by outcome, with upstream calls, characters and
 * cache hits.
 * Built from readUsage's rows grouped by (day, endpoint, status) — the rows GET /api/v1/usage sums — so the chart and
 * the API always agree. Pure (no I/O), so the client component gets plain JSON.
 */
export const OUTCOMES = ["2xx", "4xx", "429", "5xx"] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface SeriesDay {
  day: string;
  requests: number;
  characters: number;
  cacheHits: number;
  errors: number;
  /** Upstream calls (quota units) the day's requests cost. */
  upstreamCalls: number;
  /** endpoint ("POST /api/v1/translate") → requests */
  byEndpoint: Record<string, number>;
  byOutcome: Record<Outcome, number>;
}

/** 2xx also holds 3xx (a 304 of GET /languages is a success); 429 is apart from the other 4xx. */
export function outcomeOf(status: number): Outcome {
  if (status === 429) return "429";
  if (status >= 500) return "5xx";
  if (status >= 400) return "4xx";
  return "2xx";
}

export function buildSeries(rows: UsageGroupRow[], days: string[]): { days: SeriesDay[]; endpoints: string[] } {
  const byDay = new Map<string, SeriesDay>(
    days.map((day) => [
      day,
      {
        day,
        requests: 0,
        characters: 0,
        cacheHits: 0,
        errors: 0,
        upstreamCalls: 0,
        byEndpoint: {},
        byOutcome: { "2xx": 0, "4xx": 0, "429": 0, "5xx": 0 },
      },
    ]),
  );
  const endpointTotals = new Map<string, number>();
  for (const r of rows) {
    const d = r.day === undefined ? undefined : byDay.get(r.day);
    if (!d || r.endpoint === undefined || r.status === undefined) continue;
    d.requests += r.requests;
    d.characters += r.characters;
    d.cacheHits += r.cacheHits;
    d.errors += r.errors;
    d.upstreamCalls += r.upstreamCalls;
    d.byEndpoint[r.endpoint] = (d.byEndpoint[r.endpoint] ?? 0) + r.requests;
    d.byOutcome[outcomeOf(r.status)] += r.requests;
    endpointTotals.set(r.endpoint, (endpointTotals.get(r.endpoint) ?? 0) + r.requests);
  }
  // Busiest first: the chart stacks and colours them in this order.
  const endpoints = [...endpointTotals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([e]) => e);
  return { days: [...byDay.values()], endpoints };
}
