import { z } from "zod";

/** GET /api/v1/usage: query and response. Used by the route, the OpenAPI document and the dashboard. */

export const USAGE_GROUPS = ["day", "endpoint", "status", "language_pair", "provider"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** Days in the default range (today included) and the longest range a request may ask for. */
export const USAGE_DEFAULT_DAYS = 30;
export const USAGE_MAX_DAYS = 366;

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** "2026-11-24" → epoch ms of that UTC midnight; NaN unless it is a real calendar date. */
export function parseDay(day: string): number {
  if (!DATE_PATTERN.test(day)) return Number.NaN;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day ? Number.NaN : ms;
}

export const formatDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Today's UTC midnight, epoch ms. */
export const utcToday = (now = Date.now()) => Math.floor(now / DAY_MS) * DAY_MS;

/**
 * The inclusive range a query names: `to` defaults to today (UTC), `from` to 29 days before `to`. Returns the problem
 * instead when `from` is after `to` or the range is longer than USAGE_MAX_DAYS.
 */
export function usageRange(
  query: { from?: string; to?: string },
  now = Date.now(),
): { from: string; to: string; days: number } | { field: "from" | "to"; type: string; msg: string } {
  const to = query.to === undefined ? utcToday(now) : parseDay(query.to);
  const from = query.from === undefined ? to - (USAGE_DEFAULT_DAYS - 1) * DAY_MS : parseDay(query.from);
  if (from > to) return { field: "from", type: "date_order", msg: "from must not be after to" };
  const days = (to - from) / DAY_MS + 1;
  if (days > USAGE_MAX_DAYS) return { field: "from", type: "range_too_long", msg: `The range may span at most ${USAGE_MAX_DAYS} days` };
  return { from: formatDay(from), to: formatDay(to), days };
}

const Day = (what: string) =>
  z
    .string()
    .regex(DATE_PATTERN, "Input should be a date as YYYY-MM-DD")
    .refine((d) => !DATE_PATTERN.test(d) || !Number.isNaN(parseDay(d)), {
      message: "Input should be a calendar date (YYYY-MM-DD)",
      params: { type: "date_invalid" },
    })
    .optional()
    .describe(what);

export const UsageQuery = z
  .object({
    from: Day(`First day (UTC, YYYY-MM-DD), inclusive; default ${USAGE_DEFAULT_DAYS - 1} days before \`to\``),
    to: Day("Last day (UTC, YYYY-MM-DD), inclusive; default today"),
    group_by: z
      .enum(USAGE_GROUPS, { error: () => `Input should be one of ${USAGE_GROUPS.map((g) => `'${g}'`).join(", ")}` })
      .optional()
      .describe("How to group the rows (default day): day, endpoint, status (the HTTP status), language_pair or provider"),
  })
  .superRefine((q, ctx) => {
    if (q.from !== undefined && Number.isNaN(parseDay(q.from))) return;
    if (q.to !== undefined && Number.isNaN(parseDay(q.to))) return;
    const range = usageRange(q);
    if ("field" in range) ctx.addIssue({ code: "custom", path: [range.field], message: range.msg, params: { type: range.type } });
  })
  .describe("GET /api/v1/usage query parameters");
export type UsageQuery = z.infer<typeof UsageQuery>;

const Counts = {
  requests: z.number().int().describe("Requests made with the key"),
  characters: z.number().int().describe("Characters sent to providers for translation (translations answered from the cache are not counted)"),
  cache_hits: z.number().int().describe("Translations answered from the translation cache (a batch counts each such item)"),
  errors: z.number().int().describe("Requests answered with a 4xx or 5xx status (429 included)"),
  upstream_calls: z
    .number()
    .int()
    .describe(
      "Upstream calls (quota units) the requests cost: every request sent to a provider's metered API, failed ones and retries included (a provider charges them before the work); cache hits and packed batches keep it below requests",
    ),
  upstream_calls_by_provider: z
    .record(z.string(), z.number().int())
    .describe('upstream_calls split by the provider called, e.g. {"provider_a": 3}: also the calls to a provider that failed before another served'),
};

export const UsageRow = z
  .object({
    day: z.string().optional().describe("group_by=day: the UTC day; every day of the range has a row, zeros included"),
    endpoint: z.string().optional().describe('group_by=endpoint: method and path, e.g. "POST /api/v1/translate"'),
    status: z.number().int().optional().describe("group_by=status: the HTTP status of the response"),
    language_pair: z
      .string()
      .nullable()
      .optional()
      .describe('group_by=language_pair: "<source>-<target>" of a translation (a batch: when all its items share one), else null'),
    provider: z
      .string()
      .nullable()
      .optional()
      .describe(
        "group_by=provider: the provider that served the request (a batch: when one served every item), else null; a provider called without serving has a row with its upstream_calls and no requests",
      ),
    ...Counts,
  })
  .describe("One group: exactly the field group_by names, and the counts");
export type UsageRow = z.infer<typeof UsageRow>;

export const UsageResponse = z
  .object({
    from: z.string().describe("First day of the range (UTC, YYYY-MM-DD)"),
    to: z.string().describe("Last day of the range (UTC, YYYY-MM-DD)"),
    group_by: z.enum(USAGE_GROUPS),
    totals: z.object(Counts).describe("Sums over the whole range"),
    rows: z
      .array(UsageRow)
      .describe("group_by=day: one row per day, oldest first; otherwise the groups with requests or upstream calls, most requests first"),
  })
  .describe("Usage of the calling key");
export type UsageResponse = z.infer<typeof UsageResponse>;
