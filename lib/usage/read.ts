import type { KeyStore } from "@/lib/keys/store";
import { formatDay, parseDay, type UsageGroup, type UsageResponse, type UsageRow, utcToday } from "./schemas";
import { buildSeries } from "./series";

/**
 * Reads a key's usage breakdown (usage_breakdown) for GET /api/v1/usage and the dashboard: the sums over an inclusive
 * UTC day range, grouped by the dimensions asked for. Read-only; this instance's pending counts are written first, so
 * every request it has answered is in.
 */
export interface UsageCounts {
  requests: number;
  characters: number;
  cacheHits: number;
  errors: number;
  /** Upstream calls (quota units). */
  upstreamCalls: number;
}

export interface UsageGroupRow extends UsageCounts {
  day?: string;
  endpoint?: string;
  status?: number;
  /** null: the requests had no language pair (or a batch several). */
  languagePair?: string | null;
  provider?: string | null;
}

/** Each dimension's SQL expression: a fixed list, so no caller input ever reaches the statement text. */
const DIMENSION_SQL: Record<UsageGroup, string> = {
  day: "to_char(day, 'YYYY-MM-DD')",
  endpoint: "endpoint",
  status: "status",
  language_pair: "NULLIF(language_pair, '')",
  provider: "NULLIF(provider, '')",
};
const FIELD: Record<UsageGroup, keyof UsageGroupRow> = {
  day: "day",
  endpoint: "endpoint",
  status: "status",
  language_pair: "languagePair",
  provider: "provider",
};

export async function readUsage(keys: KeyStore, keyId: string, range: { from: string; to: string }, groups: UsageGroup[]): Promise<UsageGroupRow[]> {
  await keys.flushUsage();
  const prisma = await keys.prisma();
  const select = groups.map((g, i) => `${DIMENSION_SQL[g]} AS g${i}`);
  const rows = await prisma.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT ${[...select, ""].join(", ")}
            sum(requests)::bigint AS requests, sum(characters)::bigint AS characters, sum(cache_hits)::bigint AS cache_hits,
            sum(upstream_calls)::bigint AS upstream_calls, coalesce(sum(requests) FILTER (WHERE status >= 400), 0)::bigint AS errors
       FROM usage_breakdown
      WHERE key_id = $1::uuid AND day BETWEEN $2::date AND $3::date
      ${groups.length ? `GROUP BY ${groups.map((_, i) => `g${i}`).join(", ")}` : ""}`,
    keyId,
    range.from,
    range.to,
  );
  return rows.map((r) => {
    const row: UsageGroupRow = {
      requests: Number(r.requests ?? 0),
      characters: Number(r.characters ?? 0),
      cacheHits: Number(r.cache_hits ?? 0),
      errors: Number(r.errors ?? 0),
      upstreamCalls: Number(r.upstream_calls ?? 0),
    };
    groups.forEach((g, i) => {
      (row as unknown as Record<string, unknown>)[FIELD[g]] = g === "status" ? Number(r[`g${i}`]) : r[`g${i}`];
    });
    return row;
  });
}

/**
 * GET /api/v1/usage's answer for a validated range and grouping. Each row (and the totals) also splits its upstream
 * calls by provider: read in the same query, grouped by the provider as well, and summed here.
 */
export async function usageReport(keys: KeyStore, keyId: string, range: { from: string; to: string }, groupBy: UsageGroup): Promise<UsageResponse> {
  const byProvider = await readUsage(keys, keyId, range, groupBy === "provider" ? ["provider"] : [groupBy, "provider"]);
  const grouped = new Map<unknown, { group: UsageGroupRow; parts: UsageGroupRow[] }>();
  for (const row of byProvider) {
    const value = row[FIELD[groupBy]];
    const found = grouped.get(value);
    if (found) found.parts.push(row);
    else grouped.set(value, { group: { [FIELD[groupBy]]: value, ...ZERO } as UsageGroupRow, parts: [row] });
  }
  const groups = [...grouped.values()].map(({ group, parts }) => ({ ...group, ...sumCounts(parts), parts }));
  const totals = { ...sumCounts(groups), parts: byProvider };
  let rows: UsageRow[];
  if (groupBy === "day") {
    const byDay = new Map(groups.map((g) => [g.day, g]));
    rows = daysOf(range).map((day) => ({ day, ...apiCounts(byDay.get(day) ?? { ...ZERO, parts: [] }) }));
  } else {
    rows = groups
      .sort(
        (a, b) => b.requests - a.requests || b.upstreamCalls - a.upstreamCalls || String(a[FIELD[groupBy]]).localeCompare(String(b[FIELD[groupBy]])),
      )
      .map((g) => ({ [groupBy]: g[FIELD[groupBy]], ...apiCounts(g) }));
  }
  return { from: range.from, to: range.to, group_by: groupBy, totals: apiCounts(totals), rows };
}

const ZERO: UsageCounts = { requests: 0, characters: 0, cacheHits: 0, errors: 0, upstreamCalls: 0 };

export function sumCounts(rows: UsageCounts[]): UsageCounts {
  return rows.reduce(
    (s, r) => ({
      requests: s.requests + r.requests,
      characters: s.characters + r.characters,
      cacheHits: s.cacheHits + r.cacheHits,
      errors: s.errors + r.errors,
      upstreamCalls: s.upstreamCalls + r.upstreamCalls,
    }),
    ZERO,
  );
}

/** The API's counts of a group; `parts` are its rows by provider (the upstream calls' split). */
function apiCounts(c: UsageCounts & { parts: UsageGroupRow[] }) {
  const byProvider: Record<string, number> = {};
  for (const p of c.parts) if (p.provider && p.upstreamCalls > 0) byProvider[p.provider] = (byProvider[p.provider] ?? 0) + p.upstreamCalls;
  return {
    requests: c.requests,
    characters: c.characters,
    cache_hits: c.cacheHits,
    errors: c.errors,
    upstream_calls: c.upstreamCalls,
    upstream_calls_by_provider: byProvider,
  };
}

/** Every UTC day of the inclusive range, oldest first. */
export function daysOf(range: { from: string; to: string }): string[] {
  const out: string[] = [];
  for (let ms = parseDay(range.from); ms <= parseDay(range.to); ms += 86_400_000) out.push(formatDay(ms));
  return out;
}

/** The dashboard chart's data: the last `days` UTC days (today included), read with the usage API's own query. */
export async function dashboardUsage(keys: KeyStore, keyId: string, days = 90, now = Date.now()) {
  const to = utcToday(now);
  const range = { from: formatDay(to - (days - 1) * 86_400_000), to: formatDay(to) };
  return buildSeries(await readUsage(keys, keyId, range, ["day", "endpoint", "status"]), daysOf(range));
}
