import { AsyncLocalStorage } from "node:async_hooks";
import { CONFIG_DEFAULTS } from "@/lib/config";
import { processLog } from "@/lib/kit/log";
import { type CircuitState, ProviderError, type ProviderId } from "./types";

/** Calls are judged against the latency of their own kind: a speech call legitimately takes far longer than a text one. */
export type CallLane = "text" | "speech";

export interface HangOptions {
  /** A call waits at most this many times the lane's recent p90 answer time before the silence counts as a hang… */
  multiple: number;
  /** …and never less than this. */
  floorMs: Record<CallLane, number>;
  /** The limit while the lane has fewer than `minSamples` answers to judge by (a fresh instance, a fallback provider). */
  coldMs: Record<CallLane, number>;
  minSamples: number;
  /** Answer times kept per lane. */
  samples: number;
}

export const DEFAULT_HANG_OPTIONS: HangOptions = {
  multiple: 3,
  floorMs: { text: 2_000, speech: 10_000 },
  coldMs: { text: 3_500, speech: 30_000 },
  minSamples: 5,
  samples: 50,
};

export interface CircuitOptions {
  /** Consecutive failed calls that open the circuit. */
  failureThreshold: number;
  /** How long the circuit stays open before one probe is let through. */
  cooldownMs: number;
  hang?: HangOptions;
  now?: () => number;
  /** Runs `fn` after `ms`; returns a cancel function. Injectable so tests drive hang detection with their clock. */
  schedule?: (fn: () => void, ms: number) => () => void;
}

export const DEFAULT_CIRCUIT_OPTIONS: CircuitOptions = {
  failureThreshold: CONFIG_DEFAULTS.CIRCUIT_FAILURE_THRESHOLD,
  cooldownMs: CONFIG_DEFAULTS.CIRCUIT_COOLDOWN_MS,
};

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
  // An account out of credit (Hugging Face's 402) is refused by a provider that is up: not its fault either.
  if (err instanceof ProviderError && err.upstreamCode === "OUT_OF_CREDIT") return "neutral";
  return "failure";
}

/**
 * A call the breaker is waiting on. The HTTP layer (http.ts) reaches it through `activeCall()` to report each answer
 * of the provider, the waits it makes between attempts, and to stop when the breaker declares the provider hung.
 */
export class InFlightCall {
  /** When the call started waiting on the provider: its start, or the provider's last answer to it. */
  waitingSince: number;
  /** Between attempts (a backoff or a Retry-After wait) the call is not waiting on the provider. */
  paused = false;
  cancelTimer: () => void = () => {};
  /** Set when the provider is declared hung: the ProviderError the caller sees. */
  cutReason: ProviderError | undefined;
  /**
   * What `cut` ends: the caller's wait (set by the breaker's run) and the attempt in flight (set by the HTTP layer for
   * as long as its attempt runs). Plain callbacks rather than an AbortSignal per call: every provider call has one of
   * these, and almost none is ever cut.
   */
  endWait: (reason: ProviderError) => void = () => {};
  abortAttempt: ((reason: ProviderError) => void) | undefined;

  constructor(
    readonly breaker: CircuitBreaker,
    public lane: CallLane,
    readonly isProbe: boolean,
    startedAt: number,
  ) {
    this.waitingSince = startedAt;
  }

  /** The provider answered this call (headers of any status): a sign of life, and an answer time for the lane. */
  answered(): void {
    this.breaker.noteAnswer(this);
  }

  /** Waiting between attempts, or waiting on the provider again. */
  pause(paused: boolean): void {
    this.paused = paused;
    if (!paused) this.waitingSince = this.breaker.clock();
  }

  /** The provider is hung: the attempt in flight stops and the caller is answered with `reason` at once. */
  cut(reason: ProviderError): void {
    this.cutReason = reason;
    this.cancelTimer();
    this.abortAttempt?.(reason);
    this.endWait(reason);
  }
}

/**
 * The q-quantile of `values` by nearest rank, for q near 1 (every provider call asks for the p90 of the last 50 answer
 * times): only the values from that rank up are kept, in order, instead of sorting them all.
 */
