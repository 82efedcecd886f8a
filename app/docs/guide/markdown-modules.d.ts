/** Markdown files imported by the site, rendered to HTML at build time by app/docs/guide/markdown-loader.mjs. */
declare module "*.md" {
  /** The rendered HTML. */
  export const html: string;
  /** The headings, in document order, with the ids the HTML gives them. */
  export const headings: { depth: number; text: string; id: string }[];
  /** The Markdown source as written. */
  export const markdown: string;
  export default html;
}
