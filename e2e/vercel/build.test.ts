import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUNCTION_MARGIN_SECONDS, maxDurationSeconds, operations, PLATFORM_MAX_DURATION_SECONDS, type RoutePath } from "@/lib/api/manifest";
import { CONFIG_DEFAULTS } from "@/lib/config";
import { copyCheckout, REPO } from "../support/checkout";
import { sql } from "../support/db";
import { createDatabase, type PostgresServer, startPostgres } from "../support/postgres";
import { type BuiltFunction, functionOf, megabytes, readFunctions, vercelBuild } from "./output";

/**
 * `npm test -- vercel`: the app built the way Vercel builds it — `vercel build` (the pinned Vercel CLI) on a copy of the
 * checkout, offline (../support/checkout.ts, ./output.ts vercelBuild) — and what the platform would receive (.vercel/output)
 * checked. The build command of vercel.json migrates the database, so a real PostgreSQL is given to it.
 */
let work: string;
let postgres: PostgresServer;
let directUrl: string;
let build: { status: number | null; output: string };
let functions: BuiltFunction[];

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "lugha-vercel-"));
  copyCheckout(work);
  postgres = await startPostgres();
  directUrl = await createDatabase(postgres.adminUrl);
  build = await vercelBuild(work, directUrl);
  writeFileSync(path.join(REPO, "test-results", "vercel-build.log"), build.output);
  functions = existsSync(path.join(work, ".vercel", "output", "functions")) ? readFunctions(work) : [];
  const sizes = functions.map((f) => ({ function: f.dir, megabytes: megabytes(f.bytes), files: f.files.length, routes: f.routes }));
  writeFileSync(path.join(REPO, "test-results", "vercel-functions.json"), `${JSON.stringify(sizes, null, 2)}\n`);
}, 1_200_000);

afterAll(async () => {
  await postgres?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Route paths of the manifest as Vercel names their functions: "/api/v1/glossaries/{id}" → "api/v1/glossaries/[id]". */
const functionRoute = (p: RoutePath) => p.slice(1).replace(/\{(\w+)\}/g, "[$1]");
const manifestPaths = [...new Set(operations().map((o) => o.path))];

describe("vercel build", () => {
  it("completes, with the build command's migration applied to the direct (non-pooling) URL", async () => {
    expect(build.status, build.output.slice(-3000)).toBe(0);
    expect(existsSync(path.join(work, ".vercel", "output", "config.json"))).toBe(true);
    const tables = await sql<{ table_name: string }>(directUrl, "SELECT table_name FROM information_schema.tables WHERE table_name = 'api_keys'");
    expect(tables).toHaveLength(1);
  });

  it("prints no Edge Runtime warning", () => {
    expect(build.output).toContain("Build Completed");
    expect(build.output).not.toMatch(/Edge Runtime/i);
  });

  it("gives every route of the manifest a function, and every function runs on Node.js 24", () => {
    for (const p of manifestPaths) expect(functionOf(functions, functionRoute(p)), p).toBeDefined();
    for (const f of functions) expect(f.config.runtime, f.dir).toBe("nodejs24.x");
  });

  it("ships neither PGlite nor a test-only package in any function", () => {
    const devDependencies = Object.keys(JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")).devDependencies);
    const forbidden = ["@electric-sql/pglite", "pglite-prisma-adapter", ...devDependencies].map((name) => `node_modules/${name}/`);
    for (const f of functions) {
      const shipped = f.files.filter((file) => forbidden.some((prefix) => file.includes(prefix)));
      expect(shipped.slice(0, 5), `${f.dir} ships ${shipped.length} such files`).toEqual([]);
    }
  });

  it("gives each route the maxDuration of the manifest: its deadline plus the margin, within the platform's 300 s", () => {
    for (const p of manifestPaths) {
      const fn = functionOf(functions, functionRoute(p))!;
      expect(fn.config.maxDuration, p).toBe(maxDurationSeconds(p));
      expect(fn.config.maxDuration!).toBeLessThanOrEqual(PLATFORM_MAX_DURATION_SECONDS);
      for (const { operation } of operations().filter((o) => o.path === p && o.operation.deadline)) {
        expect(fn.config.maxDuration! - FUNCTION_MARGIN_SECONDS, p).toBeGreaterThanOrEqual(CONFIG_DEFAULTS[operation.deadline!] / 1000);
      }
    }
    // The speech functions may run past Sunbird's own 180 s synthesis, up to Fluid compute's 300 s.
    for (const p of ["/api/v1/speech/stt", "/api/v1/speech/tts"] as const) {
      expect(functionOf(functions, functionRoute(p))!.config.maxDuration).toBeGreaterThanOrEqual(180);
    }
  });

  it("reports the sizes docs/deploy.md gives (within 15 %)", () => {
    const doc = readFileSync(path.join(REPO, "docs", "deploy.md"), "utf8");
    const rows = [...doc.matchAll(/^\| `(api\/[^`]+|health)` .*\| ([\d.]+) MB \|$/gm)];
    expect(rows.length, "docs/deploy.md has the function size table").toBeGreaterThan(0);
    for (const [, route, documented] of rows) {
      const fn = functionOf(functions, route!);
      expect(fn, route).toBeDefined();
      expect(Math.abs(megabytes(fn!.bytes) - Number(documented)) / Number(documented), `${route}: ${megabytes(fn!.bytes)} MB built`).toBeLessThan(
        0.15,
      );
    }
  });
});
