import type { Metadata } from "next";
import Link from "next/link";
import { html } from "@/docs/guide.md";

export const metadata: Metadata = {
  title: "Developer guide",
  description:
    "Using the Lugha API: keys, translation, routing and fallback, glossaries, localisation, the cache, detection, speech, usage, limits and errors.",
};

/**
 * docs/guide.md as a page. The HTML comes from the build (next.config.mjs turbopack rule → ./markdown-loader.mjs →
 * ./markdown.mjs): this file parses no Markdown. The page itself is rendered per request like every page, because its
 * scripts need the request's CSP nonce (proxy.ts); the guide's HTML holds no script and no event handler of its own.
 */
export default function GuidePage() {
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <p className="mb-6 text-sm text-slate-700">
        Also: the{" "}
        <Link href="/docs" className="text-brand-800 underline">
          API reference
        </Link>{" "}
        (every endpoint, with &ldquo;Try it out&rdquo;) and the{" "}
        <a href="/api/v1/openapi.json" className="text-brand-800 underline">
          OpenAPI document
        </a>
        .
      </p>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: built from the repository's own docs/guide.md at build time, with any raw HTML in it escaped (./markdown.mjs) */}
      <article className="guide" dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}
