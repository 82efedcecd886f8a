import { describe, expect, it } from "vitest";
import { conditionalResponse, fixedBody, ifNoneMatchHits } from "./validator";

describe("conditional GET", () => {
  const body = fixedBody('{"a":1}');

  it("a strong tag over the bytes: equal bytes, equal tag; other bytes, another tag", () => {
    expect(body.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(fixedBody('{"a":1}').etag).toBe(body.etag);
    expect(fixedBody('{"a":2}').etag).not.toBe(body.etag);
  });

  it("If-None-Match: the tag, its weak form, one of a list, or * hit; anything else misses", () => {
    expect(ifNoneMatchHits(body.etag, body.etag)).toBe(true);
    expect(ifNoneMatchHits(`W/${body.etag}`, body.etag)).toBe(true);
    expect(ifNoneMatchHits(`"x", ${body.etag}`, body.etag)).toBe(true);
    expect(ifNoneMatchHits("*", body.etag)).toBe(true);
    expect(ifNoneMatchHits(null, body.etag)).toBe(false);
    expect(ifNoneMatchHits('"x"', body.etag)).toBe(false);
    expect(ifNoneMatchHits(body.etag.slice(1), body.etag)).toBe(false);
  });

  it("304 with no body and the same headers when the caller holds the bytes; else 200 with them", async () => {
    const headers = { "Content-Type": "application/json", "Cache-Control": "public, max-age=1" };
    const hit = conditionalResponse(new Request("http://x/", { headers: { "if-none-match": body.etag } }), body, headers);
    expect(hit.status).toBe(304);
    expect(hit.body).toBeNull();
    expect(hit.headers.get("etag")).toBe(body.etag);
    expect(hit.headers.get("cache-control")).toBe("public, max-age=1");
    const miss = conditionalResponse(new Request("http://x/"), body, headers);
    expect(miss.status).toBe(200);
    expect(miss.headers.get("etag")).toBe(body.etag);
    expect(await miss.text()).toBe('{"a":1}');
    // The bytes are shared, never consumed: a second response reads them whole again.
    expect(await conditionalResponse(new Request("http://x/"), body, headers).text()).toBe('{"a":1}');
  });
});
