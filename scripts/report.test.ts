import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { countCheck, countPlaywright, countUnittest, countVitest, summaryLine } from "./lib/report.mjs";

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

describe("a real vitest report and a Playwright report with a failing test", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "lugha-report-failing-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    path.join(dir, "fails.test.mjs"),
    `describe("the health route", () => { it("answers within budget", () => { expect(2000, "the stall in ms").toBeLessThan(1500); }); });`,
  );
  const out = path.join(dir, "report.json");
  const run = spawnSync(
    process.execPath,
    [path.resolve("node_modules/vitest/vitest.mjs"), "run", "--root", dir, "--globals", "--reporter=json", `--outputFile.json=${out}`],
    { encoding: "utf8", env: { ...process.env, CI: "" } },
  );

  it("names the failed test, its file and the first line of its error in the summary notes (vitest)", () => {
    const c = countVitest(JSON.parse(readFileSync(out, "utf8")), { label: "api", exitCode: run.status ?? 1, ci: true });
    expect({ passed: c.passed, failed: c.failed }).toEqual({ passed: 0, failed: 1 });
    expect(c.notes).toEqual([
      expect.stringMatching(
        /^failed: api › the health route answers within budget \(.*fails\.test\.mjs\): AssertionError: the stall in ms: expected 2000 to be less than 1500$/,
      ),
    ]);
  });

  it("a test that passes on its retry is counted as passed and named as flaky with its first error (vitest, really run)", () => {
    writeFileSync(path.join(dir, "flaky.test.mjs"), `let n = 0; it("passes the second time", () => { n++; expect(n, "attempt").toBe(2); });`);
    const flakyOut = path.join(dir, "flaky.json");
    const retried = spawnSync(
      process.execPath,
      [
        path.resolve("node_modules/vitest/vitest.mjs"),
        "run",
        "flaky.test.mjs",
        "--root",
        dir,
        "--globals",
        "--retry",
        "1",
        "--reporter=json",
        `--outputFile.json=${flakyOut}`,
      ],
      { encoding: "utf8", env: { ...process.env, CI: "" } },
    );
    expect(retried.status).toBe(0);
    const c = countVitest(JSON.parse(readFileSync(flakyOut, "utf8")), { label: "api", exitCode: 0, ci: true });
    expect({ passed: c.passed, failed: c.failed }).toEqual({ passed: 1, failed: 0 });
    expect(c.notes).toEqual([
      expect.stringMatching(
        /^flaky \(failed, then passed on its retry\): api › passes the second time .*: AssertionError: attempt: expected 1 to be 2/,
      ),
    ]);
  });

  it("names the failed test and its error (Playwright)", () => {
    const report = {
      suites: [
        {
          title: "speech.spec.ts",
          specs: [
            {
              title: "Speak plays",
              tests: [{ status: "unexpected", results: [{ error: { message: "\u001b[31mError: expect(received)\u001b[39m\n\nmore" } }] }],
            },
          ],
        },
      ],
    };
    const c = countPlaywright(report, { label: "browser", exitCode: 1, ci: true });
    expect(c.notes).toEqual(["failed: browser › speech.spec.ts › Speak plays: Error: expect(received)"]);
    const flaky = {
      suites: [
        { title: "guide.spec.ts", specs: [{ title: "reads", tests: [{ status: "flaky", results: [{ error: { message: "Timeout" } }, {}] }] }] },
      ],
    };
    const f = countPlaywright(flaky, { label: "browser", exitCode: 0, ci: true });
    expect({ passed: f.passed, failed: f.failed }).toEqual({ passed: 1, failed: 0 });
    expect(f.notes).toEqual(["flaky (failed, then passed on its retry): browser › guide.spec.ts › reads: Timeout"]);
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

describe("python -m unittest -v, really run", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "lugha-unittest-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, "__init__.py"), "");
  writeFileSync(
    path.join(dir, "test_mix.py"),
    `import unittest

class Mixed(unittest.TestCase):
    def test_ok(self):
        print("prints ... ok")
    def test_fail(self):
        """A docstring: verbose output puts it on a second line."""
        self.assertEqual(1, 2)
    def test_error(self):
        raise RuntimeError("boom")
    @unittest.skip("not on this machine")
    def test_skipped(self):
        pass
    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(1, 2)
    @unittest.expectedFailure
    def test_unexpected_success(self):
        pass
    def test_three_failing_subtests(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertEqual(i, 5)

class NoService(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise RuntimeError("LUGHA_BASE_URL is not set")
    def test_never_runs(self):
        pass
`,
  );
  const run = spawnSync("python3", ["-m", "unittest", "discover", "-v", "-s", dir, "-t", path.dirname(dir)], { encoding: "utf8" });
  const output = `${run.stdout}${run.stderr}`;

  it("unittest itself: 7 ran, and its failure counts are per subTest and per fixture", () => {
    expect(run.status).toBe(1);
    expect(output).toMatch(/^Ran 7 tests in /m);
    expect(output).toMatch(/^FAILED \(failures=4, errors=2, skipped=1, expected failures=1, unexpected successes=1\)$/m);
  });

  it("counts each test once, the setUpClass error as a failure, the skip with its reason", () => {
    const c = countUnittest(output, { label: "python", exitCode: run.status ?? 1, ci: false });
    // passed: test_ok, test_expected_failure; failed: fail, error, subtests (once), unexpected success, setUpClass
    expect({ passed: c.passed, failed: c.failed, skipped: c.skipped }).toEqual({ passed: 2, failed: 5, skipped: 1 });
    expect(c.notes.join("\n")).toMatch(/failed: python › setUpClass \(.*NoService\): the tests under it never ran/);
    expect(c.notes.join("\n")).toMatch(/failed: python › test_fail \(.*Mixed\.test_fail\)/);
    expect(c.notes.join("\n")).toMatch(/failed: python › test_three_failing_subtests \(/);
    expect(c.notes.join("\n")).toMatch(/skipped: python › test_skipped \(.*\) \(not on this machine\)/);
    expect(countUnittest(output, { label: "python", exitCode: 1, ci: true })).toMatchObject({ passed: 2, failed: 6, skipped: 0 });
  });

  it("an all-green run; no python; no result; no test", () => {
    const green = `test_a (t.T.test_a) ... ok\ntest_b (t.T.test_b) ... ok\n\n${"-".repeat(70)}\nRan 2 tests in 0.001s\n\nOK\n`;
    expect(countUnittest(green, { label: "python", exitCode: 0, ci: true })).toMatchObject({ passed: 2, failed: 0, skipped: 0 });
    const missing = countUnittest(undefined, { label: "python", exitCode: 127, ci: false, startError: "spawn python3 ENOENT" });
    expect(missing).toMatchObject({ passed: 0, failed: 1 });
    expect(missing.notes[0]).toMatch(/python did not start: spawn python3 ENOENT/);
    expect(countUnittest("Traceback (most recent call last):\nImportError: no module", { label: "python", exitCode: 1, ci: false })).toMatchObject({
      passed: 0,
      failed: 1,
    });
    expect(countUnittest("\nRan 0 tests in 0.000s\n\nOK\n", { label: "python", exitCode: 0, ci: false })).toMatchObject({ passed: 0, failed: 1 });
    expect(countUnittest("\nRan 0 tests in 0.000s\n\nNO TESTS RAN\n", { label: "python", exitCode: 5, ci: false })).toMatchObject({ failed: 1 });
  });
});
