"use client";

import { buildSnippets, type SnippetRequest } from "@/lib/portal/snippets";
import { CodeBlock } from "../CodeBlock";
import { usePlayground } from "./PlaygroundContext";

/** The request a playground tab just sent: a JSON body, or a multipart form (text fields and files). */
export type PlaygroundRequest = Record<string, unknown> | FormData;

/** A tab's request as "View code" describes it: JSON to `path`, or a speech-to-text upload (lib/portal/snippets.ts). */
export function snippetRequestOf(path: string, request: PlaygroundRequest): SnippetRequest {
  if (!(request instanceof FormData)) return { kind: "json", path, body: request };
  const fields: Record<string, string> = {};
  let file = "recording.wav";
  for (const [name, value] of request.entries()) {
    if (typeof value === "string") fields[name] = value;
    else file = value.name || file;
  }
  return { kind: "transcribe", file, fields };
}

/**
 * "View code" under a playground result: the request just made, as curl, JavaScript (fetch, nothing to install) and
 * Python (this repository's client, or the standard library), then the same call through the other protocols for the
 * tools that speak them, with this tab's key filled in, each with its own Copy button. A tab passes its own
 * SnippetRequest (`snippet`), or a path and body.
 */
export function ViewCode({ snippet }: { snippet: SnippetRequest }) {
  const { apiKey } = usePlayground();
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const snippets = buildSnippets(snippet, origin, apiKey!);
  return (
    <details className="text-sm" data-testid="view-code">
      <summary className="cursor-pointer font-medium text-brand-800 underline underline-offset-2">View code</summary>
      <div className="mt-2 space-y-3">
        <CodeBlock label="curl" code={snippets.curl} />
        <CodeBlock label="JavaScript (fetch; Node 18+ as an ES module, e.g. request.mjs)" code={snippets.js} />
        <p className="text-slate-700">
          Prefer a typed client? <code className="font-mono">@lugha/client</code>, with the <code className="font-mono">lugha</code> command line, is
          not on the npm registry yet: in a checkout of this repository run <code className="font-mono">npm pack -w @lugha/client</code>, then{" "}
          <code className="font-mono">npm install</code> the <code className="font-mono">.tgz</code> it writes in your project (
          <a href="/docs/guide#installing-the-clients">the guide</a>).
        </p>
        <CodeBlock label={snippets.install.python ? "Python (the lugha client)" : "Python (standard library)"} code={snippets.python} />
        {snippets.install.python && (
          <p className="text-slate-700">
            Install the client first: <code className="font-mono">{snippets.install.python}</code>
          </p>
        )}
        {snippets.tools.length > 0 && (
          <p className="text-slate-700">
            The same call from the tools you already have, through the APIs they speak (LibreTranslate, DeepL, OpenAI&rsquo;s audio API, MCP; the
            guide&rsquo;s <a href="/docs/guide#use-lugha-from-the-tools-you-already-have">&ldquo;Use Lugha from the tools you already have&rdquo;</a>{" "}
            gives each tool&rsquo;s settings):
          </p>
        )}
        {snippets.tools.map((tool) => (
          <CodeBlock key={tool.label} label={tool.label} code={tool.code} />
        ))}
      </div>
    </details>
  );
}
