import { Redis } from "@upstash/redis";

/** An Upstash REST client for a shared store: each request bounded by `timeoutMs`, failing fast instead of retrying. */
export function createUpstashClient(options: { url: string; token: string; timeoutMs: number }): Redis {
  return new Redis({
    url: options.url,
    token: options.token,
    // No retries with back-off (default 5, about 8 s in all): the guard decides what a failure means, quickly.
    retry: { retries: 0 },
    // A function, so each request gets its own deadline; a plain AbortSignal would make the client return a
    // fake "Aborted" result instead of failing.
    signal: () => AbortSignal.timeout(options.timeoutMs),
    enableTelemetry: false,
  });
}
