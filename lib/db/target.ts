/**
 * Which database DATABASE_URL names. No imports: `npm start`'s launcher reads this file too, with Node.js's own type
 * stripping (scripts/prepare-pglite.mjs), before the server and its bundler exist.
 */
export type DatabaseKind = "pglite" | "postgres";

export interface DatabaseTarget {
  kind: DatabaseKind;
  /** PGlite data directory (undefined = in memory) or the PostgreSQL connection string. */
  location?: string;
}

export function databaseTarget(url: string | undefined, onVercel: boolean): DatabaseTarget {
  // Serverless functions are many, short-lived and have no persistent disk: an in-process database there would give
  // every instance its own keys and counters, lost at the next cold start. Refuse clearly instead.
  if (onVercel && (!url || url.startsWith("pglite:"))) throw new PgliteOnServerlessError();
  if (!url) return { kind: "pglite", location: ".data/pglite" };
  if (url.startsWith("pglite:")) {
    const rest = url.slice("pglite:".length).replace(/^\/\//, "");
    return { kind: "pglite", location: rest === "memory" || rest === "" ? undefined : rest };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: "postgres", location: url };
  throw new Error("DATABASE_URL must be postgres://…, postgresql://…, pglite:<dir> or pglite:memory");
}

export class PgliteOnServerlessError extends Error {
  constructor() {
    super(
      "DATABASE_URL must point to PostgreSQL on Vercel (postgres://…, e.g. Neon or Vercel Postgres). The embedded PGlite " +
        "database needs one long-lived process with a disk; serverless instances would each get their own, empty copy.",
    );
    this.name = "PgliteOnServerlessError";
  }
}
