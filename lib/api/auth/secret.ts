import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config, isProductionDeployment, loadConfig } from "@/lib/config";
import { processLog } from "@/lib/kit/log";

/**
 * The secret that signs and encrypts portal session cookies (next-auth JWT).
 *  - NEXTAUTH_SECRET (or AUTH_SECRET) when set.
 *  - A production deployment (lib/config isProductionDeployment) must set it: without it the portal refuses to sign
 *    anyone in and says why (the API itself keeps working — it does not use sessions); one shorter than 32 characters
 *    stops start-up (lib/config).
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

export function authSecret(env?: Env, dataDir = path.join(/*turbopackIgnore: true*/ process.cwd(), ".data")): string {
  // A secret too short for production is refused by the configuration itself (lib/config: a start-up error).
  const c = env ? loadConfig(env) : config();
  const configured = c.NEXTAUTH_SECRET || c.AUTH_SECRET;
  if (configured) return configured;
  if (isProductionDeployment(c)) throw new MissingAuthSecretError();
  const g = globalThis as WithDevSecret;
  g[DEV_SECRET] ??= c.DATABASE_URL ? randomSecret("for this process (sessions end when the server restarts)") : embeddedSecret(dataDir);
  return g[DEV_SECRET];
}

function randomSecret(why: string): string {
  processLog().warn({ event: "auth_secret_generated" }, `NEXTAUTH_SECRET is not set: using a random secret ${why}`);
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
export function authConfigured(env?: Env): boolean {
  try {
    authSecret(env);
    return true;
  } catch {
    return false;
  }
}
