import { parse as parseIcu } from "@formatjs/icu-messageformat-parser";
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { type DefaultTreeAdapterTypes, parseFragment } from "parse5";
import { describe, expect, it } from "vitest";
import { type LocaliseFormat, LocaliseInputError, protect } from "./index";
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

/** Structure of HTML: every element with its untranslated attributes, comments and code-like content, in order. */
function htmlStructure(html: string): string[] {
  const out: string[] = [];
  const visit = (node: DefaultTreeAdapterTypes.ChildNode) => {
    if (node.nodeName === "#comment") out.push(`<!--${(node as DefaultTreeAdapterTypes.CommentNode).data}-->`);
    if (!("tagName" in node)) return;
    const attrs = node.attrs.filter((a) => !["alt", "title", "placeholder", "aria-label"].includes(a.name)).map((a) => `${a.name}=${a.value}`);
    out.push(`<${node.tagName} ${attrs.join(" ")}>`);
    if (["code", "pre", "script", "style"].includes(node.tagName))
      out.push(JSON.stringify(node.childNodes.map((c) => ("value" in c ? c.value : ""))));
    for (const child of node.childNodes) visit(child);
    out.push(`</${node.tagName}>`);
  };
  for (const node of parseFragment(html).childNodes) visit(node);
  return out;
}

/** Structure of Markdown: node types, URLs, code and depth, without the text. */
function markdownStructure(md: string): unknown {
  const strip = (node: Nodes): unknown => {
    const { type } = node;
    const keep: Record<string, unknown> = { type };
    for (const k of ["url", "depth", "ordered", "lang"] as const) if (k in node) keep[k] = (node as unknown as Record<string, unknown>)[k];
    if (type === "inlineCode" || type === "code" || type === "html") keep.value = (node as { value: string }).value;
    if ("children" in node) keep.children = node.children.map(strip);
    return keep;
  };
  return strip(fromMarkdown(md));
}

