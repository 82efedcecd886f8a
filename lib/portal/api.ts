/**
 * Browser-side helpers for calling Lugha's public API from the portal (key form, playground). Client-safe: no server
 * imports. Every non-2xx response is turned into an ApiProblem from the error envelope {"detail": {...}}.
 */
export interface FieldProblem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export interface ApiProblem {
  status: number;
  code: string;
  message: string;
  requestId?: string;
  errors?: FieldProblem[];
  /** Seconds, from Retry-After (429, some 503s). */
  retryAfter?: number;
}

export interface RateLimitSnapshot {
  limit: number;
  remaining: number;
  /** Epoch ms at which the window has fully refilled. */
  resetAt: number;
  /** When the browser saw it (epoch ms). */
  seenAt: number;
}

export type ApiResult<T> =
  | { ok: true; status: number; data: T; headers: Headers; rateLimit?: RateLimitSnapshot }
  | { ok: false; problem: ApiProblem; headers?: Headers; rateLimit?: RateLimitSnapshot };

export function rateLimitFrom(headers: Headers): RateLimitSnapshot | undefined {
  const limit = Number(headers.get("x-ratelimit-limit"));
  const remaining = Number(headers.get("x-ratelimit-remaining"));
  const reset = Number(headers.get("x-ratelimit-reset"));
  if (!headers.has("x-ratelimit-limit") || !Number.isFinite(limit) || !Number.isFinite(remaining)) return undefined;
  return { limit, remaining, resetAt: Number.isFinite(reset) ? reset * 1000 : Date.now(), seenAt: Date.now() };
}

export async function problemFrom(res: Response): Promise<ApiProblem> {
  const retry = Number(res.headers.get("retry-after"));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : undefined;
  let detail: Partial<{ code: string; message: string; request_id: string; errors: FieldProblem[] }> = {};
  try {
    const body = (await res.json()) as { detail?: typeof detail };
    if (body && typeof body.detail === "object" && body.detail) detail = body.detail;
  } catch {
    // not JSON: fall through to the generic message
  }
  return {
    status: res.status,
    code: detail.code ?? `HTTP_${res.status}`,
    message: detail.message ?? `The server answered ${res.status} ${res.statusText}.`,
    requestId: detail.request_id ?? res.headers.get("x-request-id") ?? undefined,
    errors: Array.isArray(detail.errors) ? detail.errors : undefined,
    retryAfter,
  };
}

/** fetch + error envelope. `parse` reads a 2xx body (JSON by default). */
export async function callApi<T>(
  path: string,
  init: RequestInit & { apiKey?: string } = {},
  parse: (res: Response) => Promise<T> = (res) => res.json() as Promise<T>,
): Promise<ApiResult<T>> {
  const { apiKey, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (apiKey) headers.set("Authorization", `Bearer ${apiKey}`);
  if (rest.body !== undefined && typeof rest.body === "string" && !headers.has("content-type")) headers.set("Content-Type", "application/json");
  let res: Response;
  try {
    // The browser's default cache mode, as the "View code" snippets use: "no-store" (or "reload") would make the browser
    // add Cache-Control: no-cache, which the API reads as a request for a fresh translation (a cache bypass). The API's
    // answers say themselves what may be kept (no-store; /languages: private, max-age=300).
    res = await fetch(path, { ...rest, headers });
  } catch {
    return { ok: false, problem: { status: 0, code: "NETWORK_ERROR", message: "Could not reach the server. Check your connection and try again." } };
  }
  const rateLimit = rateLimitFrom(res.headers);
  if (!res.ok) return { ok: false, problem: await problemFrom(res), headers: res.headers, rateLimit };
  return { ok: true, status: res.status, data: await parse(res), headers: res.headers, rateLimit };
}

/**
 * What the X-Lugha-Cache header of a translation said, in words: hit, miss or bypass, or that the server's translation
 * cache is off (no header).
 */
export function cacheOutcome(headers: Headers): string {
  switch (headers.get("x-lugha-cache")) {
    case "hit":
      return "hit: answered from the translation cache, no provider called";
    case "miss":
      return "miss: a provider translated it, and the cache now holds it";
    case "bypass":
      return "bypass: a fresh translation was asked for, so a provider translated it";
    default:
      return "off: this server's translation cache is turned off";
  }
}

/** "3 min 20 s" */
export function formatSeconds(total: number): string {
  const s = Math.max(0, Math.ceil(total));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}
