/** The transport options every client of this package shares. */
export interface TransportOptions {
  /** Retries after a 429 or a 503 (default 2). */
  maxRetries?: number;
  /** A 429 or 503 that asks to wait longer than this is returned instead of waited for (default 30 s). */
  maxWaitSeconds?: number;
  /** Time allowed for one attempt, in milliseconds (default 120 000; 0 for none). */
  timeoutMs?: number;
  /** Swapped in by tests, or to route requests through your own fetch; defaults to the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait between attempts; defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

const RETRYABLE = new Set([429, 503]);

/**
 * A fetch that retries a 429 (rate limited) or a 503 (providers or the service briefly unavailable) after the
 * `Retry-After` the server sent — or 1 s, then 2 s, … when it sent none — up to `maxRetries` times, never waiting
 * longer than `maxWaitSeconds` at once. Any other answer, and the last one, is returned as it is.
 */
export function retryingFetch(options: TransportOptions): (request: Request) => Promise<Response> {
  const { maxRetries = 2, maxWaitSeconds = 30, timeoutMs = 120_000 } = options;
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  return async function fetchWithRetries(request: Request): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      // A Request body can be read once: every attempt but the last sends a copy.
      const copy = attempt < maxRetries ? request.clone() : request;
      const response = await send(
        timeoutMs > 0 ? new Request(copy, { signal: AbortSignal.any([copy.signal, AbortSignal.timeout(timeoutMs)]) }) : copy,
      );
      if (!RETRYABLE.has(response.status) || attempt >= maxRetries) return response;
      const waitSeconds = retryAfterSeconds(response.headers.get("retry-after")) ?? 2 ** attempt;
      if (waitSeconds > maxWaitSeconds) return response;
      await response.body?.cancel();
      await sleep(waitSeconds * 1000);
    }
  };
}

/** Retry-After as whole seconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
