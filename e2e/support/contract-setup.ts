import { afterAll, afterEach, expect, inject } from "vitest";
import { appendTally, takeMismatches } from "./contract";

/*
 * Every api-* test file: after each test, the responses it received that the OpenAPI document does not describe fail
 * it, listed; after the file, its counts go to the tally the global teardown prints.
 */
afterEach(() => {
  const problems = takeMismatches();
  expect(problems, `responses that do not match the served OpenAPI document:\n${problems.join("\n")}`).toEqual([]);
});

afterAll(() => {
  appendTally(inject("database"), expect.getState().testPath ?? "unknown");
  // Responses received in an afterAll hook of the file itself.
  const problems = takeMismatches();
  if (problems.length) throw new Error(`responses that do not match the served OpenAPI document:\n${problems.join("\n")}`);
});
