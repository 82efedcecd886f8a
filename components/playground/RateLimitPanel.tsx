"use client";

import { useEffect, useState } from "react";
import { formatSeconds } from "@/lib/portal/api";
import { ScrollRegion } from "../ScrollRegion";
import { type Bucket, usePlayground } from "./PlaygroundContext";

export interface RuleView {
  bucket: Bucket;
  endpoints: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Remaining rate-limit budget. The limiter has no read-only peek, and asking it would spend a request, so this shows
 * the limits in force and, per bucket, the X-RateLimit-Remaining the API last reported to this browser (playground
 * calls), aged by X-RateLimit-Reset: once the reset time has passed the window is full again.
 */
export function RateLimitPanel({ rules }: { rules: RuleView[] }) {
  const { rateLimits } = usePlayground();
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);

  return (
    <div>
      <ScrollRegion label="Rate limits table" className="relative">
        <table className="min-w-full text-left text-sm">
          <caption className="sr-only">Rate limits per bucket and the remaining budget last reported by the API</caption>
          <thead className="bg-slate-100">
            <tr>
              <th scope="col" className="px-3 py-2">
                Bucket
              </th>
              <th scope="col" className="px-3 py-2">
                Endpoints
              </th>
              <th scope="col" className="px-3 py-2">
                Limit
              </th>
              <th scope="col" className="px-3 py-2">
                Remaining (last seen)
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rules.map((r) => {
              const seen = rateLimits[r.bucket];
              let remaining = <span className="text-slate-600">not seen yet</span>;
              if (seen && now !== null) {
                remaining =
                  now >= seen.resetAt ? (
                    <span>
                      <strong className="tabular-nums">{seen.limit}</strong> of {seen.limit} <span className="text-slate-700">(window refilled)</span>
                    </span>
                  ) : (
                    <span>
                      <strong className="tabular-nums" data-testid={`remaining-${r.bucket}`}>
                        {seen.remaining}
                      </strong>{" "}
                      of {seen.limit} <span className="text-slate-700">(full again in {formatSeconds((seen.resetAt - now) / 1000)})</span>
                    </span>
                  );
              }
              return (
                <tr key={r.bucket}>
                  <th scope="row" className="px-3 py-2 font-mono font-normal">
                    {r.bucket}
                  </th>
                  <td className="px-3 py-2 text-slate-800">{r.endpoints}</td>
                  <td className="whitespace-nowrap px-3 py-2 tabular-nums">
                    {r.limit} per {r.windowSeconds === 60 ? "minute" : formatSeconds(r.windowSeconds)}
                  </td>
                  <td className="px-3 py-2">{remaining}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
      <p className="mt-2 text-xs text-slate-700">
        Remaining budget is what the API last reported to this browser in <code className="font-mono">X-RateLimit-Remaining</code> (from your
        playground calls here). Reading it without spending a request is not possible, so other clients using the same key are not reflected until
        your next call.
      </p>
    </div>
  );
}
