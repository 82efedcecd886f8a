import { describe, expect, it } from "vitest";
import { localeTag, pluralInfo } from "./plurals";

describe("locale tags", () => {
  it.each([
    ["lug", "lg"],
    ["LG", "lg"],
    ["twi", "tw"],
    ["tw", "tw"],
    ["ewe", "ee"],
    ["yor", "yo"],
    ["swh", "sw"],
    ["ach", "ach"],
    ["nyn", "nyn"],
    ["teo", "teo"],
    ["lgg", "lgg"],
    ["acholi", "ach"],
    ["pt_br", "pt-BR"],
    [" fr-ca ", "fr-CA"],
  ])("%s → %s", (code, tag) => {
    expect(localeTag(code)).toBe(tag);
  });
  it("refuses what is not a language code", () => {
    expect(() => localeTag("")).toThrow(RangeError);
    expect(() => localeTag("en us")).toThrow(RangeError);
  });
});

/** The table the report quotes: what Node's ICU (or the fallback) says for the languages Lugha serves first. */
const LANGUAGES = [
  "en",
  "lug",
  "ach",
  "nyn",
  "teo",
  "lgg",
  "ak",
  "tw",
  "fat",
  "ee",
  "yo",
  "sw",
  "rw",
  "ki",
  "gaa",
  "luo",
  "ha",
  "ig",
  "zu",
  "am",
  "ln",
  "fr",
  "pt",
  "ar",
];

describe("plural rules", () => {
  for (const code of LANGUAGES) {
    const info = pluralInfo(code);
    it(`${code} (${info.tag}): ${info.categories.join("/")}; ordinal ${info.ordinal.join("/")}; ${info.basis}; ${info.gettextPluralForms}`, () => {
      expect(info.categories[info.categories.length - 1]).toBe("other");
      // The gettext expression (C syntax, which is also JavaScript) picks msgstr[i] = the i-th category.
      const [, nplurals, expression] = /^nplurals=(\d+); plural=(.+);$/.exec(info.gettextPluralForms ?? "")!;
      expect(Number(nplurals)).toBe(info.categories.length);
      const evaluate = new Function("n", `return Number(${expression});`) as (n: number) => number;
      const samples = [...Array.from({ length: 300 }, (_, n) => n), 1000, 1001, 100000, 1000000, 2000000, 3000001, 10000000];
      for (const n of samples) expect(info.categories[evaluate(n)], `n = ${n}`).toBe(info.select(n));
    });
  }

  it("uses CLDR where ICU has the language, the table or the default elsewhere", () => {
    expect(pluralInfo("lug")).toMatchObject({ basis: "cldr", categories: ["one", "other"] });
    expect(pluralInfo("nyn")).toMatchObject({ basis: "cldr", categories: ["one", "other"] });
    expect(pluralInfo("yo")).toMatchObject({ basis: "cldr", categories: ["other"], gettextPluralForms: "nplurals=1; plural=0;" });
    expect(pluralInfo("ak").select(0)).toBe("one");
    expect(pluralInfo("tw")).toMatchObject({ basis: "table", categories: ["one", "other"], gettextPluralForms: "nplurals=2; plural=(n > 1);" });
    expect(pluralInfo("ach")).toMatchObject({ basis: "table", gettextPluralForms: "nplurals=2; plural=(n > 1);" });
    expect(pluralInfo("lgg")).toMatchObject({ basis: "default", categories: ["one", "other"], gettextPluralForms: "nplurals=2; plural=(n != 1);" });
    expect(pluralInfo("ar").categories).toEqual(["zero", "one", "two", "few", "many", "other"]);
  });
});
