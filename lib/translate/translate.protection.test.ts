import { describe, expect, it } from "vitest";
import { hostileTranslation } from "@/lib/providers/sandbox";
import { emulatorDeps, icuShape, keptParts, withoutMarks } from "./catalog.protection.test-support";
import { emulatorServersForFile } from "./emulators.test-support";
import { translateText } from "./service";

/**
 * POST /translate's protection (translateText) with `format` text and html, ICU-bearing text included, through the
 * real clients and the emulators' hostile translation, into Luganda, Twi and Swahili (one provider each): the same
 * syntaxes the catalogs protect come back exactly, words beside tags are translated, and the source's spacing
 * around each tag is kept.
 */

const servers = emulatorServersForFile({ translation: "hostile" });

const TARGETS = ["lug", "tw", "sw"] as const;

const translate = (text: string, target: string, format: "text" | "html") =>
  translateText({ text, source_lang: "en", target_lang: target, format }, emulatorDeps(servers));

const TEXT = [
  "Please correct the duplicate data for %(field)s, which must be unique.",
  "Hello %{name}, your total is %<total>.2f today",
  "Hello {name}, item {0} costs {0:>10} and {price!r}",
  "Downloaded %1$s of %2$s files at %5.2f%% speed, %lld left, shared by %1$@",
  "You have {{count, number}} unread messages, {{name}}",
  "Please read $t(common.terms) before signing",
  "<0></0> Active users and <1>SAML</1> login",
  'Read the <a href="%s">Redirection setup</a> and <code>redirection.js</code>',
  "Symfony allows %count% files, {{ limit }} at most",
  'First line\\nSecond line with \\"quotes\\"',
];

const ICU = [
  "{count, plural, one {<strong>#</strong> file} other {<strong>#</strong> files}} deleted",
  "Hello <strong>{title}</strong>, run <code>{command}</code> in <quotaUnits>{days} days</quotaUnits>",
  "{gender, select, female {She sent <b>{count, number}</b> files} other {They sent <b>{count, number}</b> files}}",
];

const HTML = [
  '<p>Hello %(name)s, read the <a href="/guide?x=1&amp;y=2">setup guide</a></p>',
  "<1>SAML</1> login and <0></0> Active",
  "Pay <b>{amount}</b> before <i>%1$s</i>",
];

/** Everything kept, ICU structure included, and no word of the source sent unmasked and left as it was. */
function check(source: string, answer: string) {
  const text = withoutMarks(answer);
  expect(keptParts(text)).toEqual(keptParts(source));
  if (/\{[^{}]*,\s*(plural|select|selectordinal)\s*,/.test(source)) expect(icuShape(text)).toBe(icuShape(source));
  // Code, tags, placeholders, ICU argument names and selectors aside, every word of the source was changed.
  const words = (s: string) =>
    s.replace(/<code>.*?<\/code>|<[^>]*>|\{\s*\w+\s*,\s*\w+|\w+(?=\s*\{)|\{[^{}]*\}|%\S+|\$t\([^)]*\)|\\./g, " ").match(/\b[a-z]{4,}\b/g) ?? [];
  for (const word of words(source)) expect(words(text)).not.toContain(word);
}

describe.each(TARGETS)("POST /translate's protection through the hostile sandbox, into %s", (target) => {
  it.each(TEXT)("text: %s", async (source) => check(source, (await translate(source, target, "text")).translated_text));
  it.each(ICU)("ICU with rich text: %s", async (source) => check(source, (await translate(source, target, "text")).translated_text));
  it.each(HTML)("html: %s", async (source) => check(source, (await translate(source, target, "html")).translated_text));
});

describe("tokens never glue to words", () => {
  it("a word beside a tag is translated, and the source's spacing around each tag comes back", async () => {
    for (const format of ["text", "html"] as const) {
      const r = await translate("Your <b>cart</b> is ready, <i>now</i>!", "lug", format);
      expect(withoutMarks(r.translated_text)).toBe(
        `${hostileTranslation("Your")} <b>${hostileTranslation("cart")}</b> ${hostileTranslation("is ready")}, <i>${hostileTranslation("now")}</i>!`,
      );
    }
  });

  it("a label in angle brackets is translated with its brackets kept", async () => {
    const r = await translate("<None>", "lug", "text");
    expect(withoutMarks(r.translated_text)).toBe(`<${hostileTranslation("None")}>`);
  });
});
