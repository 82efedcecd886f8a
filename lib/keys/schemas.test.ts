import { describe, expect, it } from "vitest";
import { IssueKeyRequest } from "./schemas";

const issueTypes = (name: string) => {
  const r = IssueKeyRequest.safeParse({ name });
  return r.success ? [] : r.error.issues.map((i) => ("params" in i ? i.params?.type : i.code));
};

describe("key names", () => {
  it.each([
    ["zero-width spaces", "\u200B\u200B\u200B"],
    ["zero-width joiner and non-joiner", "\u200D\u200C"],
    ["word joiner and byte-order mark", "\u2060\uFEFF\u2060"],
    ["invisible separators around spaces", " \u2063 \u2064 "],
    ["a lone combining mark", "\u0301"],
    ["Hangul fillers", "\u3164\u115F"],
  ])("refuses a name made only of invisible characters (%s): it would show as blank", (_, name) => {
    expect(issueTypes(name)).toEqual(["string_too_short"]);
  });

  it.each([
    ["an emoji sequence joined by ZWJ", "👩‍💻 team"],
    ["a script that needs ZWNJ", "می‌خواهم"],
    ["Devanagari with ZWJ", "क्‍ष app"],
    ["one visible letter among invisible ones", "\u200Bx\u200B"],
    ["punctuation only", "---"],
  ])("accepts %s", (_, name) => {
    expect(issueTypes(name)).toEqual([]);
  });
});
