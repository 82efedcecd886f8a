import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expectEnvelope, mintKey, portalSignIn } from "../support/api";
import { type RunningApp, startApp, stopAllApps } from "../support/app";

/**
 * The portal's pages and server actions against the production build: a CSP on every page response, prefetches
 * included, and the one state-changing server action (revoking the signed-in key) refused unless a page of this site
 * posted it.
 */

afterAll(stopAllApps);

let app: RunningApp;
beforeAll(async () => {
  app = await startApp();
});

const signIn = (key: string) => portalSignIn(app.url, key);

/** The id Next.js gave the revoke action in this build. */
function revokeActionId(): string {
  const manifest = JSON.parse(readFileSync(path.resolve(".next/server/server-reference-manifest.json"), "utf8"));
  const entry = Object.entries(manifest.node as Record<string, { exportedName: string; filename: string }>).find(
    ([, v]) => v.filename === "app/dashboard/actions.ts" && v.exportedName === "revokeSessionKey",
  );
  if (!entry) throw new Error("revokeSessionKey not in the server-reference manifest");
  return entry[0];
}

describe("server actions come only from this site's pages", () => {
  const postAction = (cookie: string, headers: Record<string, string>) =>
    fetch(`${app.url}/dashboard`, {
      method: "POST",
      redirect: "manual",
      headers: { "next-action": revokeActionId(), "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", cookie, ...headers },
      body: "[]",
    });

  it.each([
    ["no Origin header", {}],
    ["no Origin, a foreign Referer", { referer: "https://evil.example/page" }],
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["Origin null (a sandboxed frame)", { origin: "null" }],
    ["a malformed Origin", { origin: "not a url" }],
    ["our host name on another port", { origin: "http://127.0.0.1:1" }],
  ])("refuses the revoke action with %s: 403, and the key keeps working", async (_, headers) => {
    const key = await mintKey(app.url, "action target");
    const cookie = await signIn(key);
    const res = await postAction(cookie, headers);
    expect(res.status).toBe(403);
    expect((await call(app.url, "GET", "/api/v1/auth/keys/me", { key })).status).toBe(200);
  });

  it("runs it when the portal's own page posts it (same Origin)", async () => {
    const key = await mintKey(app.url, "action target");
    const cookie = await signIn(key);
    const res = await postAction(cookie, { origin: app.url });
    expect(res.status).toBe(200);
    expect((await call(app.url, "GET", "/api/v1/auth/keys/me", { key })).status).toBe(401);
  });
});

describe("every page response carries the nonce CSP", () => {
  it.each([
    ["Purpose: prefetch", { purpose: "prefetch" }],
    ["Sec-Purpose: prefetch", { "sec-purpose": "prefetch" }],
    ["Next.js router prefetch", { "next-router-prefetch": "1", rsc: "1" }],
  ])("a page requested with %s", async (_, headers) => {
    const res = await fetch(`${app.url}/`, { headers });
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
  });
});

describe("next-auth's endpoints tell the truth", () => {
  it("GET /api/auth/callback/api-key is a wrong method (405, Allow: POST), not a 500", async () => {
    const res = await call(app.url, "GET", "/api/auth/callback/api-key");
    expectEnvelope(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toContain("POST");
    expect(res.text).not.toMatch(/credentials not supported/i);
  });

  it("/api/auth/session reports no session once the key is revoked, and does not extend its cookie", async () => {
    const key = await mintKey(app.url, "session target");
    const cookie = await signIn(key);
    const live = await fetch(`${app.url}/api/auth/session`, { headers: { cookie } });
    expect(((await live.json()) as { keyId?: string }).keyId).toEqual(expect.any(String));
    expect((await call(app.url, "DELETE", "/api/v1/auth/keys/me", { key })).status).toBe(200);
    const ended = await fetch(`${app.url}/api/auth/session`, { headers: { cookie } });
    expect(ended.status).toBe(200);
    expect(await ended.json()).toEqual({});
    expect(ended.headers.getSetCookie()).toEqual([]);
  });
});
