import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countCheck, countPlaywright, countVitest, summaryLine } from "./lib/report.mjs";

/** The counter behind `npm test`'s closing line, fed the reports the runners really write. */

describe("a real vitest report with a setup failure", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "lugha-report-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    path.join(dir, "setup-fails.test.mjs"),
    `beforeAll(() => { throw new Error("PostgreSQL did not start"); });
     it("needs the database", () => {});
     it("needs it too", () => {});`,
  );
  writeFileSync(path.join(dir, "fine.test.mjs"), `it("passes", () => {}); it.skip("is skipped", () => {});`);
  writeFileSync(
    path.join(dir, "suite-setup-fails.test.mjs"),
    `it("runs", () => {});
     describe("on PostgreSQL", () => {
       beforeAll(() => { throw new Error("no server"); });
       it("needs the server", () => {});
     });`,
  );
  writeFileSync(path.join(dir, "broken.test.mjs"), `import "./does-not-exist.mjs"; it("never collected", () => {});`);
  const out = path.join(dir, "report.json");
  const run = spawnSync(
    process.execPath,
    [path.resolve("node_modules/vitest/vitest.mjs"), "run", "--root", dir, "--globals", "--reporter=json", `--outputFile.json=${out}`],
    { encoding: "utf8", env: { ...process.env, CI: "" } },
  );
  const report = JSON.parse(readFileSync(out, "utf8"));

  it("vitest itself reports the tests of the failed setup as skipped (which is what the counter must correct)", () => {
    expect(run.status).not.toBe(0);
    expect(report.numPassedTests).toBe(2);
    expect(report.numFailedTests).toBe(0);
    expect(report.numPendingTests).toBe(4);
  });

  it("counts the tests that never ran as failed, the file that did not load as one failure, and the real skip as a skip", () => {
    const c = countVitest(report, { label: "fixture", exitCode: run.status ?? 1, ci: false });
    expect({ passed: c.passed, failed: c.failed, skipped: c.skipped }).toEqual({ passed: 2, failed: 4, skipped: 1 });
    expect(c.notes.join("\n")).toMatch(/2 test\(s\) of .*\/setup-fails\.test\.mjs never ran: PostgreSQL did not start/);
    expect(c.notes.join("\n")).toMatch(/1 test\(s\) of .*suite-setup-fails\.test\.mjs never ran: a beforeAll/);
    expect(c.notes.join("\n")).toMatch(/broken\.test\.mjs did not load/);
    expect(c.notes.join("\n")).toMatch(/skipped: fixture › is skipped \(no reason given\)/);
  });

  it("under CI a skip is a failure", () => {
    const c = countVitest(report, { label: "fixture", exitCode: run.status ?? 1, ci: true });
    expect({ passed: c.passed, failed: c.failed, skipped: c.skipped }).toEqual({ passed: 2, failed: 5, skipped: 0 });
  });
});

describe("reports that say nothing are failures", () => {
  it("no report at all", () => {
    expect(countVitest(undefined, { label: "api-postgres", exitCode: 1, ci: false }).failed).toBe(1);
    expect(countPlaywright(undefined, { label: "browser", exitCode: 1, ci: false }).failed).toBe(1);
  });

  it("a runner that exited non-zero with an empty report (no test files found, a crashed global setup)", () => {
    const empty = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, testResults: [] };
    expect(countVitest(empty, { label: "unit", exitCode: 1, ci: false })).toMatchObject({ passed: 0, failed: 1 });
    expect(countVitest(empty, { label: "unit", exitCode: 0, ci: false })).toMatchObject({ passed: 0, failed: 0 });
  });

  it("Playwright: a web server that never started is a failure; skips carry their reason", () => {
    const report = {
      suites: [
        {
          title: "portal.spec.ts",
          specs: [{ title: "signs in", tests: [{ status: "skipped", annotations: [{ type: "skip", description: "needs a mouse" }] }] }],
        },
      ],
      errors: [{ message: "Error: Timed out waiting 120000ms from config.webServer.\nmore" }],
    };
    const c = countPlaywright(report, { label: "browser", exitCode: 1, ci: false });
    expect({ passed: c.passed, failed: c.failed, skipped: c.skipped }).toEqual({ passed: 0, failed: 1, skipped: 1 });
    expect(c.notes).toContain("skipped: browser › portal.spec.ts › signs in (needs a mouse)");
  });

  it("checks count as one test each, and the closing line has the runner's numbers", () => {
    expect(countCheck("lint", 0)).toMatchObject({ passed: 1, failed: 0 });
    expect(countCheck("lint", 1)).toMatchObject({ passed: 0, failed: 1 });
    expect(summaryLine({ passed: 5, failed: 0, skipped: 0 })).toBe("5 passed, 0 failed");
    expect(summaryLine({ passed: 5, failed: 1, skipped: 2 })).toBe("5 passed, 1 failed, 2 skipped");
  });
});
