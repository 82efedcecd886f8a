"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { type ApiProblem, callApi } from "@/lib/portal/api";
import { type Bucket, usePlayground } from "./PlaygroundContext";
import type { PlaygroundRequest } from "./ViewCode";

/**
 * The submit logic every playground tab repeats: call the API with the tab's key, note the rate-limit headers for the
 * bucket, keep either the result or the problem, and refresh the server data (requests_total, the usage chart).
 * `toResult` turns the response body (and the request's own inputs) into what the tab shows.
 */
export function useApiCall<TData, TResult>(bucket: Bucket, path: string, toResult: (data: TData, headers: Headers) => TResult) {
  const { apiKey, recordRateLimit } = usePlayground();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TResult | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  /** The last request's body (JSON or multipart), for "View code". */
  const [request, setRequest] = useState<PlaygroundRequest | null>(null);
  /** The X-Request-Id of the last response. */
  const [requestId, setRequestId] = useState<string | null>(null);

  /** Sends `payload`: a JSON object, or a FormData (multipart). */
  async function submit(payload: PlaygroundRequest) {
    setBusy(true);
    setProblem(null);
    const body = payload instanceof FormData ? payload : JSON.stringify(payload);
    setRequest(payload);
    const r = await callApi<TData>(path, { method: "POST", apiKey: apiKey!, body });
    recordRateLimit(bucket, r.rateLimit);
    setBusy(false);
    setRequestId(r.ok ? r.headers.get("x-request-id") : (r.problem.requestId ?? null));
    if (r.ok) setResult(toResult(r.data, r.headers));
    else {
      setResult(null);
      setProblem(r.problem);
    }
    router.refresh(); // requests_total and the usage chart
  }

  return { busy, result, problem, submit, request, requestId };
}
