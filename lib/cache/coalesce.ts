/**
 * Single-flight: concurrent calls with the same key share one execution of `fn`.
 *
 * - The first caller for a key starts `fn`; callers arriving while it runs get the same outcome (`shared: true`), so
 *   100 identical requests in flight make one upstream call.
 * - Settled flights are forgotten at once: a rejection reaches every caller then in flight, and the next call runs
 *   `fn` again (errors are never remembered; successes are the cache's business, not this one's).
 * - `fn` must not depend on one caller's cancellation, since others may be waiting on it; each caller may stop
 *   waiting with its own `signal` while the shared call goes on for the rest.
 */
import { instruments } from "@/lib/kit/telemetry";

export class SingleFlight<T> {
  private readonly flights = new Map<string, Promise<T>>();

  async run(key: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<{ value: T; shared: boolean }> {
    signal?.throwIfAborted();
    let flight = this.flights.get(key);
    const shared = flight !== undefined;
    if (shared) instruments()?.coalesced.add(1);
    if (!flight) {
      const started = Promise.resolve().then(fn);
      flight = started;
      this.flights.set(key, started);
      // Registered before any waiter's continuation, so the flight is gone before a waiter can call again.
      const forget = () => {
        if (this.flights.get(key) === started) this.flights.delete(key);
      };
      started.then(forget, forget);
    }
    return { value: await (signal ? abortable(flight, signal) : flight), shared };
  }

  /** A call for `key` is in flight: run() would join it. */
  has(key: string): boolean {
    return this.flights.has(key);
  }

  /** Keys with a call in flight. */
  get size(): number {
    return this.flights.size;
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
