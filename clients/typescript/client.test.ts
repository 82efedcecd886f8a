import { describe, expect, it } from "vitest";
import { createLughaClient } from "./src/index";

/** The retry policy, against a scripted fetch (the same client against the running app: e2e/api/client.test.ts). */
function scripted(statuses: { status: number; retryAfter?: string }[]) {
  const seen: { url: string; auth: string | null; body: string }[] = [];
  const sleeps: number[] = [];
  const client = (maxRetries?: number, maxWaitSeconds?: number) =>
    createLughaClient({
      baseUrl: "http://lugha.test/",
      apiKey: "svc_0123456789abcdef0123456789abcdef01234567",
      maxRetries,
      maxWaitSeconds,
      fetch: async (request) => {
        seen.push({ url: request.url, auth: request.headers.get("authorization"), body: await request.text() });
        const next = statuses[Math.min(seen.length - 1, statuses.length - 1)];
        const body =
          next.status === 200 ? { translated_text: "ok" } : { detail: { code: next.status === 429 ? "RATE_LIMIT_EXCEEDED" : "PROVIDER_ERROR" } };
        return Response.json(body, { status: next.status, headers: next.retryAfter ? { "Retry-After": next.retryAfter } : {} });
      },
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
  const translate = (maxRetries?: number, maxWaitSeconds?: number) =>
    client(maxRetries, maxWaitSeconds).POST("/api/v1/translate", { body: { text: "Good morning", target_lang: "lug" } });
  return { seen, sleeps, translate };
}

describe("typed client: retries", () => {
  it("waits the Retry-After of a 429, then sends the same request again, body and key included", async () => {
    const s = scripted([{ status: 429, retryAfter: "7" }, { status: 200 }]);
    const { data, error } = await s.translate();
    expect(error).toBeUndefined();
    expect(data?.translated_text).toBe("ok");
    expect(s.sleeps).toEqual([7_000]);
    expect(s.seen).toHaveLength(2);
    expect(s.seen[1]).toEqual(s.seen[0]);
    expect(s.seen[0]).toMatchObject({ url: "http://lugha.test/api/v1/translate", auth: expect.stringMatching(/^Bearer svc_/) });
    expect(JSON.parse(s.seen[1].body)).toEqual({ text: "Good morning", target_lang: "lug" });
  });

  it("backs off 1 s, 2 s on a 503 without Retry-After, and returns the last answer when retries run out", async () => {
    const s = scripted([{ status: 503 }]);
    const { error, response } = await s.translate();
    expect(response.status).toBe(503);
    expect(error?.detail.code).toBe("PROVIDER_ERROR");
    expect(s.sleeps).toEqual([1_000, 2_000]);
    expect(s.seen).toHaveLength(3);
  });

  it("does not wait longer than maxWaitSeconds, and does not retry other errors", async () => {
    const long = scripted([{ status: 429, retryAfter: "3600" }]);
    expect((await long.translate(2, 30)).response.status).toBe(429);
    expect(long.sleeps).toEqual([]);
    const invalid = scripted([{ status: 422 }]);
    expect((await invalid.translate()).response.status).toBe(422);
    expect(invalid.seen).toHaveLength(1);
  });
});
