import { readFileSync } from "node:fs";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { bodyLimit, operations, routeFor } from "@/lib/api/manifest";
import { config } from "@/lib/config";
import { IssuedKey, IssueKeyRequest, KeyDetails } from "@/lib/keys/schemas";
import { formatBytes } from "@/lib/kit/bytes";
import { ERROR_STATUS, type ErrorCode } from "@/lib/kit/errors";
import { templateParams } from "@/lib/kit/path-template";
import { LanguagesResponse } from "@/lib/languages/schemas";
import { SttForm, SttResponse, TtsRequest, TtsResponse } from "@/lib/speech/schemas";
import { BatchTranslateRequest, BatchTranslateResponse, TranslateRequest, TranslateResponse } from "@/lib/translate/schemas";
import packageJson from "@/package.json";
import { OPENAPI_FILE, openApiFileText } from "./contract-file";
import { openApiDocument, SPEC_ENDPOINTS } from "./document";
import { ERROR_DOCS } from "./errors";
import { ResponseContract } from "./response-contract";

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown>; requestBody?: unknown }>>;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; required?: string[]; example?: unknown }>;
    examples: Record<string, { value: unknown }>;
    securitySchemes: Record<string, unknown>;
  };
  info: { description: string };
};

const doc = () => structuredClone(openApiDocument()) as unknown as Doc;

