import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Lexer, type Token, type Tokens } from "marked";
import { describe, expect, it } from "vitest";
import { renderMarkdown, repositoryPath } from "@/app/docs/guide/markdown.mjs";

/**
 * The documentation as a reader meets it: README.md stays a front door (at most 300 lines, the two commands), every
 * relative link in README.md and docs/*.md reaches a file of the repository (and, with a #fragment, a heading of that
 * file, by GitHub's heading ids), and the guide's HTML (what /docs/guide serves) holds no script and no broken anchor.
 */
const ROOT = path.resolve(__dirname, "..");
const DOCS = [
  "README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** Every link and image target in a Markdown file, code spans and blocks excluded. */
function linkTargets(markdown: string): string[] {
  const hrefs: string[] = [];
  const walk = (tokens: Token[] | undefined) => {
    for (const token of tokens ?? []) {
      if (token.type === "link" || token.type === "image") hrefs.push((token as Tokens.Link).href);
      if ("tokens" in token) walk(token.tokens as Token[]);
      if (token.type === "list") for (const item of (token as Tokens.List).items) walk(item.tokens);
      if (token.type === "table") {
        const table = token as Tokens.Table;
        for (const cell of [...table.header, ...table.rows.flat()]) walk(cell.tokens);
      }
    }
  };
  walk(new Lexer({ gfm: true }).lex(markdown));
  return hrefs;
}

const headingIds = new Map<string, Set<string>>();
function idsOf(file: string): Set<string> {
  let ids = headingIds.get(file);
  if (!ids) headingIds.set(file, (ids = new Set(renderMarkdown(read(file), { file }).headings.map((h) => h.id))));
  return ids;
}

describe("README.md", () => {
  const readme = read("README.md");

  it("is a front door: at most 300 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
  });

  it("keeps the two commands for a fresh machine", () => {
    expect(readme).toContain("npm ci && npm run build && npm start");
    expect(readme).toMatch(/^npm test\b/m);
  });

  it("links to every file of docs/", () => {
    const linked = new Set(linkTargets(readme).map((href) => repositoryPath(href, "README.md")));
    for (const file of DOCS.filter((f) => f !== "README.md")) expect(linked, file).toContain(file);
  });
});

describe.each(DOCS)("%s", (file) => {
  const targets = linkTargets(read(file));

  it("has links, and each relative one reaches a file (and heading) of the repository", () => {
    if (file !== "docs/architecture.md") expect(targets.length).toBeGreaterThan(0);
    const broken: string[] = [];
    for (const href of targets) {
      if (/^(https?:|mailto:)/i.test(href)) continue;
      const [target, fragment] = href.split("#");
      const resolved = target === "" ? file : repositoryPath(target, file);
      if (resolved === undefined || resolved.startsWith("../") || path.isAbsolute(target)) {
        broken.push(`${href}: not a path inside the repository`);
        continue;
      }
      if (!existsSync(path.join(ROOT, resolved))) {
        broken.push(`${href}: ${resolved} does not exist`);
        continue;
      }
      if (fragment !== undefined && resolved.endsWith(".md") && !idsOf(resolved).has(fragment))
        broken.push(`${href}: ${resolved} has no heading with id "${fragment}"`);
    }
    expect(broken).toEqual([]);
  });

  it("names no file outside the repository", () => {
    // e.g. ../shared/…, or a path above the checkout: readers have only this repository.
    expect(read(file)).not.toMatch(/\.\.\/(\.\.\/)*shared\//);
    for (const href of targets) if (!/^(https?:|mailto:|#)/i.test(href)) expect(repositoryPath(href, file) ?? "", href).not.toMatch(/^\.\.\//);
  });
});

describe("the guide as /docs/guide serves it", () => {
  const { html, headings } = renderMarkdown(read("docs/guide.md"));

  it("holds no script, inline event handler or javascript: URL, and no raw HTML from the Markdown", () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
    const raw = renderMarkdown('Text <img src=x onerror="alert(1)"> and <script>alert(1)</script>\n\n<div onclick="x()">block</div>\n').html;
    expect(raw).not.toMatch(/<(img|script|div)\b/i);
    expect(raw).toContain("&lt;script&gt;");
  });

  it("gives every heading a unique id, and every in-page link reaches one", () => {
    const ids = headings.map((h) => h.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [, id] of html.matchAll(/href="#([^"]*)"/g)) expect(ids, `#${id}`).toContain(id);
  });

  it("shows the repository path of the other docs it links to, instead of links the site cannot serve", () => {
    expect(html).not.toMatch(/href="[^"#]*\.md/);
    expect(html).toContain("<code>docs/decisions.md</code> in the repository");
  });

  it("ids are GitHub's: punctuation dropped, spaces to hyphens, underscores kept, repeats numbered", () => {
    const { headings: hs } = renderMarkdown("# Translation (`POST /api/v1/translate`)\n## Keeping terms (do_not_translate)\n## Errors\n## Errors\n");
    expect(hs.map((h) => h.id)).toEqual(["translation-post-apiv1translate", "keeping-terms-do_not_translate", "errors", "errors-1"]);
  });

  it("puts tables and code blocks in boxes that scroll on their own", () => {
    expect(html).toMatch(/<section class="scroll-region" aria-label="Table: [^"]+" tabindex="0"><table>/);
    expect(html).toMatch(/<pre class="code-block" tabindex="0"><code class="language-bash">/);
    const labels = [...html.matchAll(/<section class="scroll-region" aria-label="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(labels).size).toBe(labels.length);
  });
});
