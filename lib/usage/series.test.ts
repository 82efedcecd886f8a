import { describe, expect, it } from "vitest";
import { daysOf } from "./read";
import { buildSeries, outcomeOf } from "./series";

describe("dashboard series", () => {
  it("fills every day of the range, oldest first", () => {
    const days = daysOf({ from: "2026-10-23", to: "2026-11-21" });
    expect(days).toHaveLength(30);
    expect(days[0]).toBe("2026-10-23");
    expect(days[29]).toBe("2026-11-21");
  });

  it("splits each day's requests by endpoint and by outcome; endpoints busiest first", () => {
    const row = (endpoint: string, status: number, requests: number, extra = {}) => ({
      day: "2026-11-24",
      endpoint,
      status,
      requests,
      characters: 0,
      cacheHits: 0,
      errors: status >= 400 ? requests : 0,
      upstreamCalls: 0,
      ...extra,
    });
    const { days, endpoints } = buildSeries(
      [
        row("POST /api/v1/translate", 200, 5, { characters: 40, cacheHits: 2 }),
        row("POST /api/v1/translate", 429, 2),
        row("POST /api/v1/speech/tts", 200, 6),
        row("POST /api/v1/speech/tts", 503, 1),
        row("GET /api/v1/languages", 304, 1),
        row("POST /api/v1/detect", 422, 1),
      ],
      ["2026-11-23", "2026-11-24"],
    );
    expect(endpoints).toEqual(["POST /api/v1/speech/tts", "POST /api/v1/translate", "GET /api/v1/languages", "POST /api/v1/detect"]);
    expect(days[0]).toMatchObject({ day: "2026-11-23", requests: 0, byEndpoint: {} });
    expect(days[1]).toEqual({
      day: "2026-11-24",
      requests: 16,
      characters: 40,
      cacheHits: 2,
      errors: 4,
      upstreamCalls: 0,
      byEndpoint: { "POST /api/v1/translate": 7, "POST /api/v1/speech/tts": 7, "GET /api/v1/languages": 1, "POST /api/v1/detect": 1 },
      byOutcome: { "2xx": 12, "4xx": 1, "429": 2, "5xx": 1 },
    });
    expect([200, 304, 404, 429, 500].map(outcomeOf)).toEqual(["2xx", "2xx", "4xx", "429", "5xx"]);
  });
});
