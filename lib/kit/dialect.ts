import type { ErrorCode, FieldError } from "./errors";

/**
 * A protocol the API also speaks besides its own (LibreTranslate, DeepL, ...): where the key comes from, how the body
 * is read, how a refusal is written. The route wrapper (lib/api/route.ts) keeps doing everything else — authentication,
 * rate limit, usage, request log, cache, sandbox header — the same for every protocol; an operation of the manifest
 * names its dialect, and its handler maps the protocol's fields onto the services and their result back.
 */
export interface Dialect {
  /** The protocol's name, for logs and tests ("libretranslate"). */
  readonly name: string;
  /**
   * Reads the request's fields under `maxBytes`: the body (JSON, form or multipart, as the protocol sends it) merged
   * over the query string. Runs before the rate limit, and before authentication when `keyInFields`.
   */
  readFields(req: Request, maxBytes: number): Promise<Record<string, unknown>>;
  /**
   * The key the request carries, or null when it sends none; a credential in the wrong form throws its refusal.
   * Absent: the API's own `Authorization: Bearer <key>`.
   */
  credential?(req: Request, fields: Record<string, unknown>): string | null;
  /**
   * The key is one of the fields (LibreTranslate's api_key), so they are read before authentication; otherwise the
   * key comes from a header and is checked before the body is read.
   */
  readonly keyInFields?: boolean;
  /** The status a refusal has in the protocol (the API's own status is `status`). */
  status(code: ErrorCode, status: number): number;
  /** The body of a refusal in the protocol (never anything of the request). */
  errorBody(refusal: Refusal): object;
  /** The OpenAPI component that describes errorBody's shape. */
  readonly errorSchema: string;
}

/** One refusal in the API's own terms, for a dialect to render. */
export interface Refusal {
  code: ErrorCode;
  status: number;
  message: string;
  requestId: string;
  errors?: FieldError[];
}

/**
 * Another protocol's answer to a result of the API's own: the route wrapper reads `result` — usage, the request log,
 * the sandbox header — as it would on the native route, and sends `reply` (JSON, or a Response the adapter built).
 */
export class ProtocolReply {
  constructor(
    readonly result: object,
    readonly reply: object,
    /** How the request is counted when it stands for another operation of the API (an MCP tool call: its REST twin). */
    readonly countedAs?: CountedAs,
  ) {}
}

/** The usage record and request log line of a request that carried another operation. */
export interface CountedAs {
  /** The name it is logged under ("POST /mcp translate"). */
  endpoint: string;
  /** The status the operation ended with (the twin's: 200, or its error's 422, 503, ...). */
  status: number;
  /** The result is a translation or a batch: its characters and cache hits are counted. */
  translation: boolean;
}
