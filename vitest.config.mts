import path from "node:path";
import { defineConfig } from "vitest/config";

// Three kinds of test:
//  - unit:  pure logic and upstream-client contract tests, next to the code (lib/, scripts/, clients/)
//  - api:   the built app over HTTP (e2e/api/**/*.test.ts), once on PGlite and once on a real PostgreSQL
//  - clients: the published clients as a user gets them (e2e/clients/**/*.test.ts): the npm tarball installed outside
//           the repository, its CLI, against the built app (PGlite; the database is not what they test)
// In the repository `@lugha/client` is its source (as in tsconfig.json); only the clients project uses the built package.
export default defineConfig({
  resolve: {
    alias: { "@lugha/client": path.resolve(import.meta.dirname, "clients/typescript/src/index.ts"), "@": path.resolve(import.meta.dirname) },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "clients/**/*.test.ts"],
          environment: "node",
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
          setupFiles: ["e2e/support/contract-setup.ts"],
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
          environment: "node",
          globalSetup: ["e2e/support/global-setup.ts"],
          setupFiles: ["e2e/support/contract-setup.ts"],
          provide: { database: "postgres" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
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
