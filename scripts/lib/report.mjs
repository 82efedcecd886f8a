/**
 * Turns what the test runners report into the closing counts of `npm test`, honestly:
 *  - a test that did not run because its file or project failed to set up is a failure, never a skip;
 *  - a runner that failed without reporting any failed test (it crashed, found no test files, wrote no report) adds one
 *    failure, so a broken run can never end green;
 *  - a skipped test is listed with its reason (vitest: `meta.skipReason`); under CI every skip is a failure, since no
 *    test of this project may be skipped there (a test that does not apply to a project is not registered in it);
 *  - every failed test is named with the first line of its error, and a test that failed once and passed on its retry
 *    (both runners retry once) is counted as passed but named as flaky, so the tail of the log says what happened.
 */

import { stripVTControlCharacters } from "node:util";

/** @typedef {{ passed: number, failed: number, skipped: number, notes: string[] }} Counts */

/** @returns {Counts} */
export const emptyCounts = () => ({ passed: 0, failed: 0, skipped: 0, notes: [] });

/** @param {Counts} into @param {Counts} from */
export function addCounts(into, from) {
  into.passed += from.passed;
  into.failed += from.failed;
  into.skipped += from.skipped;
  into.notes.push(...from.notes);
  return into;
}

/**
 * A failed test named in the summary with the first line of its error, so the tail of a long CI log says which test
 * failed and why without scrolling back through thousands of lines.
 */
function failedNote(c, name, message, prefix = "failed") {
  const first = stripVTControlCharacters(String(message ?? ""))
    .split("\n")
    .map((line) => line.trim())
    .find(Boolean);
  c.notes.push(`${prefix}: ${name}${first ? `: ${first.slice(0, 300)}` : ""}`);
}

/** A test that failed once and passed on its retry counts as passed (as the runner says) and is named as flaky. */
const FLAKY = "flaky (failed, then passed on its retry)";

/** The closing line: "N passed, N failed", then ", N skipped" when there are skips. */
export function summaryLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
}

/** A step that is one check (build, typecheck, lint): passed when it exited 0. */
export function countCheck(label, exitCode) {
  const c = emptyCounts();
  if (exitCode === 0) c.passed = 1;
  else {
    c.failed = 1;
    c.notes.push(`failed: ${label} (exit ${exitCode})`);
  }
  return c;
}

function skip(c, name, reason, ci) {
  if (ci) {
    c.failed += 1;
    c.notes.push(`failed: ${name} was skipped (${reason}); nothing may be skipped under CI`);
  } else {
    c.skipped += 1;
    c.notes.push(`skipped: ${name} (${reason})`);
  }
}

/**
 * Counts a vitest JSON report (`--reporter=json`).
 * @param {any} report the parsed report, or undefined when none was written
 * @param {{ label: string, exitCode: number, ci: boolean }} run
 * @returns {Counts}
 */
export function countVitest(report, { label, exitCode, ci }) {
  const c = emptyCounts();
  if (!report) {
    c.failed = 1;
    c.notes.push(`failed: ${label} wrote no report (exit ${exitCode})`);
    return c;
  }
  for (const file of report.testResults ?? []) {
    const fileFailed = file.status === "failed";
    // A hook that fails inside a describe leaves its tests "skipped" and the file's message empty; vitest prints the
    // error itself. So in a failed file a skip without a reason is a test that never ran.
    const setupError = file.message || "a beforeAll/beforeEach hook failed (its error is printed above)";
    const tests = file.assertionResults ?? [];
    if (tests.length === 0 && fileFailed) {
      c.failed += 1;
      c.notes.push(`failed: ${file.name} did not load: ${file.message || "no tests collected"}`);
      continue;
    }
    let notRun = 0;
    for (const t of tests) {
      const where = `${label} › ${t.fullName} (${file.name.split("/").slice(-2).join("/")})`;
      if (t.status === "passed") {
        c.passed += 1;
        if (t.failureMessages?.length) failedNote(c, where, t.failureMessages[0], FLAKY);
      } else if (t.status === "failed") {
        c.failed += 1;
        failedNote(c, where, t.failureMessages?.[0]);
      } else if (fileFailed && !t.meta?.skipReason) notRun += 1;
      else skip(c, `${label} › ${t.fullName}`, t.meta?.skipReason ?? "no reason given", ci);
    }
    if (notRun) {
      c.failed += notRun;
      c.notes.push(`failed: ${notRun} test(s) of ${file.name} never ran: ${setupError}`);
    }
  }
  if (exitCode !== 0 && c.failed === 0) {
    c.failed = 1;
    c.notes.push(`failed: ${label} exited ${exitCode} without a failed test in its report`);
  }
  return c;
}

/** The message of a Playwright attempt's first error. */
const firstError = (result) => (result?.error ?? result?.errors?.[0])?.message;

/**
 * Counts a Playwright JSON report.
 * @param {any} report the parsed report, or undefined when none was written
 * @param {{ label: string, exitCode: number, ci: boolean }} run
 * @returns {Counts}
 */
