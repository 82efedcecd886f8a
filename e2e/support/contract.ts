import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { type ObservedResponse, ResponseContract } from "@/lib/api/openapi/response-contract";

/**
 * The contract check of the API tests: every response a test receives through e2e/support/api.ts is validated against
 * the OpenAPI document the app serves (lib/openapi/response-contract.ts). A mismatch fails the test that received it
 * (contract-setup.ts drains them after each test); the counts of each test file are appended to a tally that the
 * global teardown sums and prints.
 */
let contract: Promise<ResponseContract> | undefined;
const mismatches: string[] = [];
const counts = { validated: 0, out_of_scope: 0, mismatch: 0 };

/** The document is fetched once per test file, from the first app a response came from (every app serves the same build). */
function contractFor(baseUrl: string): Promise<ResponseContract> {
  contract ??= fetch(`${baseUrl}/api/v1/openapi.json`)
    .then((res) => {
      if (!res.ok) throw new Error(`GET /api/v1/openapi.json answered ${res.status}`);
      return res.json();
    })
    .then((doc) => new ResponseContract(doc));
  contract.catch(() => {
    contract = undefined; // the app may have been stopped; the next response fetches it again
  });
  return contract;
}

export async function checkResponse(baseUrl: string, observed: ObservedResponse): Promise<void> {
  let verdict: ReturnType<ResponseContract["check"]>;
  try {
    verdict = (await contractFor(baseUrl)).check(observed);
  } catch (err) {
    verdict = { result: "mismatch", problem: `${observed.method} ${observed.path}: the document could not be loaded (${(err as Error).message})` };
  }
  counts[verdict.result] += 1;
  if (verdict.result === "mismatch") mismatches.push(verdict.problem);
}

/** The mismatches seen since the last call. */
export function takeMismatches(): string[] {
  return mismatches.splice(0);
}

const tallyDir = (database: string) => path.resolve("test-results", `contract-${database}`);

export function appendTally(database: string, file: string): void {
  mkdirSync(tallyDir(database), { recursive: true });
  appendFileSync(path.join(tallyDir(database), `${process.pid}.jsonl`), `${JSON.stringify({ file, ...counts })}\n`);
}

export function resetTally(database: string): void {
  rmSync(tallyDir(database), { recursive: true, force: true });
}

export function readTally(database: string): { files: number; validated: number; out_of_scope: number; mismatch: number } {
  const total = { files: 0, validated: 0, out_of_scope: 0, mismatch: 0 };
  let names: string[] = [];
  try {
    names = readdirSync(tallyDir(database));
  } catch {
    return total;
  }
  for (const name of names) {
    for (const line of readFileSync(path.join(tallyDir(database), name), "utf8")
      .split("\n")
      .filter(Boolean)) {
      const entry = JSON.parse(line);
      total.files += 1;
      total.validated += entry.validated;
      total.out_of_scope += entry.out_of_scope;
      total.mismatch += entry.mismatch;
    }
  }
  return total;
}
