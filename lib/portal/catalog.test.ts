import { describe, expect, it } from "vitest";
import { formatFromName, targetFileName } from "./catalog";

describe("the playground's catalog file names", () => {
  it("reads the format from the extension", () => {
    expect(
      ["en.json", "app_en.arb", "messages.pot", "a.xlf", "strings.xml", "Localizable.strings", "en.yml", "c.srt", "c.vtt", "README.md"].map(
        formatFromName,
      ),
    ).toEqual(["json", "arb", "po", "xliff", "android", "strings", "yaml", "srt", "vtt", "markdown"]);
    expect(formatFromName("notes.txt")).toBeUndefined();
  });

  it("names the target after the source, replacing its language where the name holds it", () => {
    expect(targetFileName("en.json", "en", "lug")).toBe("lug.json");
    expect(targetFileName("app_en.arb", "en", "tw")).toBe("app_tw.arb");
    expect(targetFileName("messages.pot", "en", "lug")).toBe("lug.po");
    expect(targetFileName("captions.srt", "en", "ach")).toBe("captions.ach.srt");
    expect(targetFileName("en-US.json", "en", "lug")).toBe("lug.json");
  });
});