describe("OpenAPI document", () => {
  it("is valid OpenAPI 3.0.3 (swagger-parser)", async () => {
    const d = doc();
    expect(d.openapi).toBe("3.0.3");
    await expect(SwaggerParser.validate(d as never)).resolves.toBeTruthy();
  });

  it("lists all eight endpoints of the contract, plus key revocation and itself", () => {
    const d = doc();
    for (const [method, path] of SPEC_ENDPOINTS) expect(d.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
    expect(SPEC_ENDPOINTS).toHaveLength(8);
    expect(d.paths["/api/v1/auth/keys/me"].delete).toBeDefined();
    expect(d.paths["/api/v1/openapi.json"].get).toBeDefined();
  });

  it("uses bearer authentication everywhere except key issuance, health and the document", () => {
    const d = doc() as Doc & { security: unknown[] };
    expect(d.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(d.security).toEqual([{ bearerAuth: [] }]);
    expect(d.paths["/api/v1/auth/keys"].post.security).toEqual([]);
    expect(d.paths["/health"].get.security).toEqual([]);
    expect(d.paths["/api/v1/translate"].post.security).toBeUndefined();
    expect(d.paths["/api/v1/translate"].post.responses["401"]).toBeDefined();
  });

  it("documents every error code with an example body, and the status each one has", () => {
    const d = doc();
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      const ex = d.components.examples[code]?.value as { detail: { code: string } } | undefined;
      expect(ex?.detail.code, code).toBe(code);
      expect(d.info.description).toContain(`| ${status} | \`${code}\` |`);
    }
    const translate = d.paths["/api/v1/translate"].post.responses as Record<
      string,
      { content: { "application/json": { examples: Record<string, unknown> } } }
    >;
    expect(Object.keys(translate["422"].content["application/json"].examples)).toEqual(
      expect.arrayContaining(["VALIDATION_ERROR", "UNSUPPORTED_LANGUAGE", "TEXT_TOO_LONG", "SAME_LANGUAGE", "PROVIDER_UNSUPPORTED_PAIR"]),
    );
    expect(Object.keys(translate["503"].content["application/json"].examples)).toContain("PROVIDER_ERROR");
    expect(Object.keys(translate["429"].content["application/json"].examples)).toEqual(["RATE_LIMIT_EXCEEDED"]);
  });

  it("takes every error example from the code that builds the refusal: the code's own, never quoting the value sent", () => {
    const d = doc();
    for (const code of Object.keys(ERROR_STATUS) as (keyof typeof ERROR_STATUS)[]) {
      const built = ERROR_DOCS[code].example();
      expect(built.code, code).toBe(code);
      const ex = d.components.examples[code].value as { detail: { message: string; errors?: unknown } };
      expect(ex.detail.message, code).toBe(built.message);
      expect(ex.detail.errors, code).toEqual(built.options.errors);
    }
    // The inputs of the examples (a code "xx", a JSON text, a voice) appear in no message: the builders never quote them.
    const messages = JSON.stringify(d.components.examples);
    expect(messages).not.toMatch(/"xx"|\\"xx\\"|Good morning|lug\}/);
    expect(ERROR_DOCS.INVALID_JSON.example().message).toMatch(/position \d+ \(line 1, column \d+\)/);
  });

  it("info.version is semantic versioning whose major is the path's /api/vN, the version /health reports", () => {
    const d = doc() as Doc & { info: { version: string } };
    const version = /^(\d+)\.(\d+)\.(\d+)$/.exec(d.info.version);
    expect(version, d.info.version).not.toBeNull();
    for (const path of Object.keys(d.paths).filter((p) => p.startsWith("/api/"))) expect(path).toMatch(new RegExp(`^/api/v${version![1]}/`));
    expect(d.info.version).toBe(packageJson.version);
    const health = d.components.schemas.HealthResponse as { examples?: { version: string }[]; example?: { version: string } };
    expect(JSON.stringify(health)).toContain(`"version":"${d.info.version}"`);
  });

  it("is the committed contract: docs/openapi.json is this document (run `npm run openapi:write` after changing the API)", () => {
    // The document the code makes now, its component schemas computed from the zod schemas…
    expect(readFileSync(OPENAPI_FILE, "utf8") === openApiFileText()).toBe(true);
    // …and the one served, which reads its component schemas from the file.
    expect(readFileSync(OPENAPI_FILE, "utf8") === openApiFileText(openApiDocument())).toBe(true);
  });

  it("CHANGELOG.md names the current version as its latest release", () => {
    const changelog = readFileSync(new URL("../../../CHANGELOG.md", import.meta.url), "utf8");
    const releases = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/gm)].map((m) => m[1]);
    expect(releases[0]).toBe((doc() as unknown as { info: { version: string } }).info.version);
  });

  it("is generated from the handlers' zod schemas: same fields, same required fields", () => {
    const d = doc();
    const pairs: [string, z.ZodObject][] = [
      ["TranslateRequest", TranslateRequest as unknown as z.ZodObject],
      ["TranslateResponse", TranslateResponse as unknown as z.ZodObject],
      ["BatchTranslateRequest", BatchTranslateRequest as unknown as z.ZodObject],
      ["BatchTranslateResponse", BatchTranslateResponse as unknown as z.ZodObject],
      ["IssueKeyRequest", IssueKeyRequest as unknown as z.ZodObject],
      ["IssuedKey", IssuedKey as unknown as z.ZodObject],
      ["KeyDetails", KeyDetails as unknown as z.ZodObject],
      ["LanguagesResponse", LanguagesResponse as unknown as z.ZodObject],
      ["SttForm", SttForm as unknown as z.ZodObject],
      ["SttResponse", SttResponse as unknown as z.ZodObject],
      ["TtsRequest", TtsRequest as unknown as z.ZodObject],
      ["TtsResponse", TtsResponse as unknown as z.ZodObject],
    ];
    for (const [name, schema] of pairs) {
      const documented = d.components.schemas[name];
      expect(Object.keys(documented.properties ?? {}).sort(), name).toEqual(Object.keys(schema.shape).sort());
      const required = Object.entries(schema.shape)
        .filter(([, s]) => !(s as z.ZodType).safeParse(undefined).success)
        .map(([k]) => k);
      expect((documented.required ?? []).sort(), `${name} required`).toEqual(required.sort());
    }
    // The contract's fields are all there.
    expect(d.components.schemas.TranslateResponse.required).toEqual(
      expect.arrayContaining([
        "translated_text",
        "detected_source_lang",
        "target_lang",
        "model_used",
        "provider",
        "quality_score",
        "latency_ms",
        "characters_translated",
      ]),
    );
    expect(d.components.schemas.IssuedKey.required).toEqual(expect.arrayContaining(["api_key", "name", "created_at", "expires_at"]));
    expect(d.components.schemas.KeyDetails.required).toEqual(expect.arrayContaining(["name", "created_at", "expires_at", "requests_total"]));
    expect(d.components.schemas.BatchItemResult.required).toEqual(
      expect.arrayContaining(["id", "translated_text", "detected_source_lang", "target_lang", "model_used", "provider", "quality_score", "error"]),
    );
    expect(d.components.schemas.BatchTranslateResponse.required).toEqual(
      expect.arrayContaining(["results", "total", "succeeded", "failed", "total_latency_ms"]),
    );
  });

  it("has examples that the handlers' own schemas accept", () => {
    const s = doc().components.schemas;
    expect(TranslateRequest.safeParse(s.TranslateRequest.example).success).toBe(true);
    expect(TranslateResponse.safeParse(s.TranslateResponse.example).success).toBe(true);
    expect(BatchTranslateRequest.safeParse(s.BatchTranslateRequest.example).success).toBe(true);
    expect(BatchTranslateResponse.safeParse(s.BatchTranslateResponse.example).success).toBe(true);
    expect(IssueKeyRequest.safeParse(s.IssueKeyRequest.example).success).toBe(true);
    expect(IssuedKey.safeParse(s.IssuedKey.example).success).toBe(true);
    expect(KeyDetails.safeParse(s.KeyDetails.example).success).toBe(true);
    expect(LanguagesResponse.safeParse(s.LanguagesResponse.example).success).toBe(true);
    expect(TtsRequest.safeParse(s.TtsRequest.example).success).toBe(true);
    expect(TtsResponse.safeParse(s.TtsResponse.example).success).toBe(true);
    expect(SttResponse.safeParse(s.SttResponse.example).success).toBe(true);
  });

  it("states the key-name rules zod checks in code", () => {
    const name = doc().components.schemas.IssueKeyRequest.properties!.name as { minLength: number; maxLength: number };
    expect(name).toMatchObject({ minLength: 1, maxLength: 100 });
  });
});

