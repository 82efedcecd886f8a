import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, mintKey } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";

/**
 * Reads whose bytes change only between deploys (the OpenAPI document, the guide's Markdown) or with availability (the
 * key's language listing) carry a strong ETag and a Cache-Control that says who may keep them; a caller that already
 * holds the bytes gets 304 with no body (docs/deploy.md "Cacheable reads").
 */
let app: RunningApp;
let key: string;

beforeAll(async () => {
  app = await startApp();
  key = await mintKey(app.url, "cacheable reads");
});
afterAll(stopAllApps);

const READS = [
  {
    path: "/api/v1/openapi.json",
    auth: false,
    cacheControl: "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400",
    type: "application/json",
  },
  { path: "/docs/guide.md", auth: false, cacheControl: "public, max-age=300, s-maxage=3600, stale-while-revalidate=86400", type: "text/markdown" },
  { path: "/api/v1/languages", auth: true, cacheControl: "private, max-age=300", type: "application/json" },
];

describe.each(READS)("GET $path", ({ path, auth, cacheControl, type }) => {
  const get = (headers: Record<string, string> = {}) => call(app.url, "GET", path, { key: auth ? key : undefined, headers });

  it("200 with a strong ETag, the same for the same bytes, and who may keep it", async () => {
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toContain(type);
    expect(first.headers.get("cache-control")).toBe(cacheControl);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[^"]+"$/); // strong: no W/ prefix
    expect(first.text.length).toBeGreaterThan(10_000);
    const second = await get();
    expect(second.headers.get("etag")).toBe(etag);
    expect(second.text).toBe(first.text);
  });

  it("If-None-Match with the tag (or its weak form, or in a list): 304, no body, the same validator", async () => {
    const etag = (await get()).headers.get("etag")!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"stale", ${etag}`]) {
      const res = await get({ "if-none-match": ifNoneMatch });
      expect(res.status).toBe(304);
      expect(res.text).toBe("");
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("cache-control")).toBe(cacheControl);
    }
  });

  it("If-None-Match with another tag: the whole body again", async () => {
    const res = await get({ "if-none-match": '"an-older-deploy"' });
    expect(res.status).toBe(200);
    expect(res.text.length).toBeGreaterThan(10_000);
  });
});

describe("the guide's Markdown", () => {
  it("is docs/guide.md as written, headings and all", async () => {
    const res = await call(app.url, "GET", "/docs/guide.md");
    expect(res.text).toMatch(/^# /);
    expect(res.text).toContain("## ");
  });
});
