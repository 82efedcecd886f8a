"use client";

import type { SnippetRequest } from "@/lib/portal/snippets";
import { CopyButton } from "../CopyButton";
import { type PlaygroundRequest, snippetRequestOf, ViewCode } from "./ViewCode";

/**
 * Under every playground result: Copy (the response as JSON) and "View code" for the request — the tab's own
 * `snippet`, or one built from `path` and `request`.
 */
export function ResultActions({
  result,
  path,
  request,
  snippet,
}: {
  result: unknown;
  path?: string;
  request?: PlaygroundRequest | null;
  snippet?: SnippetRequest;
}) {
  const code = snippet ?? (path && request ? snippetRequestOf(path, request) : undefined);
  return (
    <div className="space-y-3">
      <CopyButton value={JSON.stringify(result, null, 2)} label="Copy the response (JSON)" />
      {code && <ViewCode snippet={code} />}
    </div>
  );
}