describe("responses checked against the document (ResponseContract, as the API tests do)", () => {
  const contract = new ResponseContract(openApiDocument() as never);
  const json = (method: string, path: string, status: number, body: unknown) =>
    contract.check({ method, path, status, contentType: "application/json; charset=utf-8", text: JSON.stringify(body) });

  it("accepts a batch whose failed item has null provider and error_code (nullable enums list null)", () => {
    const example = doc().components.schemas.BatchTranslateResponse.example as { results: { provider: unknown; error_code: unknown }[] };
    expect(example.results.some((r) => r.provider === null && r.error_code !== null)).toBe(true);
    expect(json("POST", "/api/v1/translate/batch", 200, example)).toEqual({ result: "validated" });
    const enums = doc().components.schemas.BatchItemResult.properties as Record<string, { enum?: unknown[]; nullable?: boolean }>;
    expect(enums.provider).toMatchObject({ nullable: true, enum: expect.arrayContaining([null, "provider_a"]) });
    expect(enums.error_code).toMatchObject({ nullable: true, enum: expect.arrayContaining([null, "PROVIDER_ERROR"]) });
  });

  it("refuses a body that breaks the schema, an undocumented status and an error code the operation does not answer", () => {
    const example = doc().components.schemas.BatchTranslateResponse.example as { results: object[] };
    const broken = { ...example, results: [{ ...example.results[0], provider: "provider_z" }] };
    expect(json("POST", "/api/v1/translate/batch", 200, broken).result).toBe("mismatch");
    expect(json("POST", "/api/v1/translate", 418, {}).result).toBe("mismatch");
    const envelope = (code: string) => ({ detail: { code, message: "m", request_id: "req_1" } });
    expect(json("POST", "/api/v1/auth/keys", 401, envelope("MISSING_API_KEY")).result).toBe("mismatch");
    expect(json("POST", "/api/v1/translate", 401, envelope("MISSING_API_KEY"))).toEqual({ result: "validated" });
    expect(json("POST", "/api/v1/translate", 422, envelope("BATCH_TOO_LARGE")).result).toBe("mismatch");
  });

  it("expects 405 METHOD_NOT_ALLOWED for an undeclared method and 404 NOT_FOUND for an unknown path", () => {
    const envelope = (code: string) => ({ detail: { code, message: "m", request_id: "req_1" } });
    expect(json("TRACE", "/api/v1/translate", 405, envelope("METHOD_NOT_ALLOWED"))).toEqual({ result: "validated" });
    expect(json("GET", "/api/v1/translate", 500, envelope("INTERNAL_ERROR")).result).toBe("mismatch");
    expect(json("GET", "/api/v1/nothing", 404, envelope("NOT_FOUND"))).toEqual({ result: "validated" });
    expect(json("GET", "/dashboard", 200, "<html>")).toEqual({ result: "out_of_scope" });
  });

  it("finds a concrete path's templated operation (/api/v1/glossaries/<id> → /api/v1/glossaries/{id}) and its success status", () => {
    const envelope = (code: string) => ({ detail: { code, message: "m", request_id: "req_1" } });
    const id = "5f0c2a8e-1d2b-4c3d-8e9f-0a1b2c3d4e5f";
    const glossary = { id, name: null, source_lang: "en", target_lang: "sw", entry_count: 1, created_at: "2026-11-24T12:00:00.000Z" };
    const withEntries = { ...glossary, entries: [{ source: "clinic", target: "kliniki" }] };
    expect(json("GET", `/api/v1/glossaries/${id}`, 200, withEntries)).toEqual({ result: "validated" });
    expect(json("GET", `/api/v1/glossaries/${id}`, 200, glossary).result).toBe("mismatch"); // entries missing
    expect(json("DELETE", "/api/v1/glossaries/not-a-uuid", 404, envelope("NOT_FOUND"))).toEqual({ result: "validated" });
    expect(json("PUT", `/api/v1/glossaries/${id}`, 405, envelope("METHOD_NOT_ALLOWED"))).toEqual({ result: "validated" });
    expect(json("GET", `/api/v1/glossaries/${id}/entries`, 404, envelope("NOT_FOUND"))).toEqual({ result: "validated" });
    expect(json("POST", "/api/v1/glossaries", 201, withEntries)).toEqual({ result: "validated" });
    expect(json("POST", "/api/v1/glossaries", 200, withEntries).result).toBe("mismatch"); // created is 201, not 200
  });
});