const PLACEHOLDER_FORMS = /\{\{[^{}]+\}\}|\$\{[^{}]+\}|\{[^{}]+\}|%(?:\d+\$)?[-+ #0]*\d*(?:\.\d+)?[a-zA-Z@%]|&[#\w]+;/g;
const placeholders = (s: string) => [...s.matchAll(PLACEHOLDER_FORMS)].map((m) => m[0]).sort();

const TEXT: string[] = [
  "Hello {name}, you have {count} new messages",
  "Hello {{name}}, welcome back",
  "Hello {{ user.firstName }}!",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a JavaScript-style placeholder, on purpose
  "Total: ${amount} due ${date}",
  "Pay %s before %d days",
  "%1$s sent you %2$d shillings",
  "Progress: %.2f%% done",
  "Uploading %@ of %@",
  "{0} liked your post",
  "{user} and {count, number} others",
  "Due {due, date, short} at {due, time, short}",
  "Order #{orderId} shipped",
  "Use {code} at checkout, {name}.",
  "{greeting}{name}!",
  "Meeting at 10:30: bring notes",
  "Balance {balance, number, ::currency/UGX}",
  "مرحبا {name} 👋",
  "{count}👍 and {likes}❤️",
  "👋🏾 Hi %s",
  "Tap {button} to continue → {next}",
  "Your code is {otp}. It expires in {minutes} minutes.",
  "Reply STOP to {shortcode}",
];

const ICU: string[] = [
  "You have {count, plural, one {# new message} other {# new messages}}",
  "{count, plural, =0 {No items} one {One item} other {# items}} in your cart",
  "{gender, select, female {She replied} male {He replied} other {They replied}}",
  "{count, plural, offset:1 =0 {Nobody} =1 {{name}} one {{name} and # other} other {{name} and # others}} liked this",
  "It is your {n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} visit",
  "{a, plural, one {{b, select, x {# X one} other {# other one}}} other {many}}",
  "Hello {name}, {count, plural, one {# file was} other {# files were}} shared",
  "{count, plural, one {Pay {amount} now} other {Pay {amount} each}}",
];

const HTML: string[] = [
  "<b>Pay</b> before %1$s",
  'Click <a href="/settings?tab=keys&amp;x=1">here</a> to manage keys',
  "<p>Hello <strong>{name}</strong>, <em>welcome</em>!</p>",
  "<ul><li>One</li><li>Two <b>three</b></li></ul>",
  '<img src="/logo.png" alt="The Lugha logo"> Lugha',
  '<abbr title="Application programming interface">API</abbr> keys',
  "Fish &amp; chips &mdash; &#8212; &#x2014; ok",
  "Line one<br>Line two<br/>Line three",
  "<p>Run <code>npm install &lt;pkg&gt;</code> first</p>",
  "<pre>  keep   this\n  exactly </pre><p>Then continue</p>",
  "<!-- note for translators --><span>Save</span>",
  '<input placeholder="Search languages" type="search">',
  "<div><div><span><b><i>Deep</i></b></span></div></div>",
  "<b>Unclosed bold and <i>italic",
  "Stray </b> closing tag and <p>paragraph",
  '<a href="https://example.com" title="Example site">Visit {site}</a> today',
  "<b>שלום</b> {x} עולם",
  "<span>👋🏾</span> <b>Karibu</b>",
];

const MARKDOWN: string[] = [
  "Pay **now** with [M-Pesa](https://example.com/pay) and `code`.",
  "# Title\n\nSome *emphasis* and **strong** text.",
  "- item one\n- item *two*\n- item `three`",
  '1. First\n2. Second with [link](https://a.b/c "Title")',
  "```js\nconst x = {name};\n```\n\nAfter the block",
  "> Quote with **bold**\n\nAnd a paragraph",
  "![Alt text](/img.png) caption",
  "Use `npm test` to run ~~old~~ tests",
  "Line with trailing spaces  \nand a hard break",
  "Hello {name}, see <https://example.com>",
  "## Heading with `code` and {placeholder}",
  "Text with a <b>html</b> tag inside",
  "***Bold italic*** and _underscore_",
  "[ref link][1]\n\n[1]: https://example.com",
];

describe("localisation: structure and placeholders survive a rough translation", () => {
  const check = (format: LocaliseFormat, input: string) => {
    const p = protect(input, { format });
    const restored = p.restore(p.segments.map(roughTranslate));
    if (!restored.ok) throw new Error(`${format} ${JSON.stringify(input)}: ${restored.problem}`);
    return restored.text;
  };

  it(`has at least 60 strings (${TEXT.length + ICU.length + HTML.length + MARKDOWN.length})`, () => {
    expect(TEXT.length + ICU.length + HTML.length + MARKDOWN.length).toBeGreaterThanOrEqual(60);
  });

  it.each(TEXT)("text: %s", (input) => {
    const out = check("text", input);
    expect(placeholders(out)).toEqual(placeholders(input));
    expect(out).not.toBe(input); // the words themselves were translated
  });

  it.each(ICU)("ICU: %s", (input) => {
    const out = check("text", input);
    // Same arguments, selectors and nesting: the parsed message without its literal text.
    const skeleton = (s: string) =>
      JSON.stringify(parseIcu(s, { ignoreTag: true }), (_, v) =>
        Array.isArray(v) ? v.filter((e) => !(e && typeof e === "object" && e.type === 0)) : v,
      );
    expect(skeleton(out)).toEqual(skeleton(input));
    expect(out).not.toBe(input);
  });

  it.each(HTML)("html: %s", (input) => {
    const out = check("html", input);
    expect(htmlStructure(out)).toEqual(htmlStructure(input));
    expect(placeholders(out)).toEqual(placeholders(input));
  });

  it.each(MARKDOWN)("markdown: %s", (input) => {
    const out = check("markdown", input);
    expect(markdownStructure(out)).toEqual(markdownStructure(input));
    expect(placeholders(out)).toEqual(placeholders(input));
  });
});

describe("localisation: what is translated and what is kept", () => {
  it("html: attributes alt and title are translated as segments of their own; href and src never", () => {
    const p = protect('<a href="/x" title="Open settings"><img src="/i.png" alt="Gear icon"></a>', { format: "html" });
    expect(p.segments.slice(1)).toEqual(["Open settings", "Gear icon"]);
    const r = p.restore([p.segments[0], "Ggulawo ensengeka", 'Akabonero "ka" gear']);
    expect(r).toMatchObject({ ok: true, text: '<a href="/x" title="Ggulawo ensengeka"><img src="/i.png" alt="Akabonero &quot;ka&quot; gear"></a>' });
  });

  it("placeholders may move (word order differs between languages)", () => {
    const p = protect("{name} sent {amount} to {friend}", { format: "text" });
    const [a, b, c] = [tokenName(0), tokenName(1), tokenName(2)];
    expect(p.segments).toEqual([`${a} sent ${b} to ${c}`]);
    expect(p.restore([`${c} yafunye ${b} okuva ewa ${a}`])).toMatchObject({ ok: true, text: "{friend} yafunye {amount} okuva ewa {name}" });
  });

  it("do-not-translate terms are kept, case-sensitively, as whole words; glossary terms are replaced and reported", () => {
    const p = protect("Lugha pays M-Pesa. lugha is a word; Lughas is not Lugha. Plant maize, not MAIZE-like maize.", {
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

  it("surrounding whitespace comes back as sent", () => {
    const p = protect("  Hello {name}\n", { format: "text" });
    expect(p.restore(["Gyebale QZAX"])).toEqual({ ok: true, text: "  Gyebale {name}\n", glossaryTermsApplied: [] });
  });

  it("markdown: no space is added inside emphasis, which would break it", () => {
    const p = protect("Pay **now** please", { format: "markdown" });
    const r = p.restore([p.segments[0].replace(/(QZ[A-W]+X)now(QZ[A-W]+X)/, "$1 kati $2")]);
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
  ])("%s", (_, damage) => {
    const prot = p();
    expect(prot.restore([damage(prot.segments[0])])).toMatchObject({ ok: false, problem: expect.stringMatching(/translation/) });
  });

  it("an ICU message whose translation breaks its syntax", () => {
    const prot = protect("{count, plural, one {# item} other {# items}}", { format: "text" });
    const out = prot.segments.map((s, i) => (i === 1 ? `${s} {` : s));
    expect(prot.restore(out)).toMatchObject({ ok: false, problem: expect.stringContaining("ICU") });
  });

  it("an ICU-looking text that does not parse is the caller's error", () => {
    expect(() => protect("{count, plural, one {# item}", { format: "text" })).toThrow(LocaliseInputError);
  });

  it("malformed HTML and Markdown do not throw: what is not text is kept as written", () => {
    for (const [format, input] of [
      ["html", "<b><i>crossed</b></i> <p <p> &unknown; <"],
      ["markdown", "**unclosed *mixed_ [link](no close `tick"],
    ] as const) {
      const prot = protect(input, { format });
      const r = prot.restore(prot.segments);
      expect(r).toEqual({ ok: true, text: input, glossaryTermsApplied: [] });
    }
  });
});
