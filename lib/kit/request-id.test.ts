import { describe, expect, it } from "vitest";
import { requestIdFor } from "./request-id";

describe("requestIdFor", () => {
  it("keeps a well-formed incoming id and replaces anything else with a fresh one", () => {
    expect(requestIdFor("trace-1234:abc")).toBe("trace-1234:abc");
    for (const bad of [null, undefined, "", "short", "has space in it", "x".repeat(65)]) expect(requestIdFor(bad)).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it("never repeats an id, across several refills of the random pool", () => {
    const ids = Array.from({ length: 2_000 }, () => requestIdFor(null));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
  });
});
