import { parse as parseIcu } from "@formatjs/icu-messageformat-parser";
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { type DefaultTreeAdapterTypes, parseFragment } from "parse5";

/**
 * The localisation table (app strings of every kind: placeholders, ICU plurals, nested HTML, Markdown with code and
 * links, RTL and emoji neighbours) and the structure each format must keep, compared with real parsers (parse5,
 * mdast, the ICU parser). Used by lib/localise's unit tests and by the API tests through every provider's emulator.
 */

/** Structure of HTML: every element with its untranslated attributes, comments and code-like content, in order. */
export function htmlStructure(html: string): string[] {
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
export function markdownStructure(md: string): unknown {
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
export const placeholders = (s: string) => [...s.matchAll(PLACEHOLDER_FORMS)].map((m) => m[0]).sort();

export const TEXT: string[] = [
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

export const ICU: string[] = [
  "You have {count, plural, one {# new message} other {# new messages}}",
  "{count, plural, =0 {No items} one {One item} other {# items}} in your cart",
  "{gender, select, female {She replied} male {He replied} other {They replied}}",
  "{count, plural, offset:1 =0 {Nobody} =1 {{name}} one {{name} and # other} other {{name} and # others}} liked this",
  "It is your {n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} visit",
  "{a, plural, one {{b, select, x {# X one} other {# other one}}} other {many}}",
  "Hello {name}, {count, plural, one {# file was} other {# files were}} shared",
  "{count, plural, one {Pay {amount} now} other {Pay {amount} each}}",
];

export const HTML: string[] = [
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

export const MARKDOWN: string[] = [
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

/** Same arguments, selectors and nesting: the parsed ICU message without its literal text. */
export function icuSkeleton(message: string): string {
  return JSON.stringify(parseIcu(message, { ignoreTag: true }), (_, v) =>
    Array.isArray(v) ? v.filter((e) => !(e && typeof e === "object" && e.type === 0)) : v,
  );
}
