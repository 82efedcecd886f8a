import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/kit/errors";
import { resolveLanguageCode } from "./resolve";

describe("resolveLanguageCode (translate, batch and glossaries)", () => {
  it("gives the canonical code for any accepted spelling", () => {
    expect(resolveLanguageCode("ENG", "source_lang")).toBe("en");
    expect(resolveLanguageCode("lug", "target_lang")).toBe("lug");
  });

  it("answers 422 UNSUPPORTED_LANGUAGE on the field, under the caller's location, without quoting the value", () => {
    const value = "<b>zz-hostile</b>";
    let caught: unknown;
    try {
      resolveLanguageCode(value, "target_lang", ["body", "items", 2]);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ApiError);
    const err = caught as ApiError;
    expect(err.code).toBe("UNSUPPORTED_LANGUAGE");
    expect(err.options.errors).toEqual([{ loc: ["body", "items", 2, "target_lang"], msg: err.message, type: "unsupported_language" }]);
    expect(JSON.stringify(err.options)).not.toContain("hostile");
    expect(err.message).not.toContain("hostile");
  });
});