describe("the document is assembled from the route manifest", () => {
  it("has exactly the manifest's operations, with the errors the wrapper answers for each", () => {
    const d = doc();
    const documented = Object.entries(d.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`));
    expect(documented.sort()).toEqual(
      operations()
        .map(({ method, path }) => `${method} ${path}`)
        .sort(),
    );
    for (const { method, path, operation } of operations()) {
      const responses = d.paths[path][method].responses;
      const name = `${method} ${path}`;
      // Another protocol's operation answers each refusal with that protocol's status (LibreTranslate: 403 for a bad key).
      const statusOf = (code: ErrorCode) => String(operation.dialect?.status(code, ERROR_STATUS[code]) ?? ERROR_STATUS[code]);
      expect(statusOf("INVALID_API_KEY") in responses, name).toBe(operation.auth !== "none");
      expect("413" in responses, name).toBe(Boolean(operation.body || operation.multipart));
      // A rate limit, or the failed-authentication throttle of every authenticated operation.
      expect("429" in responses, name).toBe(Boolean(operation.rateLimit) || operation.auth === "api_key");
      const tooMany = responses["429"] as { headers: Record<string, unknown> } | undefined;
      if (tooMany && operation.auth === "api_key")
        expect(Object.keys(tooMany.headers).sort(), name).toEqual(
          ["Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id"].sort(),
        );
      expect("500" in responses, name).toBe(true);
      const limit = bodyLimit(operation, config());
      if (limit !== undefined) expect(JSON.stringify(responses["413"]), name).toContain(formatBytes(limit));
      // The success answer under its declared status only.
      const success = String(operation.ok.status ?? 200);
      expect(
        Object.keys(responses).filter((s) => s.startsWith("2")),
        name,
      ).toEqual([success]);
      // One required path parameter per `{name}` of the path, and the path routes to itself.
      const { parameters = [] } = d.paths[path][method] as { parameters?: { name: string; in: string; required: boolean }[] };
      expect(
        parameters.filter((p) => p.in === "path"),
        name,
      ).toEqual(templateParams(path).map((param) => expect.objectContaining({ name: param, in: "path", required: true })));
      expect(routeFor(path), name).toBe(path);
    }
  });

  it("documents the glossary id as a path parameter and the create's 201 with Location", () => {
    const d = doc() as unknown as {
      paths: Record<string, Record<string, { parameters?: unknown[]; responses: Record<string, { headers?: object }> }>>;
    };
    const item = d.paths["/api/v1/glossaries/{id}"];
    for (const method of ["get", "delete"])
      expect(item[method].parameters).toEqual([
        expect.objectContaining({ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }),
      ]);
    expect(d.paths["/api/v1/glossaries"].post.responses["201"].headers).toHaveProperty("Location");
    expect(JSON.stringify(d.paths["/api/v1/glossaries"].post.responses["413"])).toContain("256 kB");
  });
});
