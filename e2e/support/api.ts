import http from "node:http";
import { checkResponse } from "./contract";

/** Small HTTP helpers for API tests. Every response they return is also checked against the OpenAPI document. */
// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies field by field and assert each one
export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

// biome-ignore lint/suspicious/noExplicitAny: as for JsonResponse
export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] ??= "application/json";
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  await checkResponse(baseUrl, { method, path, status: res.status, contentType: res.headers.get("content-type"), text });
  return { status: res.status, headers: res.headers, body: parseJson(text) as T, text };
}

/**
 * One request over node:http, for what fetch refuses to send (TRACE, CONNECT, unknown methods). Headers come back as
 * a Headers object, like call()'s.
 */
// biome-ignore lint/suspicious/noExplicitAny: as for JsonResponse
export function rawCall<T = any>(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}): Promise<JsonResponse<T>> {
  return new Promise((resolve, reject) => {
    const req = http.request(baseUrl + path, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", async () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out.set(name, String(value));
        const status = res.statusCode ?? 0;
        await checkResponse(baseUrl, { method, path, status, contentType: out.get("content-type"), text });
        resolve({ status, headers: out, body: parseJson(text) as T, text });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

function parseJson(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return parsed;
}

export async function mintKey(baseUrl: string, name = "test key", extra: Record<string, unknown> = {}): Promise<string> {
  const res = await call(baseUrl, "POST", "/api/v1/auth/keys", { json: { name, ...extra } });
  if (res.status !== 200) throw new Error(`mint failed ${res.status}: ${res.text}`);
  return res.body.api_key;
}

/** Asserts the documented error envelope and returns detail. */
export function expectEnvelope(res: JsonResponse, status: number, code: string) {
  const problems: string[] = [];
  if (res.status !== status) problems.push(`status ${res.status} != ${status}`);
  const d = res.body?.detail;
  if (!d || typeof d !== "object") problems.push("no detail object");
  else {
    if (d.code !== code) problems.push(`code ${d.code} != ${code}`);
    if (typeof d.message !== "string" || !d.message) problems.push("no message");
    if (typeof d.request_id !== "string" || d.request_id !== res.headers.get("x-request-id")) problems.push("request_id missing or != X-Request-Id");
  }
  if (!(res.headers.get("content-type") ?? "").includes("application/json")) problems.push("not JSON");
  if (problems.length) throw new Error(`${problems.join("; ")}\nbody: ${res.text.slice(0, 500)}`);
  return d as { code: string; message: string; request_id: string; errors?: { loc: (string | number)[]; msg: string; type: string }[] };
}

/** Signs in to the portal through next-auth's credentials endpoint, as the /signin form does; returns the cookies. */
export async function portalSignIn(baseUrl: string, key: string): Promise<string> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const cookies = csrf.headers.getSetCookie().map((c) => c.split(";")[0]);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/callback/api-key`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, api_key: key, json: "true" }),
  });
  const session = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (!session.some((c) => c.startsWith("next-auth.session-token="))) throw new Error(`portal sign-in failed: ${res.status}`);
  return [...cookies, ...session].join("; ");
}
