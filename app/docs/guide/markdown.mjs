// @ts-check
/**
 * The guide's Markdown (docs/guide.md) as HTML for the site's /docs/guide page. Runs at build time, inside the bundler
 * (./markdown-loader.mjs), never per request. Also used by scripts/docs.test.ts, which checks the docs' links with the
 * same anchors.
 *
 *  - Headings get the id GitHub gives them (so `#routing-and-fallback` works on the site and on GitHub alike), and a
 *    "#" link to themselves beside them.
 *  - Code blocks scroll sideways inside their own box and can be focused to scroll them with the keyboard; tables sit
 *    in a labelled, focusable region that scrolls (globals.css: .scroll-region), so neither widens a phone's page.
 *  - Links to other files of the repository (docs/*.md, ../README.md) show the file's repository path as text: the
 *    site does not serve those files. Links within the page and to http(s) addresses stay links.
 *  - Raw HTML in the Markdown is shown as text, never passed through: the page's Content-Security-Policy allows no
 *    inline script, and the rendered guide must not need one (no <script>, no on…= attributes, no javascript: URLs).
 */
import { Marked } from "marked";

/** @param {string} s */
export function escapeHtml(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** @param {string} s */
function unescapeHtml(s) {
  return s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/**
 * GitHub's heading ids (as the github-slugger package computes them): lower case, every character that is not a
 * letter, mark, number, connector punctuation (`_`), hyphen or space removed, spaces turned into hyphens; a repeated id
 * gets `-1`, `-2`, … appended.
 */
export function createSlugger() {
  /** @type {Map<string, number>} */
  const seen = new Map();
  /** @param {string} text */
  return (text) => {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base);
    seen.set(base, (count ?? -1) + 1);
    return count === undefined ? base : `${base}-${count + 1}`;
  };
}

/**
 * The repository path a relative link from `fromFile` points to ("docs/clients.md", "README.md"), without its
 * #fragment; it starts with "../" when the link leaves the repository. Undefined for links that are not relative paths
 * (http:, mailto:, #…, /…).
 * @param {string} href
 * @param {string} fromFile repository path of the Markdown file, e.g. "docs/guide.md"
 */
export function repositoryPath(href, fromFile) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#") || href.startsWith("/")) return undefined;
  const target = href.split("#")[0];
  if (target === "") return undefined;
  const parts = fromFile.split("/").slice(0, -1);
  for (const part of target.split("/")) {
    // Above the root, ".." is kept, so that callers see the link leaves the repository.
    if (part === "..") {
      if (parts.length > 0 && parts[parts.length - 1] !== "..") parts.pop();
      else parts.push("..");
    } else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/") + (target.endsWith("/") ? "/" : "");
}

/**
 * @typedef {{ depth: number; text: string; id: string }} Heading
 * @param {string} markdown
 * @param {{ file?: string }} [options] `file`: the Markdown file's repository path (default docs/guide.md)
 * @returns {{ html: string; headings: Heading[] }}
 */
export function renderMarkdown(markdown, { file = "docs/guide.md" } = {}) {
  const slug = createSlugger();
  /** @type {Heading[]} */
  const headings = [];
  /** @type {Set<string>} */
  const regionLabels = new Set();
  let section = "";

  const marked = new Marked({
    gfm: true,
    async: false,
    renderer: {
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        const text = unescapeHtml(this.parser.parseInline(tokens, this.parser.textRenderer));
        const id = slug(text);
        headings.push({ depth, text, id });
        section = text;
        const label = escapeHtml(`Link to the section “${text}”`);
        // The "#" link sits beside the heading, not inside it, so the heading's accessible name is its text alone.
        return `<div class="heading-row"><h${depth} id="${id}">${inner}</h${depth}><a class="heading-anchor" href="#${id}" aria-label="${label}">#</a></div>\n`;
      },
      code({ text, lang }) {
        const language = (lang ?? "").match(/^[\w-]+/)?.[0];
        const cls = language ? ` class="language-${escapeHtml(language)}"` : "";
        return `<pre class="code-block" tabindex="0"><code${cls}>${escapeHtml(text.replace(/\n$/, ""))}</code></pre>\n`;
      },
      table(token) {
        let label = section ? `Table: ${section}` : "Table";
        for (let n = 2; regionLabels.has(label); n++) label = `${section ? `Table: ${section}` : "Table"} (${n})`;
        regionLabels.add(label);
        const head = `<tr>${token.header.map((cell) => this.tablecell(cell)).join("")}</tr>`;
        const body = token.rows.map((row) => `<tr>${row.map((cell) => this.tablecell(cell)).join("")}</tr>`).join("\n");
        return `<section class="scroll-region" aria-label="${escapeHtml(label)}" tabindex="0"><table><thead>${head}</thead><tbody>${body}</tbody></table></section>\n`;
      },
      link({ href, title, tokens }) {
        const inner = this.parser.parseInline(tokens);
        const path = repositoryPath(href, file);
        if (path !== undefined) {
          const fragment = href.includes("#") ? href.slice(href.indexOf("#")) : "";
          if (path === file) return `<a href="${escapeHtml(fragment || "#")}">${inner}</a>`;
          return `${inner} <span class="repo-path">(<code>${escapeHtml(path)}</code> in the repository)</span>`;
        }
        if (!/^(https?:|mailto:|#)/i.test(href)) return inner; // javascript:, data:, site paths: text only
        const titleAttr = title ? ` title="${escapeHtml(title)}"` : "";
        return `<a href="${escapeHtml(href)}"${titleAttr}>${inner}</a>`;
      },
      image({ text }) {
        return escapeHtml(text);
      },
      html({ text }) {
        return escapeHtml(text);
      },
    },
  });

  const html = /** @type {string} */ (marked.parse(markdown));
  return { html, headings };
}
