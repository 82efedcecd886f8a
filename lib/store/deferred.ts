import { errorFields, processLog } from "@/lib/kit/log";
import { describeFailure } from "./failure";

/**
 * A shared-store backend (Redis or Upstash) whose module, and the client library behind it, is imported in the
 * background when the store is created instead of with the route: an instance on the in-process stores never loads
 * ioredis or @upstash/* at all (≈40 ms of every cold start). Calls made before the import finishes wait for it.
 *
 * A backend that cannot be built (a malformed URL) is reported once, under `label`; every call on it then fails with
 * that error, so the caller's fail mode decides (never a 500 on every request), and its health check says why.
 */
export function deferredBackend<T>(label: string, backend: string, build: () => Promise<T>) {
  const ready = build();
  ready.catch((err) =>
    processLog().error({ event: "store_misconfigured", component: label, store: backend, ...errorFields(err) }, "cannot configure the store"),
  );
  return {
    /** The backend, once built; rejects with the build's error when it cannot be. */
    get: () => ready,
    /** The health of a backend that could not be built. */
    misconfigured: (err: unknown) => ({ ok: false, detail: `${backend} misconfigured (${describeFailure(err)})` }),
  };
}
