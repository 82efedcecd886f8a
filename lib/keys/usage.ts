import { getPrisma } from "@/lib/db";
import { flushUsage } from "./store";

/** One UTC day of a key's usage (the rows authenticateAndCount and the batched usage flush write). */
export interface UsageDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  requests: number;
  /** Characters sent upstream; translations answered from the cache are in cacheHits instead. */
  charactersTranslated: number;
  cacheHits: number;
}

const DAY_MS = 86_400_000;

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The last `days` UTC days (today included, oldest first), one entry per day: days without a row are zeros.
 * Read-only: no counter moves.
 */
export async function usageByDay(keyId: string, days = 30, now = new Date()): Promise<UsageDay[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = new Date(today - (days - 1) * DAY_MS);
  await flushUsage(); // counts are written just after each response; make sure this instance's are in
  const prisma = await getPrisma();
  const rows = await prisma.usageDaily.findMany({
    where: { keyId, day: { gte: first } },
    orderBy: { day: "asc" },
  });
  const byDay = new Map(rows.map((r) => [utcDay(r.day), r]));
  return fillDays(first, days, (day) => {
    const r = byDay.get(day);
    return {
      requests: Number(r?.requests ?? 0),
      charactersTranslated: Number(r?.charactersTranslated ?? 0),
      cacheHits: Number(r?.cacheHits ?? 0),
    };
  });
}

/** `days` consecutive days from `first`, each filled by `value` (exported for tests). */
export function fillDays<T extends object>(first: Date, days: number, value: (day: string) => T): ({ day: string } & T)[] {
  return Array.from({ length: days }, (_, i) => {
    const day = utcDay(new Date(first.getTime() + i * DAY_MS));
    return { day, ...value(day) };
  });
}
