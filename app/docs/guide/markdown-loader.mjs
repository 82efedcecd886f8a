// @ts-check
/**
 * Bundler loader for Markdown files (next.config.mjs, turbopack.rules "*.md"): `import guide from "@/docs/guide.md"`
 * gets the file rendered to HTML when the site is built (./markdown.mjs), so no Markdown is parsed while serving.
 * Exports `html` (also the default export), `headings` ({depth, text, id}, in document order) and `markdown` (the
 * file itself, which /docs/guide.md serves).
 */
import path from "node:path";
import { renderMarkdown } from "./markdown.mjs";

/**
 * @this {{ resourcePath: string; rootContext?: string }}
 * @param {string} source
 */
export default function markdownLoader(source) {
  const file = path
    .relative(this.rootContext ?? process.cwd(), this.resourcePath)
    .split(path.sep)
    .join("/");
  const { html, headings } = renderMarkdown(source, { file });
  return `export const html = ${JSON.stringify(html)};\nexport const headings = ${JSON.stringify(headings)};\nexport const markdown = ${JSON.stringify(source)};\nexport default html;\n`;
}
