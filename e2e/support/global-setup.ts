import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres";

/**
 * Once per api-* project: make sure a production build exists (scripts/test.mjs builds before running vitest),
 * and for the postgres project start a real PostgreSQL server that every app instance gets its own database on.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(".next/BUILD_ID")) {
    execFileSync("npm", ["run", "build"], { stdio: "inherit" });
  }
  if (project.getProvidedContext().database !== "postgres") return;
  const server = await startPostgres();
  project.provide("postgresAdminUrl", server.adminUrl);
  return () => server.stop();
}
