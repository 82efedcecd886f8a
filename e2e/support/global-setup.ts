import type { TestProject } from "vitest/node";
import { readTally, resetTally } from "./contract";
import { startPostgres } from "./postgres";

/**
 * Once per api-* project: for the postgres project, start a real PostgreSQL server that every app instance gets its
 * own database on. The production build is made beforehand (`npm test`, or `npm run build`), never here.
 *
 * A server that cannot start does not abort the run: the reason is handed to every test file, whose tests then fail
 * with it (see freshDatabaseUrl), so the report counts them as failed rather than hiding them.
 */
export default async function setup(project: TestProject) {
  const database = project.getProvidedContext().database;
  resetTally(database);
  const reportContract = () => {
    const t = readTally(database);
    console.log(
      `\ncontract (${database}): ${t.validated} responses validated against the served OpenAPI document, ${t.mismatch} mismatches ` +
        `(${t.out_of_scope} outside it: pages, next-auth, CORS preflights; ${t.files} test files)`,
    );
  };
  if (database !== "postgres") return reportContract;
  try {
    const server = await startPostgres();
    project.provide("postgresAdminUrl", server.adminUrl);
    return async () => {
      await server.stop();
      reportContract();
    };
  } catch (err) {
    project.provide("postgresSetupError", `PostgreSQL did not start: ${(err as Error).message}`);
    return reportContract;
  }
}
