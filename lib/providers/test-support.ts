/** Helpers for provider tests (also usable by other modules' tests). Not imported by runtime code. */
import { loadConfig } from "@/lib/config";
import type { UpstreamBudget } from "./client";
import { loadProvidersConfig } from "./config";
import type { ProviderDescriptor } from "./descriptor";
import { PROVIDERS } from "./descriptors";
import { createProviders } from "./index";
import { ProviderError } from "./types";

/** An absolute deadline `ms` from now. */
export function within(ms: number): number {
  return Date.now() + ms;
}

/** The ProviderError a promise rejects with; fails when it resolves or rejects with anything else. */
export async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  let outcome: unknown;
  try {
    outcome = await promise;
  } catch (err) {
    if (err instanceof ProviderError) return err;
    throw new Error(`expected a ProviderError, got ${String(err)}`, { cause: err });
  }
  throw new Error(`expected a ProviderError, but the call succeeded with ${JSON.stringify(outcome)}`);
}

/** Runs `fn` and reports how long it took. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

/** A fetch that answers every call with a fresh copy of `make()`; records the requests. */
export function fakeFetch(make: () => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return make();
  };
  return { fetch, calls };
}

/** No budget: every call may go (tests that are not about budgets). */
export const UNMETERED: UpstreamBudget = { tryAcquire: async () => ({ allowed: true, retryAfterSeconds: 0 }) };

/**
 * The provider registry an environment configures, as the composition root builds it, for tests: `env` parsed by the
 * configuration schema, `catalogue` the providers (default: every descriptor), unmetered unless `budget` is given.
 */
export function testProviders(
  env: Record<string, string | undefined> = {},
  catalogue: readonly ProviderDescriptor[] = PROVIDERS,
  budget: UpstreamBudget = UNMETERED,
) {
  return createProviders(loadProvidersConfig(loadConfig(env), catalogue), catalogue, () => budget);
}
