import { deferredBackend } from "./deferred";

/*
 * The shared-store kit: what the rate limits, the upstream budgets, the translation cache and model availability
 * keep in one store — in process, in a plain Redis (REDIS_URL) or in Upstash over REST (Vercel). Each of those
 * features brings its own store class; this kit gives them the clients (./redis, ./upstash: imported only where a
 * backend is configured, so an instance on the in-process stores never loads ioredis or @upstash/*), the timeout and
 * failure description every call uses, and the one way a shared backend is built (sharedBackend).
 */

export { deferredBackend } from "./deferred";
export { describeFailure, pingHealth, TimeoutError, withTimeout } from "./failure";

export type StoreBackend = "memory" | "redis" | "upstash";

/** Which store the configuration selects, and where it is (lib/server builds it from the configuration). */
export interface StoreSettings {
  backend: StoreBackend;
  /** REDIS_URL, when backend is redis. */
  redisUrl?: string;
  /** The Upstash REST URL and token, when backend is upstash. */
  upstash?: { url: string; token: string };
  /** Bound on one call to the store. */
  timeoutMs: number;
}

/** How a feature builds its store on each shared backend (its module imported inside, so only when configured). */
export interface SharedBuilders<S> {
  redis(url: string, timeoutMs: number): Promise<S>;
  upstash(url: string, token: string, timeoutMs: number): Promise<S>;
}

/**
 * A feature's store on the configured shared backend, built in the background (deferred.ts): calls wait for it, and a
 * backend that cannot be built is reported once under `label` and fails every call.
 */
export function sharedBackend<S>(label: string, settings: StoreSettings, build: SharedBuilders<S>) {
  const { backend, timeoutMs } = settings;
  if (backend === "memory") throw new Error("sharedBackend needs a redis or upstash backend");
  return deferredBackend(label, backend, () =>
    backend === "upstash"
      ? build.upstash(settings.upstash?.url ?? "", settings.upstash?.token ?? "", timeoutMs)
      : build.redis(settings.redisUrl ?? "", timeoutMs),
  );
}
