import { DriverAdapterError } from "@prisma/driver-adapter-utils";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { PrismaClientKnownRequestError } from "@/lib/generated/prisma/internal/prismaNamespace";
import { readBodyLimited } from "@/lib/kit/body";
import { ApiError } from "@/lib/kit/errors";
import { processLog } from "@/lib/kit/log";
import { apiRoute, errorResponse } from "./route";

describe("errorResponse", () => {
  it("turns an unexpected error into a 500 INTERNAL_ERROR without internals", async () => {
    const res = errorResponse(new TypeError("Cannot read properties of undefined (reading 'secretThing') at /srv/app.js:12"), "req_test");
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({ detail: { code: "INTERNAL_ERROR", message: expect.any(String), request_id: "req_test" } });
    expect(JSON.stringify(body)).not.toMatch(/secretThing|app\.js|TypeError/);
    expect(res.headers.get("x-request-id")).toBe("req_test");
  });

  it("maps ApiError codes to their statuses and keeps field errors", async () => {
    const res = errorResponse(new ApiError("VALIDATION_ERROR", "bad", { errors: [{ loc: ["body", "x"], msg: "m", type: "t" }] }), "req_x");
    expect(res.status).toBe(422);
    expect((await res.json()).detail.errors).toEqual([{ loc: ["body", "x"], msg: "m", type: "t" }]);
  });

  it("answers 503 SERVICE_UNAVAILABLE with Retry-After when the database is unreachable", async () => {
    const err = Object.assign(new Error("connect failed"), {
      cause: Object.assign(new Error("connect ECONNREFUSED 10.0.0.1:5432"), { code: "ECONNREFUSED" }),
    });
    const res = errorResponse(err, "req_db");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    const text = await res.text();
    expect(text).toContain("SERVICE_UNAVAILABLE");
    expect(text).not.toContain("10.0.0.1");
  });
});

describe("isDatabaseUnavailable", () => {
  it("recognises connectivity failures through wrapping and ignores ordinary errors", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Can't reach database server at `db`"))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([Object.assign(new Error("a"), { code: "ECONNREFUSED" })]))).toBe(true);
    expect(isDatabaseUnavailable(new Error("duplicate key value violates unique constraint"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("undefined is not a function"))).toBe(false);
  });

  it("reads a raw query's driver error where Prisma puts it (meta.driverAdapterError), as a restarted server produces", () => {
    // What `prisma.$queryRaw` throws when PostgreSQL closed the pooled connection (seen while the server restarted).
    const rawQueryError = (cause: ConstructorParameters<typeof DriverAdapterError>[0]) =>
      new PrismaClientKnownRequestError("Raw query failed. Code: `N/A`. Message: `N/A`", {
        code: "P2010",
        clientVersion: "7",
        meta: { driverAdapterError: new DriverAdapterError(cause) },
      });
    expect(isDatabaseUnavailable(rawQueryError({ kind: "ConnectionClosed" }))).toBe(true);
    expect(
      isDatabaseUnavailable(rawQueryError({ kind: "postgres", code: "57P01", originalCode: "57P01", severity: "FATAL", message: "x" } as never)),
    ).toBe(true);
    expect(isDatabaseUnavailable(rawQueryError({ kind: "UniqueConstraintViolation", constraint: { fields: ["id"] } }))).toBe(false);
    expect(
      isDatabaseUnavailable(rawQueryError({ kind: "postgres", code: "42P01", originalCode: "42P01", severity: "ERROR", message: "x" } as never)),
    ).toBe(false);
  });
});

