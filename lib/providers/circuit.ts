import { type CircuitState, ProviderError, type ProviderId } from "./types";

export interface CircuitOptions {
  /** Consecutive failed calls that open the circuit. */
  failureThreshold: number;
  /** How long the circuit stays open before one probe is let through. */
  cooldownMs: number;
  now?: () => number;
}

export const DEFAULT_CIRCUIT_OPTIONS: CircuitOptions = { failureThreshold: 5, cooldownMs: 30_000 };

type Outcome = "failure" | "healthy" | "neutral";

/**
 * Only faults of the provider count. A caller error the provider answered ("rejected": unsupported pair, model not
 * deployed) proves it is up; counting it would let one client with bad input take a healthy provider out of service for
 * everyone. A call the caller cancelled says nothing either way.
 */
function outcomeOf(err: unknown, signal: AbortSignal | undefined): Outcome {
  if (signal?.aborted) return "neutral";
  if (err instanceof ProviderError && err.kind === "rejected") return "healthy";
  if (err instanceof ProviderError && err.kind === "circuit_open") return "neutral";
  return "failure";
}

/**
 * Per-provider circuit breaker. Closed: calls go through and consecutive failures are counted. Open: calls fail at once
 * with kind "circuit_open" until the cooldown ends. Half-open: exactly one probe call goes through; its success closes
 * the circuit, its failure re-opens it for another cooldown, and concurrent calls keep failing fast meanwhile.
 * A whole logical call (retries included) is one success or one failure.
 */
export class CircuitBreaker {
  private state: CircuitState = "closed";
  private consecutiveFailures = 0;
  private openedAt = 0;
  private probeInFlight = false;
  private readonly now: () => number;

  constructor(
    readonly provider: ProviderId,
    private readonly options: CircuitOptions = DEFAULT_CIRCUIT_OPTIONS,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The state as /health should show it: an open circuit whose cooldown has ended reads as half_open. */
  getState(): CircuitState {
    if (this.state === "open" && this.now() - this.openedAt >= this.options.cooldownMs) return "half_open";
    return this.state;
  }

  /**
   * Runs one logical call. Validate input before calling this: errors thrown here count as the provider's answer.
   * `signal` is the caller's own cancellation signal, so a cancelled call is not held against the provider.
   */
  async run<T>(call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const isProbe = this.admit();
    try {
      const result = await call();
      this.onSuccess();
      return result;
    } catch (err) {
      const outcome = outcomeOf(err, signal);
      if (outcome === "failure") this.onFailure();
      else if (outcome === "healthy") this.onSuccess();
      // neutral: a probe slot is simply released below, so the next call probes again.
      throw err;
    } finally {
      if (isProbe) this.probeInFlight = false;
    }
  }

  /** Returns whether this call is the half-open probe; throws circuit_open when the call may not proceed. */
  private admit(): boolean {
    const state = this.getState();
    if (state === "closed") return false;
    if (state === "half_open" && !this.probeInFlight) {
      this.state = "half_open";
      this.probeInFlight = true;
      return true;
    }
    const retryAfterMs = Math.max(0, this.openedAt + this.options.cooldownMs - this.now());
    throw new ProviderError(this.provider, "circuit_open", "provider temporarily disabled after repeated failures", undefined, retryAfterMs);
  }

  private onSuccess() {
    this.state = "closed";
    this.consecutiveFailures = 0;
  }

  private onFailure() {
    this.consecutiveFailures += 1;
    if (this.state === "half_open" || this.consecutiveFailures >= this.options.failureThreshold) {
      this.state = "open";
      this.openedAt = this.now();
    }
  }
}
