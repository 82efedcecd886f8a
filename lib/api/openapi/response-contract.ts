/**
 * Checks a response the API gave against the OpenAPI document: the status is documented for the operation, the media
 * type is one it lists, the body validates against its schema (ajv, every error), and an error's code is one the
 * document names for that operation and status. For tests only (ajv is a devDependency): never imported by runtime code.
 */
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { DISPATCHED_METHODS } from "@/lib/api/socket-address";
import { matchTemplate } from "@/lib/kit/path-template";

export interface ObservedResponse {
  method: string;
  /** Path with or without a query string. */
  path: string;
  status: number;
  contentType: string | null;
  /** The body as received (empty string for none). */
  text: string;
}

/** "validated": checked against the document; "out_of_scope": not an API path (pages, next-auth) or a CORS preflight. */
export type Verdict = { result: "validated" } | { result: "out_of_scope" } | { result: "mismatch"; problem: string };

type MediaType = { schema?: Record<string, unknown>; examples?: Record<string, unknown> };
type ResponseObject = { content?: Record<string, MediaType> };
type OperationObject = { responses: Record<string, ResponseObject> };
type Document = { paths: Record<string, Record<string, OperationObject>> };

const DOC_ID = "openapi.json";
const DISPATCHED = DISPATCHED_METHODS.map((m) => m.toLowerCase());

/** JSON Pointer escaping of one path segment. */
const pointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

export class ResponseContract {
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Document) {
    // strict: false — OpenAPI 3.0 Schema Objects carry keywords JSON Schema does not know (example, xml, …).
    // ajv implements OpenAPI's `nullable` itself.
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(doc as object, DOC_ID);
  }

  check(observed: ObservedResponse): Verdict {
    const method = observed.method.toLowerCase();
    const pathname = observed.path.split("?")[0];
    if (!isApiPath(pathname) || method === "options") return { result: "out_of_scope" };
    const mismatch = (problem: string): Verdict => ({
      result: "mismatch",
      problem: `${observed.method} ${observed.path} → ${observed.status}: ${problem}`,
    });

    // "/api/v1/glossaries/<id>" is documented under "/api/v1/glossaries/{id}".
    const documentedPath = matchTemplate(Object.keys(this.doc.paths), pathname);
    // A method the server does not dispatch at all (TRACE) is 405 everywhere; any other on an unknown path is 404.
    if (documentedPath === undefined && !DISPATCHED.includes(method)) return this.expectError(observed, 405, "METHOD_NOT_ALLOWED", mismatch);
    if (documentedPath === undefined) return this.expectError(observed, 404, "NOT_FOUND", mismatch);
    const item = this.doc.paths[documentedPath];
    const documentedMethod = method === "head" && !item.head ? "get" : method;
    const operation = item[documentedMethod];
    if (!operation) return this.expectError(observed, 405, "METHOD_NOT_ALLOWED", mismatch);

    const response = operation.responses[String(observed.status)];
    if (!response) return mismatch(`status ${observed.status} is not documented for ${documentedMethod.toUpperCase()} ${documentedPath}`);
    if (method === "head" || !response.content) {
      return observed.text === "" ? { result: "validated" } : mismatch("a body where the document describes none");
    }
    const mediaType = (observed.contentType ?? "").split(";")[0].trim().toLowerCase();
    const media = response.content[mediaType];
    if (!media) return mismatch(`Content-Type ${mediaType || "(none)"} is not one of ${Object.keys(response.content).join(", ")}`);
    if (mediaType !== "application/json") return { result: "validated" }; // binary audio: the media type is the contract
    let body: unknown;
    try {
      body = JSON.parse(observed.text);
    } catch {
      return mismatch("the body is not JSON");
    }
    const at = `#/paths/${pointer(documentedPath)}/${documentedMethod}/responses/${observed.status}/content/${pointer(mediaType)}/schema`;
    const validate = this.validator(at);
    if (!validate(body)) return mismatch(this.ajv.errorsText(validate.errors, { dataVar: "body" }));
    const code = (body as { detail?: { code?: unknown } }).detail?.code;
    if (observed.status >= 400 && media.examples && typeof code === "string" && !(code in media.examples)) {
      return mismatch(`error code ${code} is not documented for this status (documented: ${Object.keys(media.examples).join(", ")})`);
    }
    return { result: "validated" };
  }

  /** An answer outside the operations (unknown path, undeclared method): the error envelope with that code. */
  private expectError(observed: ObservedResponse, status: number, code: string, mismatch: (p: string) => Verdict): Verdict {
    if (observed.status !== status) return mismatch(`expected ${status} ${code} (no such operation in the document)`);
    // Another protocol's surface answers in its own shape, which the compatibility tests check.
    if (observed.method.toUpperCase() === "HEAD" || observed.path.startsWith("/compat/")) return { result: "validated" };
    let body: unknown;
    try {
      body = JSON.parse(observed.text);
    } catch {
      return mismatch("the body is not JSON");
    }
    const validate = this.validator("#/components/schemas/ErrorBody");
    if (!validate(body)) return mismatch(this.ajv.errorsText(validate.errors, { dataVar: "body" }));
    const actual = (body as { detail: { code: string } }).detail.code;
    return actual === code ? { result: "validated" } : mismatch(`code ${actual}, expected ${code}`);
  }

  private validator(fragment: string): ValidateFunction {
    let validate = this.validators.get(fragment);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}${fragment}` });
      this.validators.set(fragment, validate);
    }
    return validate;
  }
}

/** The API's paths: /api/** except next-auth's /api/auth/** (the portal, not in the document), /health/** and /compat/**. */
function isApiPath(pathname: string): boolean {
  if (pathname === "/health" || pathname.startsWith("/health/") || pathname.startsWith("/compat/")) return true;
  return pathname.startsWith("/api/") && !pathname.startsWith("/api/auth/");
}
