import type { Metadata } from "next";
import Link from "next/link";
import { SwaggerDocs } from "@/components/SwaggerDocs";

export const metadata: Metadata = { title: "API reference" };

export default function DocsPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold text-slate-950">API reference</h1>
      <div className="mt-2 max-w-3xl space-y-2 text-slate-800">
        <p>
          Every endpoint, field and error code, with examples. To send real requests: press <strong>Authorize</strong>, paste an API key (
          <Link href="/#get-key" className="text-brand-800 underline">
            get one
          </Link>
          ), then open an endpoint and choose <strong>Try it out</strong>. The key stays in this page&apos;s memory.
        </p>
        <p>
          How routing, fallback, glossaries, localisation, the cache, limits and errors work, with examples:{" "}
          <Link href="/docs/guide" className="text-brand-800 underline">
            the developer guide
          </Link>
          .
        </p>
        <p className="text-sm">
          The same document as JSON:{" "}
          <a href="/api/v1/openapi.json" className="font-mono text-brand-800 underline">
            /api/v1/openapi.json
          </a>{" "}
          (OpenAPI 3.0.3).
        </p>
      </div>
      <div className="mt-6 rounded-lg border border-slate-200 bg-white">
        <SwaggerDocs />
      </div>
    </div>
  );
}
