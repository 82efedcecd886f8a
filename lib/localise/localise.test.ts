import { describe, expect, it } from "vitest";
import { type LocaliseFormat, LocaliseInputError, protect } from "./index";
import { HTML, htmlStructure, ICU, icuSkeleton, MARKDOWN, markdownStructure, placeholders, TEXT } from "./samples.test-support";
import { tokenName } from "./tokens";

/**
 * What a machine translation does to a masked segment, at its most unhelpful but still honest: every word changes
 * (upper-cased here), tokens come back in another case with spaces around them.
 */
const TOKEN = /QZ[A-W]+?X/gi;
function roughTranslate(segment: string): string {
  return segment
    .split(/(QZ[A-W]+?X)/i)
    .map((part) => (TOKEN.test(part) ? ` ${part.toLowerCase()} ` : part.toUpperCase()))
    .join("");
}

describe("localisation: structure and placeholders survive a rough translation", () => {
  const check = async (format: LocaliseFormat, input: string) => {
    const p = await protect(input, { format });
    const restored = p.restore(p.segments.map(roughTranslate));
    if (!restored.ok) throw new Error(`${format} ${JSON.stringify(input)}: ${restored.problem}`);
    return restored.text;
  };

  it(`has at least 60 strings (${TEXT.length + ICU.length + HTML.length + MARKDOWN.length})`, () => {
    expect(TEXT.length + ICU.length + HTML.length + MARKDOWN.length).toBeGreaterThanOrEqual(60);
  });

  it.each(TEXT)("text: %s", async (input) => {
    const out = await check("text", input);
    expect(placeholders(out)).toEqual(placeholders(input));
    expect(out).not.toBe(input); // the words themselves were translated
  });

  it.each(ICU)("ICU: %s", async (input) => {
    const out = await check("text", input);
    expect(icuSkeleton(out)).toEqual(icuSkeleton(input));
    expect(out).not.toBe(input);
  });

  it.each(HTML)("html: %s", async (input) => {
    const out = await check("html", input);
    expect(htmlStructure(out)).toEqual(htmlStructure(input));
    expect(placeholders(out)).toEqual(placeholders(input));
  });

  it.each(MARKDOWN)("markdown: %s", async (input) => {
    const out = await check("markdown", input);
    expect(markdownStructure(out)).toEqual(markdownStructure(input));
    expect(placeholders(out)).toEqual(placeholders(input));
  });
});

describe("localisation: what is translated and what is kept", () => {
  it("html: attributes alt and title are translated as segments of their own; href and src never", async () => {
    const p = await protect('<a href="/x" title="Open settings"><img src="/i.png" alt="Gear icon"></a>', { format: "html" });
    expect(p.segments.slice(1)).toEqual(["Open settings", "Gear icon"]);
    const r = p.restore([p.segments[0], "Ggulawo ensengeka", 'Akabonero "ka" gear']);
    expect(r).toMatchObject({ ok: true, text: '<a href="/x" title="Ggulawo ensengeka"><img src="/i.png" alt="Akabonero &quot;ka&quot; gear"></a>' });
  });

  it("placeholders may move (word order differs between languages)", async () => {
    const p = await protect("{name} sent {amount} to {friend}", { format: "text" });
    const [a, b, c] = [tokenName(0), tokenName(1), tokenName(2)];
    expect(p.segments).toEqual([`${a} sent ${b} to ${c}`]);
    expect(p.restore([`${c} yafunye ${b} okuva ewa ${a}`])).toMatchObject({ ok: true, text: "{friend} yafunye {amount} okuva ewa {name}" });
  });

  it("do-not-translate terms are kept, case-sensitively, as whole words; glossary terms are replaced and reported", async () => {
    const p = await protect("Lugha pays M-Pesa. lugha is a word; Lughas is not Lugha. Plant maize, not MAIZE-like maize.", {
      format: "text",
      doNotTranslate: ["Lugha", "M-Pesa"],
      glossary: [{ source: "maize", target: "kasooli" }],
    });
    const masked = p.segments[0];
    expect(masked).toContain("lugha is a word"); // another case: an ordinary word
    expect(masked).toContain("Lughas"); // not a whole word
    expect(masked).not.toMatch(/\bmaize\b/i);
    const r = p.restore([masked]);
    expect(r).toMatchObject({ ok: true, glossaryTermsApplied: ["kasooli"] });
    if (r.ok) expect(r.text).toBe("Lugha pays M-Pesa. lugha is a word; Lughas is not Lugha. Plant kasooli, not kasooli-like kasooli.");
  });

  it("surrounding whitespace comes back as sent", async () => {
    const p = await protect("  Hello {name}\n", { format: "text" });
    expect(p.restore(["Gyebale QZAX"])).toEqual({ ok: true, text: "  Gyebale {name}\n", glossaryTermsApplied: [] });
  });

  it("markdown: no space is added inside emphasis, which would break it", async () => {
    const p = await protect("Pay **now** please", { format: "markdown" });
    // The provider sees the emphasised word as a word of its own, then the source's spacing comes back.
    expect(p.segments[0]).toMatch(/^Pay QZ[A-W]+X now QZ[A-W]+X please$/);
    const r = p.restore([p.segments[0].replace(/(QZ[A-W]+X) now (QZ[A-W]+X)/, "$1 kati $2")]);
    expect(r).toMatchObject({ ok: true, text: "Pay **kati** please" });
  });
});

describe("localisation: a translation that damaged a protected part is refused, never patched", () => {
  const p = () => protect("<b>Pay</b> {amount} before {date}", { format: "html" });

  it.each([
    ["a token lost", (s: string) => s.replace(/QZCX/, "")],
    ["a token duplicated", (s: string) => `${s} QZCX`],
    ["a token mangled", (s: string) => s.replace("QZCX", "QZ CX")],
    ["a token invented", (s: string) => `${s} QZVVX`],
    ["markup out of its nesting", (s: string) => s.replace(/(QZAX)(.*)(QZBX)/, "$3$2$1")],
  ])("%s", async (_, damage) => {
    const prot = await p();
    expect(prot.restore([damage(prot.segments[0])])).toMatchObject({ ok: false, problem: expect.stringMatching(/translation/) });
  });

  it("an ICU message whose translation breaks its syntax", async () => {
    const prot = await protect("{count, plural, one {# item} other {# items}}", { format: "text" });
    const out = prot.segments.map((s, i) => (i === 1 ? `${s} {` : s));
    expect(prot.restore(out)).toMatchObject({ ok: false, problem: expect.stringContaining("ICU") });
  });

  it("an ICU-looking text that does not parse is the caller's error", async () => {
    await expect(protect("{count, plural, one {# item}", { format: "text" })).rejects.toThrow(LocaliseInputError);
  });

  it("malformed HTML and Markdown do not throw: what is not text is kept as written", async () => {
    for (const [format, input] of [
      ["html", "<b><i>crossed</b></i> <p <p> &unknown; <"],
      ["markdown", "**unclosed *mixed_ [link](no close `tick"],
    ] as const) {
      const prot = await protect(input, { format });
      const r = prot.restore(prot.segments);
      expect(r).toEqual({ ok: true, text: input, glossaryTermsApplied: [] });
    }
  });
});
