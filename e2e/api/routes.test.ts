import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowedMethods, bodyLimit, type Operation, operations, ROUTES, type RoutePath } from "@/lib/api/manifest";
import { OPENAPI_FILE } from "@/lib/api/openapi/contract-file";
import { openApiDocument } from "@/lib/api/openapi/document";
import { loadConfig } from "@/lib/config";
import { ERROR_STATUS, type ErrorCode } from "@/lib/kit/errors";
import { fillTemplate } from "@/lib/kit/path-template";
import { call, expectEnvelope, type JsonResponse, mintKey, rawCall } from "../support/api";
import { OPERATOR_HEADERS, type RunningApp, startApp, stopAllApps } from "../support/app";

/*
 * The tests every route gets, run over the route manifest (lib/api/manifest.ts): a route added there is covered here
 * without a line of its own. Per operation: authentication, the error envelope, the caller's request id kept, the
 * body limit; per path: 405 with Allow for every other method (TRACE and unknown methods included, over node:http
 * since fetch refuses to send them), and the CORS preflight. A path parameter (`{id}`) is sent as a well-formed UUID that
 * names nothing, so every check below happens before the handler would look it up. And per operation, no echo: every
 * failure path, fed input carrying a marker, answers without the marker in any body or header.
 */
let app: RunningApp;
let key: string;

beforeAll(async () => {
  // Budgets out of the way: the no-echo test sends many requests, many of them with bad keys, all from one address.
  const high = "100000/60s";
  app = await startApp({
    env: {
      RATE_LIMIT_TRANSLATE: high,
      RATE_LIMIT_BATCH: high,
      RATE_LIMIT_STT: high,
      RATE_LIMIT_TTS: high,
      RATE_LIMIT_DEFAULT: high,
      RATE_LIMIT_ISSUANCE: high,
      RATE_LIMIT_AUTH_FAILURES: high,
    },
  });
  key = await mintKey(app.url, "common route tests");
});
afterAll(stopAllApps);

const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"];
const SAMPLE_ID = "5f0c2a8e-1d2b-4c3d-8e9f-0a1b2c3d4e5f";
const paths = Object.keys(ROUTES) as RoutePath[];

