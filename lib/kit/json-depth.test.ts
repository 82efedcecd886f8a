import { describe, expect, it } from "vitest";
import { exceedsJsonDepth } from "./json-depth";

const enc = (s: string) => new TextEncoder().encode(s);

describe("exceedsJsonDepth", () => {
  it("counts nesting of arrays and objects", () => {
    expect(exceedsJsonDepth(enc('{"a":[{"b":1}]}'), 3)).toBe(false);
    expect(exceedsJsonDepth(enc('{"a":[{"b":[1]}]}'), 3)).toBe(true);
    expect(exceedsJsonDepth(enc("[".repeat(33) + "]".repeat(33)), 32)).toBe(true);
    expect(exceedsJsonDepth(enc("[".repeat(32) + "]".repeat(32)), 32)).toBe(false);
  });

  it("ignores brackets inside strings, escaped quotes included", () => {
    expect(exceedsJsonDepth(enc(`{"text":"${"[{".repeat(100)}"}`), 2)).toBe(false);
    expect(exceedsJsonDepth(enc(`{"text":"a\\"[[[[[\\\\"}`), 1)).toBe(false);
    expect(exceedsJsonDepth(enc(`{"text":"a\\\\",[[[[[1]]]]]}`), 3)).toBe(true);
  });

  it("treats multi-byte UTF-8 as string content", () => {
    expect(exceedsJsonDepth(enc('{"t":"Ɛ👋🏾[["}'), 1)).toBe(false);
  });
});
