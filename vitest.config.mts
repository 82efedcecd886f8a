import path from "node:path";
import { defineConfig } from "vitest/config";

// Four kinds of test:
//  - unit:  pure logic and upstream-client contract tests, next to the code (lib/, scripts/, clients/)
//  - api:   the built app over HTTP (e2e/api/**/*.test.ts), once on PGlite and once on a real PostgreSQL
//  - vercel: the app built offline by the Vercel CLI (`vercel build`) and the functions it would deploy checked
//  - compat: the LibreTranslate, DeepL and OpenAI audio surfaces (/compat) and the MCP server (/mcp) driven by those
//           protocols' own clients, against the built app; the playground's View code for them, run as written
//  - start: the README's `npm start` in a fresh copy of the checkout, with nothing configured
//  - clients: the published clients as a user gets them (e2e/clients/**/*.test.ts): the npm tarball installed outside
//           the repository, its CLI, against the built app (PGlite; the database is not what they test)
// In the repository `@lugha/client` is its source (as in tsconfig.json); only the clients project uses the built package.
export default defineConfig({
  resolve: {
    alias: { "@lugha/client": path.resolve(import.meta.dirname, "clients/typescript/src/index.ts"), "@": path.resolve(import.meta.dirname) },
  },
  test: {
    // One retry: on a busy two-core CI machine a test that measures the server (an answer within a deadline, memory
    // while a large file is parsed) can miss once. A test that passes on its retry counts as passed, as vitest reports
    // it, and npm test's summary names it as flaky with the error of its first attempt (scripts/lib/report.mjs).
    retry: 1,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "clients/**/*.test.ts", "bench/**/*.test.ts"],
          environment: "node",
          setupFiles: ["e2e/support/sandbox-setup.ts"],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "api-pglite",
          include: ["e2e/api/**/*.test.ts"],
          environment: "node",
          globalSetup: ["e2e/support/global-setup.ts"],
          setupFiles: ["e2e/support/contract-setup.ts", "e2e/support/sandbox-setup.ts"],
          provide: { database: "pglite" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: "api-postgres",
          include: ["e2e/api/**/*.test.ts"],
          // The hostile-input suite measures the app process's memory and event loop, which do not depend on the database.
          exclude: ["e2e/api/adversarial.test.ts"],
          environment: "node",
          globalSetup: ["e2e/support/global-setup.ts"],
          setupFiles: ["e2e/support/contract-setup.ts", "e2e/support/sandbox-setup.ts"],
          provide: { database: "postgres" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // `vercel build` of a copy of the checkout, and its output checked (e2e/vercel/build.test.ts)
          name: "vercel",
          include: ["e2e/vercel/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 1_200_000,
        },
      },
      {
        extends: true,
        test: {
          // The other protocols' surfaces (/compat) driven by their official clients from the npm registry (e2e/compat)
          name: "compat",
          include: ["e2e/compat/**/*.test.ts"],
          environment: "node",
          provide: { database: "pglite" },
          testTimeout: 60_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // the README's `npm start` in a fresh copy of the checkout, with nothing configured (e2e/start/fresh-clone.test.ts)
          name: "start",
          include: ["e2e/start/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: "clients",
          include: ["e2e/clients/**/*.test.ts"],
          environment: "node",
          provide: { database: "pglite" },
          testTimeout: 120_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
