import { describe, expect, it } from "vitest";
import { UsageQuery, usageRange } from "./schemas";

const NOW = Date.UTC(2026, 10, 24, 15, 30);

describe("usageRange", () => {
  it("defaults to the last 30 UTC days, today included", () => {
    expect(usageRange({}, NOW)).toEqual({ from: "2026-10-26", to: "2026-11-24", days: 30 });
    expect(usageRange({ to: "2026-03-01" }, NOW)).toEqual({ from: "2026-01-31", to: "2026-03-01", days: 30 });
    expect(usageRange({ from: "2026-11-20" }, NOW)).toEqual({ from: "2026-11-20", to: "2026-11-24", days: 5 });
  });

  it("allows 366 days, not 367; refuses from after to", () => {
    expect(usageRange({ from: "2025-11-24", to: "2026-11-24" })).toMatchObject({ days: 366 });
    expect(usageRange({ from: "2025-11-23", to: "2026-11-24" })).toMatchObject({ field: "from", type: "range_too_long" });
    expect(usageRange({ from: "2026-11-25", to: "2026-11-24" })).toMatchObject({ field: "from", type: "date_order" });
  });
});

describe("UsageQuery", () => {
  it("accepts real dates and the five groupings; refuses impossible dates and other groupings", () => {
    expect(UsageQuery.safeParse({ from: "2026-11-01", to: "2026-11-24", group_by: "language_pair" }).success).toBe(true);
    for (const bad of [{ from: "2026-02-30" }, { to: "24/11/2026" }, { from: "2026-1-1" }, { group_by: "week" }]) {
      expect(UsageQuery.safeParse(bad).success).toBe(false);
    }
  });
});
