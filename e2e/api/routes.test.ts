import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowedMethods, bodyLimit, operations, ROUTES, type RoutePath } from "@/lib/api/manifest";
import { loadConfig } from "@/lib/config";
import { fillTemplate } from "@/lib/kit/path-template";
import { call, expectEnvelope, mintKey, rawCall } from "../support/api";
import { OPERATOR_HEADERS, type RunningApp, startApp, stopAllApps } from "../support/app";

/*
 * The tests every route gets, run over the route manifest (lib/http/manifest.ts): a route added there is covered here
 * without a line of its own. Per operation: authentication, the error envelope, the caller's request id kept, the
 * body limit; per path: 405 with Allow for every other method (TRACE and unknown methods included, over node:http
 * since fetch refuses to send them), and the CORS preflight. A path parameter (`{id}`) is sent as a well-formed UUID that
 * names nothing, so every check below happens before the handler would look it up.
 */
let app: RunningApp;
let key: string;

beforeAll(async () => {
  app = await startApp();
  key = await mintKey(app.url, "common route tests");
});
afterAll(stopAllApps);

const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"];
const SAMPLE_ID = "5f0c2a8e-1d2b-4c3d-8e9f-0a1b2c3d4e5f";
const paths = Object.keys(ROUTES) as RoutePath[];

describe.each(operations().map((o) => ({ ...o, name: `${o.method.toUpperCase()} ${o.path}` })))("$name", ({ method, path: template, operation }) => {
  const M = method.toUpperCase();
  const path = fillTemplate(template, SAMPLE_ID);

  if (operation.auth === "api_key") {
    it("refuses a request without a key (401 MISSING_API_KEY) and with an unknown key (401 INVALID_API_KEY), both with WWW-Authenticate", async () => {
      const missing = await call(app.url, M, path);
      expectEnvelope(missing, 401, "MISSING_API_KEY");
      expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="lugha"');
      const unknown = await call(app.url, M, path, { key: `svc_${"0".repeat(40)}` });
      expectEnvelope(unknown, 401, "INVALID_API_KEY");
      expect(unknown.headers.get("www-authenticate")).toBe('Bearer realm="lugha"');
    });

    it("keeps the caller's well-formed X-Request-Id in the header and in the error envelope", async () => {
      const id = `trace.${operation.operationId}-0001`;
      const res = await call(app.url, M, path, { headers: { "x-request-id": id } });
      expect(expectEnvelope(res, 401, "MISSING_API_KEY").request_id).toBe(id);
      expect(res.headers.get("x-request-id")).toBe(id);
      const minted = await call(app.url, M, path, { headers: { "x-request-id": "bad id with spaces" } });
      expect(minted.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
    });
  } else if (operation.auth === "operator") {
    it("refuses a request without the operator token (401 MISSING_API_KEY) and with another token (401 INVALID_API_KEY); answers with it", async () => {
      const id = `trace.${operation.operationId}-0001`;
      const missing = await call(app.url, M, path, { headers: { "x-request-id": id } });
      expect(expectEnvelope(missing, 401, "MISSING_API_KEY").request_id).toBe(id);
      expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="lugha"');
      expectEnvelope(await call(app.url, M, path, { key: `svc_${"0".repeat(40)}` }), 401, "INVALID_API_KEY");
      const operator = await call(app.url, M, path, { headers: { ...OPERATOR_HEADERS, "x-request-id": id } });
      expect(operator.status).toBe(200);
      expect(operator.headers.get("x-request-id")).toBe(id);
    });
  } else {
    it("needs no key, and keeps the caller's well-formed X-Request-Id", async () => {
      const id = `trace.${operation.operationId}-0001`;
      const res = await call(app.url, M, path, { headers: { "x-request-id": id }, ...(operation.body ? { body: "{" } : {}) });
      expect(res.status).not.toBe(401);
      expect(res.headers.get("x-request-id")).toBe(id);
      if (res.status >= 400) expect(expectEnvelope(res, res.status, res.body.detail.code).request_id).toBe(id);
    });
  }

  const limit = bodyLimit(operation, loadConfig({}));
  if (limit !== undefined) {
    it(`refuses a body one byte over its limit (${limit} bytes) with 413 PAYLOAD_TOO_LARGE`, async () => {
      // A multipart route caps the uploaded file; a JSON route the body.
      const form = new FormData();
      form.set("language", "lug");
      form.set("audio", new Blob([new Uint8Array(limit + 1)]), "big.wav");
      const res = await call(app.url, M, path, {
        key: operation.auth === "api_key" ? key : undefined,
        ...(operation.multipart ? { body: form } : { body: `"${"a".repeat(limit)}`, headers: { "content-type": "application/json" } }),
      });
      expectEnvelope(res, 413, "PAYLOAD_TOO_LARGE");
    });
  }
});

describe.each(paths)("%s", (template) => {
  const allow = allowedMethods(template);
  const path = fillTemplate(template, SAMPLE_ID);
  const answered = new Set(allow);

  it("answers every other method with 405 METHOD_NOT_ALLOWED and Allow, TRACE and unknown methods included", async () => {
    for (const method of [...OTHER_METHODS.filter((m) => !answered.has(m)), "TRACE", "PROPFIND", "BREW"]) {
      const res =
        method === "HEAD" || ["TRACE", "PROPFIND", "BREW"].includes(method)
          ? await rawCall(app.url, method, path)
          : await call(app.url, method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get("allow"), `${method} ${path}`).toBe(allow.join(", "));
      expect(res.headers.get("x-request-id"), `${method} ${path}`).toBeTruthy();
      if (method !== "HEAD") expectEnvelope(res, 405, "METHOD_NOT_ALLOWED");
    }
  });

  it("answers a CORS preflight with 204, Allow and the API's CORS headers", async () => {
    const res = await call(app.url, "OPTIONS", path, {
      headers: { origin: "https://example.org", "access-control-request-method": allow[0], "access-control-request-headers": "authorization" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe(allow.join(", "));
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
  });
});

describe("outside the manifest", () => {
  it("an unknown API path is 404 NOT_FOUND for every method; TRACE there and on a page is the 405 envelope, never a 500", async () => {
    for (const path of ["/api/v1/nothing", "/health/deep"]) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) expectEnvelope(await call(app.url, method, path), 404, "NOT_FOUND");
    }
    for (const path of ["/api/v1/nothing", "/", "/docs"]) {
      for (const method of ["TRACE", "BREW"]) {
        const res = await rawCall(app.url, method, path, { "x-request-id": "trace-on-a-page-1" });
        expect(expectEnvelope(res, 405, "METHOD_NOT_ALLOWED").request_id).toBe("trace-on-a-page-1");
        expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE");
      }
    }
    expect(app.logs()).not.toMatch(/HTTP method is unsupported|TypeError/);
  });
});
