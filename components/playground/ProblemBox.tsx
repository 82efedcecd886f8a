"use client";

import { type ApiProblem, formatSeconds } from "@/lib/portal/api";

/** An API error as the playground shows it: the message, status, code, Retry-After, request id and field errors. */
export function ProblemBox({ problem, what }: { problem: ApiProblem; what: string }) {
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900">
      <p>
        <strong>
          {what} failed: {problem.message}
        </strong>
      </p>
      <p className="mt-1 font-mono text-xs">
        HTTP {problem.status} {problem.code}
        {problem.retryAfter ? ` · Retry-After ${problem.retryAfter} s (${formatSeconds(problem.retryAfter)})` : ""}
        {problem.requestId ? ` · ${problem.requestId}` : ""}
      </p>
      {problem.errors && problem.errors.length > 0 && (
        <ul className="mt-2 list-disc pl-5">
          {problem.errors.map((e) => (
            <li key={`${e.loc.join(".")}: ${e.msg}`}>
              <code className="font-mono">{e.loc.join(".")}</code>
              {/* The message above often is this very sentence: say each sentence once. */}
              {e.msg.trim() === problem.message.trim() ? null : `: ${e.msg}`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
