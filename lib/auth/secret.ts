import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The secret that signs and encrypts portal session cookies (next-auth JWT).
 *  - NEXTAUTH_SECRET (or AUTH_SECRET) when set.
 *  - A production deployment must set it: without it the portal refuses to sign anyone in and says why (the API itself
 *    keeps working — it does not use sessions). "Production deployment" = NODE_ENV=production and either on Vercel
 *    (VERCEL set) or on an external PostgreSQL (DATABASE_URL=postgres…): several instances must share one secret, and
 *    only the operator can provide it.
 *  - The embedded single-machine setup (`npm start` with nothing configured, PGlite under .data/) generates a secret
 *    once and keeps it in .data/nextauth-secret (mode 0600), beside the database it belongs to, so sessions survive a
 *    restart. Development and tests with an in-memory database get a random secret per process.
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

export function authSecret(env: Env = process.env, dataDir = path.join(/*turbopackIgnore: true*/ process.cwd(), ".data")): string {
  const configured = env.NEXTAUTH_SECRET || env.AUTH_SECRET;
  if (configured) return configured;
  const deployed = Boolean(env.VERCEL) || /^postgres(ql)?:\/\//.test(env.DATABASE_URL ?? "");
  if (env.NODE_ENV === "production" && deployed) throw new MissingAuthSecretError();
  const g = globalThis as WithDevSecret;
  g[DEV_SECRET] ??= env.DATABASE_URL ? randomSecret("for this process (sessions end when the server restarts)") : embeddedSecret(dataDir);
  return g[DEV_SECRET];
}

function randomSecret(why: string): string {
  console.warn(`[auth] NEXTAUTH_SECRET is not set: using a random secret ${why}`);
  return randomBytes(32).toString("base64url");
}

/** The embedded setup's secret, generated on first use and kept beside the PGlite database. */
function embeddedSecret(dataDir: string): string {
  const file = path.join(/*turbopackIgnore: true*/ dataDir, "nextauth-secret");
  try {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= 32) return stored;
  } catch {
    // not created yet
  }
  const secret = randomBytes(32).toString("base64url");
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  } catch {
    // Another worker wrote it first (flag wx), or the directory is read-only: read theirs, or fall back to this process.
    try {
      const stored = readFileSync(file, "utf8").trim();
      if (stored.length >= 32) return stored;
    } catch {}
    return randomSecret("for this process (could not store one under .data/)");
  }
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
