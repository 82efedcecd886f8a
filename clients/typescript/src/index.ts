import createClient, { type Client } from "openapi-fetch";
import type { components, operations, paths } from "../generated/schema";

export type { components, operations, paths };
/** The API's request and response bodies by name, e.g. `Schemas["TranslateResponse"]`. */
export type Schemas = components["schemas"];
export type LughaClient = Client<paths>;

export interface LughaClientOptions {
  /** Base URL of the service, e.g. `https://lugha.example.com` (no trailing path). */
  baseUrl: string;
  /** An API key (`svc_…`), sent as `Authorization: Bearer`. Omit it for the unauthenticated routes only. */
  apiKey?: string;
  /** Retries after a 429 or a 503 (default 2). */
  maxRetries?: number;
  /** A 429 or 503 that asks to wait longer than this is returned instead of waited for (default 30 s). */
  maxWaitSeconds?: number;
  /** Swapped in by tests; defaults to the global fetch and setTimeout. */
  fetch?: (request: Request) => Promise<Response>;
  sleep?: (ms: number) => Promise<void>;
}

const RETRYABLE = new Set([429, 503]);

/**
 * A client for every operation of the API, typed from its OpenAPI document:
 *
 *   const lugha = createLughaClient({ baseUrl, apiKey });
 *   const { data, error } = await lugha.POST("/api/v1/translate", { body: { text: "Good morning", target_lang: "lug" } });
 *
 * `error` is the API's error envelope (`error.detail.code`, `error.detail.message`). A 429 (rate limited) or a 503
 * (providers or the service briefly unavailable) is retried after the `Retry-After` the server sent — or 1 s, then
 * 2 s, … when it sent none — up to `maxRetries` times, never waiting longer than `maxWaitSeconds` at once.
 */
export function createLughaClient(options: LughaClientOptions): LughaClient {
  const { maxRetries = 2, maxWaitSeconds = 30 } = options;
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  async function fetchWithRetries(request: Request): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      // A Request body can be read once: every attempt but the last sends a copy.
      const response = await send(attempt < maxRetries ? request.clone() : request);
      if (!RETRYABLE.has(response.status) || attempt >= maxRetries) return response;
      const waitSeconds = retryAfterSeconds(response.headers.get("retry-after")) ?? 2 ** attempt;
      if (waitSeconds > maxWaitSeconds) return response;
      await response.body?.cancel();
      await sleep(waitSeconds * 1000);
    }
  }

  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {},
    fetch: fetchWithRetries,
  });
}

/** Retry-After as whole seconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
