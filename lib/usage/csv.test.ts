import { describe, expect, it } from "vitest";
import { requestLogCsv, toCsv, usageCsv } from "./csv";

describe("CSV exports", () => {
  it("quotes fields with commas, quotes or line breaks, ends lines with CRLF, and defuses spreadsheet formulas", () => {
    expect(
      toCsv(
        ["a", "b"],
        [
          ["x,y", 'say "hi"'],
          ["=SUM(A1)", null],
          ["-1", 3],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n\'=SUM(A1),\r\n\'-1,3\r\n');
  });

  it("the usage table: a row per day with the counts", () => {
    const day = {
      day: "2026-11-25",
      requests: 3,
      errors: 1,
      characters: 12,
      cacheHits: 1,
      upstreamCalls: 2,
      byEndpoint: {},
      byOutcome: { "2xx": 2, "4xx": 1, "429": 0, "5xx": 0 },
    };
    expect(usageCsv([day])).toBe("day,requests,upstream_calls,errors,characters,cache_hits\r\n2026-11-25,3,2,1,12,1\r\n");
  });

  it("the request log: the API's fields, empty where null", () => {
    const row = {
      time: "2026-11-25T10:00:00.000Z",
      request_id: "req_1",
      endpoint: "POST /api/v1/translate",
      status: 200,
      latency_ms: 12,
      provider: "provider_a",
      model_used: "provider_a/sunflower",
      cache: "hit" as const,
      upstream_calls: 1,
    };
    expect(requestLogCsv([row, { ...row, status: 422, provider: null, model_used: null, cache: null, upstream_calls: 0 }]).split("\r\n")).toEqual([
      "time,request_id,endpoint,status,latency_ms,provider,model_used,cache,upstream_calls",
      "2026-11-25T10:00:00.000Z,req_1,POST /api/v1/translate,200,12,provider_a,provider_a/sunflower,hit,1",
      "2026-11-25T10:00:00.000Z,req_1,POST /api/v1/translate,422,12,,,,0",
      "",
    ]);
  });
});