export function upperQuantile(values: readonly number[], q: number): number {
  const rank = Math.min(values.length - 1, Math.max(0, Math.ceil(values.length * q) - 1)); // ascending index
  const top: number[] = []; // the largest values.length - rank values, ascending; top[0] is the answer
  const keep = values.length - rank;
  for (const v of values) {
    if (top.length === keep) {
      if (v <= top[0]) continue;
      top.shift();
    }
    let i = top.length;
    while (i > 0 && top[i - 1] > v) i--;
    top.splice(i, 0, v);
  }
  return top[0];
}

const callScope = new AsyncLocalStorage<InFlightCall>();

/** The breaker's record of the call running in this async context, if any (read by the HTTP layer). */
export function activeCall(): InFlightCall | undefined {
  return callScope.getStore();
}

/**
 * Per-provider circuit breaker. Closed: calls go through and consecutive failures are counted. Open: calls fail at once
 * with kind "circuit_open" until the cooldown ends. Half-open: exactly one probe call goes through; its success closes
 * the circuit, its failure re-opens it for another cooldown, and concurrent calls keep failing fast meanwhile.
 * A whole logical call (retries included) is one success or one failure.
 *
 * Hangs are detected before any timeout: when a call has waited longer than its lane's limit — max(multiple × p90 of
 * the lane's recent answer times, floor), or the cold limit before there are enough answers — and the provider has
 * answered nothing at all meanwhile, the provider is hung. The circuit opens (new calls fail fast, so auto routing
 * moves on at once) and every call waiting on it is cut with a "timeout" failure, so its caller moves on too instead of
 * waiting for the attempt timeout or the deadline. Recovery is by the usual probe, which is never cut this way: it
 * has the full timeouts to prove the provider is back (a slow but working provider closes the circuit with it).
 */
/** How many circuit openings a breaker remembers. */
export const MAX_OPENINGS = 20;

export class CircuitBreaker {
  private state: CircuitState = "closed";
  private consecutiveFailures = 0;
  private openedAt = 0;
  private probeInFlight = false;
  private readonly inFlight = new Set<InFlightCall>();
  private readonly answerTimes: Record<CallLane, number[]> = { text: [], speech: [] };
  /** When the provider last answered anything (any call, any status). */
  private lastAnswerAt = Number.NEGATIVE_INFINITY;
  private readonly hang: HangOptions;
  /** The last openings (newest last, at most MAX_OPENINGS): the incidents the status page lists. */
  readonly openings: { at: number; reason: "failures" | "hung" }[] = [];
  /** Every opening since the process started. */
  openingsTotal = 0;
  private readonly schedule: (fn: () => void, ms: number) => () => void;
  readonly clock: () => number;

  constructor(
    readonly provider: ProviderId,
    private readonly options: CircuitOptions = DEFAULT_CIRCUIT_OPTIONS,
  ) {
    this.clock = options.now ?? Date.now;
    this.hang = options.hang ?? DEFAULT_HANG_OPTIONS;
    this.schedule =
      options.schedule ??
      ((fn, ms) => {
        const timer = setTimeout(fn, ms);
        timer.unref?.();
        return () => clearTimeout(timer);
      });
  }

  /** The state as /health should show it: an open circuit whose cooldown has ended reads as half_open. */
  getState(): CircuitState {
    if (this.state === "open" && this.clock() - this.openedAt >= this.options.cooldownMs) return "half_open";
    return this.state;
  }