export function countPlaywright(report, { label, exitCode, ci }) {
  const c = emptyCounts();
  if (!report) {
    c.failed = 1;
    c.notes.push(`failed: ${label} wrote no report (exit ${exitCode})`);
    return c;
  }
  const visit = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const name = [...path, spec.title].join(" › ");
        if (test.status === "expected") c.passed += 1;
        else if (test.status === "flaky") {
          c.passed += 1;
          failedNote(c, `${label} › ${name}`, firstError(test.results?.[0]), FLAKY);
        } else if (test.status === "unexpected") {
          c.failed += 1;
          failedNote(c, `${label} › ${name}`, firstError(test.results?.at(-1)));
        } else skip(c, `${label} › ${name}`, test.annotations?.find((a) => a.type === "skip")?.description ?? "no reason given", ci);
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...path, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, [suite.title]);
  for (const error of report.errors ?? []) {
    c.failed += 1;
    c.notes.push(`failed: ${label}: ${String(error.message ?? error).split("\n")[0]}`);
  }
  if (exitCode !== 0 && c.failed === 0) {
    c.failed = 1;
    c.notes.push(`failed: ${label} exited ${exitCode} without a failed test in its report`);
  }
  return c;
}

const FIXTURES = /^(setUpClass|setUpModule|tearDownClass|tearDownModule) \(/;

/**
 * Counts the output of `python -m unittest -v` (stdout and stderr together). unittest writes no report file, so the
 * text is read: "Ran N tests", the closing "OK"/"FAILED (failures=…, errors=…, skipped=…, …)" and the headers of
 * the failure listing ("FAIL: test_x (module.Class.test_x) (i=1)"). A test counts once however many of its subTests
 * failed; an unexpected success is a failure, an expected failure a pass; an error in setUpClass / setUpModule (or
 * their tearDowns) is a failure of its own, since the tests under it never ran and unittest does not count them.
 * @param {string | undefined} output everything the run printed; undefined when it could not start (no python3)
 * @param {{ label: string, exitCode: number, ci: boolean, startError?: string }} run
 * @returns {Counts}
 */
export function countUnittest(output, { label, exitCode, ci, startError }) {
  const c = emptyCounts();
  if (output === undefined) {
    c.failed = 1;
    c.notes.push(`failed: ${label} did not start${startError ? `: ${startError}` : ""}`);
    return c;
  }
  const ranMatches = [...output.matchAll(/^Ran (\d+) tests? in /gm)];
  const summaries = [...output.matchAll(/^(OK|FAILED|NO TESTS RAN)(?: \(([^)]*)\))?\s*$/gm)];
  if (!ranMatches.length || !summaries.length) {
    c.failed = 1;
    c.notes.push(`failed: ${label} printed no unittest result (exit ${exitCode})`);
    return c;
  }
  const ran = Number(ranMatches.at(-1)[1]);
  const summary = Object.fromEntries(
    (summaries.at(-1)[2] ?? "")
      .split(",")
      .map((part) => part.trim().split("="))
      .filter(([key, value]) => key && value !== undefined)
      .map(([key, value]) => [key, Number(value)]),
  );

  const failing = new Set();
  const fixtures = [];
  for (const [, kind, name] of output.matchAll(/^={70}\n(ERROR|FAIL|UNEXPECTED SUCCESS): (.+)$/gm)) {
    if (kind === "ERROR" && FIXTURES.test(name)) fixtures.push(name);
    else failing.add(name.replace(/^(\S+ \([^)]*\)).*$/, "$1")); // a subTest's "(i=1)" is the same test
  }
  // A failure the listing did not show (another format): the summary's own counts.
  const reported = (summary.failures ?? 0) + (summary.errors ?? 0) + (summary["unexpected successes"] ?? 0);
  const failingTests = failing.size || (reported > 0 ? Math.max(0, reported - fixtures.length) : 0);
  const skipped = summary.skipped ?? 0;

  c.failed = failingTests + fixtures.length;
  c.passed = Math.max(0, ran - failingTests - skipped);
  for (const name of failing) c.notes.push(`failed: ${label} › ${name}`);
  for (const name of fixtures) c.notes.push(`failed: ${label} › ${name}: the tests under it never ran`);
  const skips = [...output.matchAll(/^(\S+ \([^)]*\))(?:\n[^\n]*)? \.\.\. skipped '(.*)'$/gm)];
  for (let i = 0; i < skipped; i++) skip(c, `${label} › ${skips[i]?.[1] ?? "a test"}`, skips[i]?.[2] ?? "no reason given", ci);
  if (ran === 0) {
    c.failed += 1;
    c.notes.push(`failed: ${label} ran no test`);
  }
  if (exitCode !== 0 && c.failed === 0) {
    c.failed = 1;
    c.notes.push(`failed: ${label} exited ${exitCode} without a failed test in its output`);
  }
  return c;
}
