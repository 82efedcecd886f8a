"use client";

import { CopyButton } from "../CopyButton";
import { ViewCode } from "./ViewCode";

/** Under every playground result: Copy (the response as JSON) and, for JSON requests, "View code" for the request. */
export function ResultActions({ result, path, request }: { result: unknown; path?: string; request?: Record<string, unknown> }) {
  return (
    <div className="space-y-3">
      <CopyButton value={JSON.stringify(result, null, 2)} label="Copy the response (JSON)" />
      {path && request && <ViewCode path={path} body={request} />}
    </div>
  );
}
