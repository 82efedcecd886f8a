/** Hostile values for tests that check caller input is never reflected in an error. Not imported by runtime code. */
import { expect } from "vitest";
import { errorResponse } from "@/lib/api/route";

/** A string that appears nowhere in the service's own wording. */
export const MARKER = "Zq7xMARKx7qZ";

export const HOSTILE_VALUES: readonly string[] = [
  MARKER,
  `<script>alert("${MARKER}")</script>`,
  `${MARKER} `.repeat(400),
  `"${MARKER}\u0000\u202e\n<img src=x onerror=alert(1)>`,
];

/** The response body the caller would get for `err`: it must not contain the marker (in any case). */
export async function expectNotReflected(err: unknown, label: string): Promise<void> {
  const body = await errorResponse(err, "req_test").text();
  expect(body.toLowerCase(), label).not.toContain(MARKER.toLowerCase());
  expect(body, label).not.toContain("<script>");
}

/** What `run` throws (or rejects with); fails when it succeeds. */
export async function thrown(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error("expected an error");
}
