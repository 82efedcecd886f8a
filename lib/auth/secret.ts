import { randomBytes } from "node:crypto";

/**
 * The secret that signs and encrypts portal session cookies (next-auth JWT).
 *  - NEXTAUTH_SECRET (or AUTH_SECRET) when set.
 *  - In production (NODE_ENV=production) it is required: without it the portal refuses to sign anyone in and says why
 *    (the API itself keeps working — it does not use sessions).
 *  - Otherwise (development, tests) a random secret is generated once per process: sessions end when the process
 *    restarts, which is what a development secret should do.
 */
export class MissingAuthSecretError extends Error {
  constructor() {
    super(
      "NEXTAUTH_SECRET is not set. The developer portal needs it in production to sign session cookies: " +
        "set NEXTAUTH_SECRET to a long random value (e.g. `openssl rand -base64 32`) and NEXTAUTH_URL to the site's URL, then restart.",
    );
    this.name = "MissingAuthSecretError";
  }
}

const DEV_SECRET = Symbol.for("lugha.auth.devSecret");
type WithDevSecret = typeof globalThis & { [DEV_SECRET]?: string };

type Env = Record<string, string | undefined>;

export function authSecret(env: Env = process.env): string {
  const configured = env.NEXTAUTH_SECRET || env.AUTH_SECRET;
  if (configured) return configured;
  if (env.NODE_ENV === "production") throw new MissingAuthSecretError();
  const g = globalThis as WithDevSecret;
  if (!g[DEV_SECRET]) {
    g[DEV_SECRET] = randomBytes(32).toString("base64url");
    console.warn("[auth] NEXTAUTH_SECRET is not set: using a random development secret (portal sessions end when the server restarts)");
  }
  return g[DEV_SECRET];
}

/** True when the portal can sign people in (for pages that want to explain rather than fail). */
export function authConfigured(env: Env = process.env): boolean {
  try {
    authSecret(env);
    return true;
  } catch {
    return false;
  }
}
