import { afterEach, describe, expect, it, vi } from "vitest";
import { processLog } from "@/lib/kit/log";
import { authOptions } from "./options";
import { authConfigured, authSecret, MissingAuthSecretError } from "./secret";

describe("portal session secret", () => {
  it("uses NEXTAUTH_SECRET when set, in any environment", () => {
    expect(authSecret({ NEXTAUTH_SECRET: "s3cret", NODE_ENV: "production" })).toBe("s3cret");
    expect(authSecret({ AUTH_SECRET: "other", NODE_ENV: "production" })).toBe("other");
  });

  it("is required in production: a clear error, not a silent default", () => {
    const deployments = [
      { NODE_ENV: "production", VERCEL: "1", DATABASE_URL: "postgres://db/lugha" },
      { NODE_ENV: "production", DATABASE_URL: "postgresql://db/lugha" },
      { NODE_ENV: "production", VERCEL: "1" },
    ];
    for (const env of deployments) {
      expect(() => authSecret(env)).toThrow(MissingAuthSecretError);
      expect(() => authSecret(env)).toThrow(/NEXTAUTH_SECRET is not set/);
      expect(authConfigured(env)).toBe(false);
    }
  });

  it("generates one random development secret per process otherwise", () => {
    const warn = vi.spyOn(processLog(), "warn").mockImplementation(() => {});
    const a = authSecret({ NODE_ENV: "development", DATABASE_URL: "pglite:memory" });
    const b = authSecret({ NODE_ENV: "test", DATABASE_URL: "pglite:memory" });
    expect(a).toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(40);
    expect(authConfigured({ NODE_ENV: "development", DATABASE_URL: "pglite:memory" })).toBe(true);
    warn.mockRestore();
  });

  it("the embedded setup (npm start, nothing configured) keeps one generated secret under .data/", async () => {
    const { mkdtempSync, readFileSync, statSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dir = path.join(mkdtempSync(path.join(tmpdir(), "lugha-secret-")), ".data");
    const g = globalThis as Record<symbol, unknown>;
    delete g[Symbol.for("lugha.auth.devSecret")];
    const first = authSecret({ NODE_ENV: "production" }, dir);
    expect(readFileSync(path.join(dir, "nextauth-secret"), "utf8")).toBe(first);
    expect(statSync(path.join(dir, "nextauth-secret")).mode & 0o077).toBe(0); // readable by the owner only
    delete g[Symbol.for("lugha.auth.devSecret")]; // a restart
    expect(authSecret({ NODE_ENV: "production" }, dir)).toBe(first);
    delete g[Symbol.for("lugha.auth.devSecret")];
  });
});

describe("portal session contents", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("the JWT holds the key id and nothing else; the session exposes only keyId", async () => {
    vi.stubEnv("NEXTAUTH_SECRET", "unit-test-secret");
    const { callbacks, session, providers } = authOptions();
    expect(session?.strategy).toBe("jwt");
    expect(providers).toHaveLength(1);
    expect((providers[0] as unknown as { options: { id: string } }).options.id).toBe("api-key");
    const token = await callbacks!.jwt!({
      token: { name: "n", email: "e@x", picture: "p", sub: "old" },
      user: { id: "5b7c0d7e-2f7e-4c1a-9d2e-0a1b2c3d4e5f", name: "my key", email: "svc_secret" },
      account: null,
    } as never);
    expect(token).toEqual({ sub: "5b7c0d7e-2f7e-4c1a-9d2e-0a1b2c3d4e5f" });
    // Later requests: the token passes through unchanged, still only the id.
    expect(await callbacks!.jwt!({ token, user: undefined, account: null } as never)).toEqual(token);
    const s = await callbacks!.session!({ session: { expires: "2030-01-01T00:00:00.000Z", user: { name: "x" } }, token } as never);
    expect(s).toEqual({ expires: "2030-01-01T00:00:00.000Z", keyId: "5b7c0d7e-2f7e-4c1a-9d2e-0a1b2c3d4e5f" });
  });
});
