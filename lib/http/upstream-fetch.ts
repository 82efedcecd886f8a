/**
 * The runtime's own fetch, for calls to the upstream providers. Next.js replaces globalThis.fetch inside the server
 * with a wrapper for its data cache, request deduplication and tracing spans; a provider call uses none of them (a
 * route handler's fetch is never cached, and each translation is a distinct POST), yet pays the wrapper on every
 * call — about 1.5 % of the server's CPU under translate load (bench/results/PROFILE.md). Next.js keeps the function
 * it wrapped as `_nextOriginalFetch`. Resolved on every call, not at import: Next.js patches after modules load, and
 * tests replace globalThis.fetch with a stub (which has no original and is used as it is).
 */
export function upstreamFetch(input: string, init: RequestInit): Promise<Response> {
  const current = globalThis.fetch as typeof fetch & { _nextOriginalFetch?: typeof fetch };
  return (current._nextOriginalFetch ?? current)(input, init);
}