describe.each(operations().map((o) => ({ ...o, name: `${o.method.toUpperCase()} ${o.path}` })))("$name", ({ method, path: template, operation }) => {
  const M = method.toUpperCase();
  const path = fillTemplate(template, SAMPLE_ID);

  if (operation.auth === "api_key" && operation.dialect) {
    it("refuses a request without a key in its protocol's shape, with the caller's X-Request-Id", async () => {
      const id = `trace.${operation.operationId}-0001`;
      const res = await call(app.url, M, path, { headers: { "x-request-id": id } });
      expectRefusal(res, operation, "MISSING_API_KEY");
      expect(res.headers.get("x-request-id")).toBe(id);
    });
  } else if (operation.auth === "api_key") {
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

  it("never echoes its input: the marker sent in credentials, path, query and body (malformed JSON, wrong types and values, bad multipart, oversized, wrong content type) is in no failing answer's body or headers", async () => {
    // An operation that reads nothing of the request (health, this document) must not reflect it even in a success.
    const readsInput = operation.auth === "api_key" || Boolean(operation.body || operation.multipart || operation.query || operation.params);
    let failures = 0;
    for (const attempt of echoAttempts(method, template, operation, key)) {
      const res = await call(app.url, M, attempt.path, { key: attempt.key, headers: attempt.headers, body: attempt.body });
      if (res.status < 400 && readsInput) continue; // a success may carry what was sent (a translation of the text): not an echo
      failures++;
      const answer = `${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${res.text}`.toLowerCase();
      for (const part of MARKER_PARTS) expect(answer.includes(part), `${attempt.what} → ${res.status}: ${answer.slice(0, 400)}`).toBe(false);
    }
    expect(failures).toBeGreaterThan(3);
  });

  const limit = bodyLimit(operation, loadConfig({}));
  if (limit !== undefined) {
    it(`refuses a body one byte over its limit (${limit} bytes) with 413 PAYLOAD_TOO_LARGE`, async () => {
      // A multipart route caps the uploaded file; a JSON route the body.
      const form = new FormData();
      form.set("language", "lug");
      form.set("audio", new Blob([new Uint8Array(limit + 1)]), "big.wav");
      const res = await call(app.url, M, path, {
        ...(operation.multipart
          ? { body: form, headers: keyHeader(operation, key) }
          : { body: `"${"a".repeat(limit)}`, headers: { ...keyHeader(operation, key), "content-type": "application/json" } }),
      });
      expectRefusal(res, operation, "PAYLOAD_TOO_LARGE");
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
      if (method !== "HEAD") expectRefusal(res, Object.values(ROUTES[template])[0] as Operation, "METHOD_NOT_ALLOWED");
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

describe("the contract", () => {
  it("the served document is the committed docs/openapi.json, and /health reports its version", async () => {
    const served = await call(app.url, "GET", "/api/v1/openapi.json");
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(readFileSync(OPENAPI_FILE, "utf8")));
    expect((await call(app.url, "GET", "/health")).body.version).toBe(served.body.info.version);
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

/**
 * The error envelope, or on another protocol's route (a dialect) that protocol's status for the code and its body's
 * shape (LibreTranslate {"error"}, DeepL {"message"}, OpenAI {"error": {message, type, param, code}}); the request id is
 * then in the header only.
 */
function expectRefusal(res: JsonResponse, operation: Operation, code: ErrorCode) {
  const { dialect } = operation;
  if (!dialect) return expectEnvelope(res, ERROR_STATUS[code], code);
  expect(res.status, res.text).toBe(dialect.status(code, ERROR_STATUS[code]));
  const shape = dialect.errorBody({ code, status: res.status, message: "", requestId: "" });
  expect(Object.keys(res.body ?? {}).sort(), res.text).toEqual(Object.keys(shape).sort());
  // A message, at the top (LibreTranslate, DeepL) or in the one object there (OpenAI's {"error": {message, ...}}).
  for (const value of Object.values(res.body)) {
    const message = typeof value === "object" && value !== null ? (value as { message?: unknown }).message : value;
    expect(typeof message === "string" && message.length > 0, res.text).toBe(true);
  }
  expect(res.headers.get("x-request-id")).toBeTruthy();
}

/**
 * The key in the header its protocol reads (checked before the body); LibreTranslate's key is a body field, read after
 * the body limit, so the header is ignored there.
 */
function keyHeader(operation: Operation, key: string): Record<string, string> {
  if (operation.auth !== "api_key") return {};
  return { authorization: operation.dialect?.name === "deepl" ? `DeepL-Auth-Key ${key}` : `Bearer ${key}` };
}

/** The marker; an answer must hold neither half of it, in any case (a truncated or case-folded echo is still one). */
const MARKER = "EchoCanaryQ7x";
const MARKER_PARTS = ["echocan", "canaryq7x"];

interface EchoAttempt {
  what: string;
  path: string;
  key?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
}

/** Request properties of a JSON or multipart body, as the served document lists them (the manifest's own schema). */
function bodyProperties(schema: string): string[] {
  const schemas = (openApiDocument() as { components: { schemas: Record<string, { properties?: object }> } }).components.schemas;
  return Object.keys(schemas[schema]?.properties ?? {});
}

/** Every way this operation can fail on input, each carrying the marker. */
function echoAttempts(method: string, template: RoutePath, operation: Operation, key: string): EchoAttempt[] {
  const path = fillTemplate(template, SAMPLE_ID);
  const out: EchoAttempt[] = [];
  const authenticated = operation.auth === "api_key" ? key : undefined;
  const json = { "content-type": "application/json" };
  // Every operation: those without authentication too (health reads an operator token from this header).
  for (const authorization of [`Bearer svc_${MARKER}`, `Bearer ${MARKER}`, `Basic ${MARKER}`, MARKER, `Bearer svc_${"a".repeat(40)}${MARKER}`])
    out.push({ what: `Authorization: ${authorization}`, path, headers: { authorization } });
  if (template.includes("{")) out.push({ what: "path parameter", path: fillTemplate(template, MARKER), key: authenticated });
  for (const name of Object.keys(operation.query?.shape ?? {})) {
    for (const value of [MARKER, `${MARKER},${MARKER}`, `2026-01-01${MARKER}`])
      out.push({ what: `query ${name}=${value}`, path: `${path}?${name}=${encodeURIComponent(value)}`, key: authenticated });
  }
  // (Never with the key on a DELETE: revoking the key the other tests use is not a failure path.)
  out.push({ what: "unknown query parameter", path: `${path}?${MARKER}=${MARKER}`, key: method === "delete" ? undefined : authenticated });

  if (operation.body) {
    const base = (Object.values(operation.body.examples ?? {})[0]?.value ?? {}) as Record<string, unknown>;
    const send = (what: string, body: BodyInit, headers: Record<string, string> = json) =>
      out.push({ what, path, key: authenticated, headers, body });
    // Malformed JSON: the marker before, at and after the point where parsing fails.
    for (const text of [
      `{"text": <${MARKER}`,
      `{"${MARKER}": }`,
      `${MARKER}`,
      `{"text": "${MARKER}"`,
      `{"text": "${MARKER}"} ${MARKER}`,
      `{"text": "${MARKER}\u0001"}`,
      `{"text": '${MARKER}'}`,
      `[${MARKER}]`,
      `{"text": "${MARKER}\\x"}`,
      `{"text": ${MARKER.repeat(3)}}`,
      `{\n\n  "text": "${MARKER}",\n  ${MARKER}\n}`,
    ])
      send(`malformed JSON ${text}`, text);
    send("not UTF-8", new Uint8Array([...new TextEncoder().encode(`{"text": "${MARKER}`), 0xff, 0xfe, 0x22, 0x7d]));
    send("nested too deep", `{"text": "${MARKER}", "x": ${"[".repeat(40)}"${MARKER}"${"]".repeat(40)}}`);
    send("a JSON array", JSON.stringify([MARKER]));
    send("a JSON string", JSON.stringify(MARKER));
    // Wrong types, wrong values, unknown fields: one field at a time over a valid request.
    for (const name of bodyProperties(operation.body.schema)) {
      for (const value of [
        MARKER,
        12345,
        true,
        [MARKER],
        { [MARKER]: MARKER },
        // A record's keys are the caller's: the marker as a key whose value is refused, and as a key too long to be one.
        { [MARKER]: 12345 },
        { [MARKER]: MARKER.repeat(100) },
        { [MARKER.repeat(200)]: "x" },
        MARKER.repeat(1200),
        [{ id: MARKER, text: MARKER, target_lang: MARKER, source: MARKER, target: MARKER }],
      ])
        send(`field ${name} = ${JSON.stringify(value).slice(0, 40)}`, JSON.stringify({ ...base, [name]: value }));
    }
    send("unknown field", JSON.stringify({ ...base, [MARKER]: MARKER }));
    // Not JSON, by its Content-Type.
    for (const type of ["text/plain", `application/${MARKER}`, `multipart/form-data; boundary=${MARKER}`])
      send(`Content-Type ${type}`, JSON.stringify({ ...base, text: MARKER }), { "content-type": type });
    send("no Content-Type", new Blob([JSON.stringify({ text: MARKER })]), {});
    const limit = bodyLimit(operation, loadConfig({}));
    if (limit !== undefined && limit <= 256 * 1024) send("oversized", `{"text": "${MARKER.repeat(Math.ceil(limit / MARKER.length) + 1)}"}`);
  }

  if (operation.multipart) {
    const sendForm = (what: string, body: BodyInit, headers?: Record<string, string>) => out.push({ what, path, key: authenticated, headers, body });
    const form = (fields: [string, string | Blob, string?][]) => {
      const f = new FormData();
      for (const [name, value, fileName] of fields) {
        if (typeof value === "string") f.append(name, value);
        else f.append(name, value, fileName);
      }
      return f;
    };
    const noise = new Blob([`RIFF${MARKER}WAVEfmt ${MARKER}`], { type: `audio/${MARKER}` });
    sendForm(
      "audio not audio, named by the marker",
      form([
        ["audio", noise, `${MARKER}.wav`],
        ["language", "lug"],
      ]),
    );
    sendForm(
      "language = marker",
      form([
        ["audio", noise, "a.wav"],
        ["language", MARKER],
      ]),
    );
    sendForm(
      "provider = marker",
      form([
        ["audio", noise, "a.wav"],
        ["language", "lug"],
        ["provider", MARKER],
      ]),
    );
    sendForm(
      "audio as text",
      form([
        ["audio", MARKER],
        ["language", MARKER],
      ]),
    );
    sendForm(
      "audio under the marker's name",
      form([
        [MARKER, noise, `${MARKER}.wav`],
        ["language", "lug"],
      ]),
    );
    sendForm(
      "fields twice",
      form([
        ["audio", noise, "a.wav"],
        ["audio", noise, `${MARKER}.mp3`],
        ["language", MARKER],
        ["language", MARKER],
      ]),
    );
    for (const name of bodyProperties(operation.multipart.schema).filter((n) => n !== "audio"))
      sendForm(
        `field ${name} = marker`,
        form([
          ["audio", noise, "a.wav"],
          ["language", "lug"],
          [name, MARKER.repeat(300)],
        ]),
      );
    sendForm("broken multipart", `--${MARKER}\r\nContent-Disposition: form-data; name="${MARKER}"\r\n\r\n${MARKER}`, {
      "content-type": `multipart/form-data; boundary=${MARKER}`,
    });
    sendForm("boundary missing", `--${MARKER}\r\n${MARKER}`, { "content-type": `multipart/form-data; charset=${MARKER}` });
    sendForm("JSON instead of a form", JSON.stringify({ audio: MARKER, language: MARKER }), { "content-type": "application/json" });
    sendForm("other Content-Type", MARKER, { "content-type": `audio/${MARKER}` });
  }
  return out;
}
