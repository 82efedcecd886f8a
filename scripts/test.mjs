#!/usr/bin/env node
/**
 * `npm test`: every test of the project, in one command, ending with the line "N passed, N failed".
 *   1. prisma generate + next build (the API tests run against the production build, as users do)
 *   2. typecheck (tsc --noEmit over app, lib, scripts and tests) — counted as one test
 *   3. vitest: unit tests, then the API over HTTP on PGlite and on a real PostgreSQL
 *   4. Playwright in Debian's Chromium (e2e/browser), when present
 * Set SKIP_BUILD=1 to reuse an existing .next build.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

const results = { passed: 0, failed: 0, skipped: 0 };
const node = process.execPath;
mkdirSync("test-results", { recursive: true });

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}: ${[cmd, ...args].join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return r.status ?? 1;
}

if (process.env.SKIP_BUILD !== "1") {
  if (run("build", "npm", ["run", "build"]) !== 0) {
    console.log("\nbuild failed\n0 passed, 1 failed");
    process.exit(1);
  }
}

const typecheck = run("typecheck", node, ["node_modules/typescript/bin/tsc", "--noEmit", "-p", "."]);
results[typecheck === 0 ? "passed" : "failed"] += 1;

const vitestReport = "test-results/vitest.json";
rmSync(vitestReport, { force: true });
const vitestArgs = ["node_modules/vitest/vitest.mjs", "run", "--reporter=default", `--reporter=json`, `--outputFile.json=${vitestReport}`];
const vitestStatus = run("vitest", node, vitestArgs);
if (existsSync(vitestReport)) {
  const r = JSON.parse(readFileSync(vitestReport, "utf8"));
  results.passed += r.numPassedTests;
  results.failed += r.numFailedTests;
  results.skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  // A suite that failed to load (syntax error, global setup crash) has no test results: count it as a failure.
  const brokenSuites = (r.testResults ?? []).filter((s) => s.status === "failed" && (s.assertionResults ?? []).length === 0).length;
  results.failed += brokenSuites;
  if (vitestStatus !== 0 && r.numFailedTests === 0 && brokenSuites === 0) results.failed += 1;
} else {
  results.failed += 1;
}

if (existsSync("e2e/browser")) {
  const pwReport = "test-results/playwright.json";
  rmSync(pwReport, { force: true });
  const status = run("playwright", node, ["node_modules/@playwright/test/cli.js", "test", "-c", "e2e/browser/playwright.config.ts"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: pwReport,
  });
  if (existsSync(pwReport)) {
    const s = JSON.parse(readFileSync(pwReport, "utf8")).stats ?? {};
    results.passed += (s.expected ?? 0) + (s.flaky ?? 0);
    results.failed += s.unexpected ?? 0;
    results.skipped += s.skipped ?? 0;
    if (status !== 0 && !s.unexpected) results.failed += 1;
  } else {
    results.failed += 1;
  }
}

console.log(`\n${results.passed} passed, ${results.failed} failed${results.skipped ? `, ${results.skipped} skipped` : ""}`);
process.exit(results.failed ? 1 : 0);
