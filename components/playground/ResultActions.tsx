"use client";

import { CopyButton } from "../CopyButton";
import { type PlaygroundRequest, ViewCode } from "./ViewCode";

/** Under every playground result: Copy (the response as JSON) and, given the request, "View code" for it. */
export function ResultActions({ result, path, request }: { result: unknown; path?: string; request?: PlaygroundRequest | null }) {
  return (
    <div className="space-y-3">
      <CopyButton value={JSON.stringify(result, null, 2)} label="Copy the response (JSON)" />
      {path && request && <ViewCode path={path} request={request} />}
    </div>
  );
}