describe("apiRoute without authentication", () => {
  const route = apiRoute({
    auth: "none",
    body: z.object({ n: z.number().int() }),
    maxBodyBytes: 100,
    handler: async ({ body, requestId }) => ({ doubled: body.n * 2, requestId }),
  });
  const post = (body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
    route(new Request("http://x/api", { method: "POST", body, headers }));

  it("validates and answers with X-Request-Id, honouring a well-formed incoming id", async () => {
    const res = await route(
      new Request("http://x/api", {
        method: "POST",
        body: '{"n":21}',
        headers: { "content-type": "application/json", "x-request-id": "trace-12345678" },
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ doubled: 42, requestId: "trace-12345678" });
    expect(res.headers.get("x-request-id")).toBe("trace-12345678");
  });

  it("replaces a hostile incoming request id", async () => {
    const res = await route(
      new Request("http://x/api", {
        method: "POST",
        body: '{"n":1}',
        headers: { "content-type": "application/json", "x-request-id": "a b<script>" },
      }),
    );
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it("refuses a body over the limit while reading, even without Content-Length", async () => {
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(`{"n":${"1".repeat(200)}}`));
        c.close();
      },
    });
    const res = await route(
      new Request("http://x/api", { method: "POST", body: stream, headers: { "content-type": "application/json" }, duplex: "half" } as RequestInit),
    );
    expect(res.status).toBe(413);
  });

  it("a body cut off mid-upload (the stream errors) is 422 body_incomplete, not a logged 500", async () => {
    const errors: unknown[] = [];
    const spy = vi.spyOn(processLog(), "error").mockImplementation((...args) => void errors.push(args));
    try {
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"n":'));
        },
        pull(c) {
          c.error(new Error("aborted: client disconnected"));
        },
      });
      const res = await route(
        new Request("http://x/api", { method: "POST", body: stream, headers: { "content-type": "application/json" }, duplex: "half" } as RequestInit),
      );
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(body.detail).toMatchObject({ code: "VALIDATION_ERROR", message: "The request body could not be read completely." });
      expect(body.detail.errors).toEqual([{ loc: ["body"], msg: "Request body was cut off", type: "body_incomplete" }]);
      expect(errors).toEqual([]); // the client's fault: nothing logged as an unhandled error
    } finally {
      spy.mockRestore();
    }
  });

  it("readBodyLimited: a stream that errors mid-way → VALIDATION_ERROR; the size limit still wins when it is reached first", async () => {
    const erroring = (before: number) =>
      new Request("http://x/upload", {
        method: "POST",
        duplex: "half",
        body: new ReadableStream<Uint8Array>({
          pulls: 0,
          pull(c) {
            // first read: `before` bytes arrive; second read: the connection is gone
            if (this.pulls++ === 0) c.enqueue(new Uint8Array(before));
            else c.error(new TypeError("terminated"));
          },
        } as UnderlyingDefaultSource<Uint8Array> & { pulls: number }),
      } as RequestInit);
    const cut = await readBodyLimited(erroring(10), 100).catch((e: unknown) => e);
    expect(cut).toBeInstanceOf(ApiError);
    expect(cut).toMatchObject({
      code: "VALIDATION_ERROR",
      status: 422,
      options: { errors: [{ loc: ["body"], msg: "Request body was cut off", type: "body_incomplete" }] },
    });
    expect(await readBodyLimited(erroring(200), 100).catch((e: unknown) => e)).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });

  it("locates validation problems without echoing input", async () => {
    const res = await post('{"n":"secret-value"}');
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.detail.errors).toEqual([{ loc: ["body", "n"], msg: expect.any(String), type: "number_type" }]);
    expect(JSON.stringify(body)).not.toContain("secret-value");
  });
});

describe("apiRoute: success status and path parameters", () => {
  const created = apiRoute({
    auth: "none",
    ok: { status: 201, description: "created" },
    handler: async ({ params }) => ({ id: params.id }),
  });
  const context = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

  it("answers a plain result with the declared success status, and hands the handler Next's path parameters", async () => {
    const res = await created(new Request("http://x/api/things/abc", { method: "POST" }), context({ id: "abc" }));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ id: "abc" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("keeps the status of a Response the handler built", async () => {
    const accepted = apiRoute({
      auth: "none",
      ok: { status: 201, description: "created" },
      handler: async () => Response.json({}, { status: 200, headers: { Location: "/api/things/1" } }),
    });
    const res = await accepted(new Request("http://x/api/things", { method: "POST" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("location")).toBe("/api/things/1");
  });

  it("gives a route without dynamic segments empty params, and a route without `ok.status` 200", async () => {
    const plain = apiRoute({ auth: "none", handler: async ({ params }) => ({ params }) });
    const res = await plain(new Request("http://x/api/plain"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ params: {} });
  });
});