  /**
   * Runs one logical call. Validate input before calling this: errors thrown here count as the provider's answer.
   * `signal` is the caller's own cancellation signal, so a cancelled call is not held against the provider.
   */
  async run<T>(call: () => Promise<T>, signal?: AbortSignal, lane: CallLane = "text"): Promise<T> {
    const isProbe = this.admit();
    const entry = new InFlightCall(this, lane, isProbe, this.clock());
    this.inFlight.add(entry);
    if (!isProbe) this.watch(entry);
    try {
      // Settles the moment the provider is declared hung (entry.cut), whatever the call is doing.
      const result = await new Promise<T>((resolve, reject) => {
        entry.endWait = reject;
        callScope.run(entry, call).then(resolve, reject);
      });
      this.onSuccess();
      return result;
    } catch (err) {
      const outcome = outcomeOf(err, signal);
      if (outcome === "failure") this.onFailure();
      else if (outcome === "healthy") this.onSuccess();
      // neutral: a probe slot is simply released below, so the next call probes again.
      throw err;
    } finally {
      entry.cancelTimer();
      this.inFlight.delete(entry);
      if (isProbe) this.probeInFlight = false;
    }
  }

  /** Called through InFlightCall.answered(). */
  noteAnswer(entry: InFlightCall): void {
    const now = this.clock();
    const times = this.answerTimes[entry.lane];
    times.push(now - entry.waitingSince);
    if (times.length > this.hang.samples) times.shift();
    this.lastAnswerAt = now;
    entry.waitingSince = now; // a body that then stalls is a new wait
  }

  /** How long a call of this lane may wait in silence before the provider counts as hung. */
  hangLimitMs(lane: CallLane): number {
    const times = this.answerTimes[lane];
    if (times.length < this.hang.minSamples) return this.hang.coldMs[lane];
    return Math.max(this.hang.multiple * upperQuantile(times, 0.9), this.hang.floorMs[lane]);
  }

  /** Milliseconds until this call's silence reaches its limit (≤ 0: reached). Paused calls are never due. */
  private dueIn(entry: InFlightCall, now: number): number {
    if (entry.paused || entry.isProbe) return Number.POSITIVE_INFINITY;
    return Math.max(entry.waitingSince, this.lastAnswerAt) + this.hangLimitMs(entry.lane) - now;
  }

  /** Checks the call when its silence could reach the limit; re-arms while it has not. */
  private watch(entry: InFlightCall): void {
    const check = () => {
      if (!this.inFlight.has(entry)) return;
      const due = this.dueIn(entry, this.clock());
      if (due <= 0) this.declareHung();
      else entry.cancelTimer = this.schedule(check, Number.isFinite(due) ? due : this.hangLimitMs(entry.lane));
    };
    entry.cancelTimer = this.schedule(check, this.hangLimitMs(entry.lane));
  }

  /** Opens the circuit and cuts every call waiting on the provider (the probe excepted). */
  private declareHung(): void {
    const now = this.clock();
    this.state = "open";
    this.openedAt = now;
    const waiting = [...this.inFlight].filter((e) => !e.isProbe);
    this.opened(now, "hung");
    processLog().warn(
      { event: "circuit_open", provider: this.provider, reason: "hung", waiting: waiting.length, cooldown_ms: this.options.cooldownMs },
      "provider answered nothing while calls waited past their limit; failing fast",
    );
    for (const entry of waiting) entry.cut(new ProviderError(this.provider, "timeout", "provider stopped answering"));
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
    const retryAfterMs = Math.max(0, this.openedAt + this.options.cooldownMs - this.clock());
    throw new ProviderError(this.provider, "circuit_open", "provider temporarily disabled after repeated failures", undefined, retryAfterMs);
  }

  private onSuccess() {
    this.state = "closed";
    this.consecutiveFailures = 0;
  }

  private onFailure() {
    this.consecutiveFailures += 1;
    if (this.state === "half_open" || this.consecutiveFailures >= this.options.failureThreshold) {
      const wasOpen = this.state === "open";
      this.state = "open";
      this.openedAt = this.clock();
      if (!wasOpen) {
        this.opened(this.openedAt, "failures");
        processLog().warn(
          {
            event: "circuit_open",
            provider: this.provider,
            reason: "failures",
            failures: this.consecutiveFailures,
            cooldown_ms: this.options.cooldownMs,
          },
          "provider failed repeatedly; failing fast",
        );
      }
    }
  }

  private opened(at: number, reason: "failures" | "hung") {
    this.openingsTotal++;
    this.openings.push({ at, reason });
    if (this.openings.length > MAX_OPENINGS) this.openings.shift();
  }
}
