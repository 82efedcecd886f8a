import { CONFIG_DEFAULTS } from "@/lib/config";
import { noteUpstreamCall } from "@/lib/kit/telemetry";
import { type UpstreamResponse, upstreamFetch } from "@/lib/kit/upstream-fetch";
import { MAX_AUDIO_BYTES, sniffAudioType } from "./audio";
import { activeCall, CircuitBreaker, type CircuitOptions, DEFAULT_CIRCUIT_OPTIONS } from "./circuit";
import {
  DEFAULT_HTTP_POLICY,
  type FetchLike,
  type HttpPolicy,
  isJsonResponse,
  readBytes,
  readText,
  type SendOptions,
  send,
  tryParseJson,
} from "./http";
import { type CircuitState, ProviderError, type ProviderId, type ProviderMode } from "./types";

export interface ClientOptions {
  baseUrl: string;
  /** Token or subscription key; omitted → no auth header (a loopback emulator that does not check). */
  credential?: string;
  mode?: ProviderMode;
  /** Defaults to upstreamFetch (node:http with keep-alive, lib/kit/upstream-fetch.ts); the in-process sandbox injects its emulator here. */
  fetch?: FetchLike;
  policy?: Partial<HttpPolicy>;
  /** Per-attempt timeout for speech calls, which legitimately take longer than translation. */
  speechAttemptTimeoutMs?: number;
  circuit?: Partial<CircuitOptions>;
  /** False for a live provider without credential or custom URL: calls fail fast instead of reaching the public API. */
  configured?: boolean;
  /** The request budget this provider's API calls draw on (lib/budgets); omitted → unmetered (sandbox, tests). */
  budget?: UpstreamBudget;
}

/** What a client needs of the upstream budgets (lib/budgets UpstreamBudgets): one request's token, or a refusal. */
export interface UpstreamBudget {
  tryAcquire(provider: ProviderId): Promise<{ allowed: boolean; retryAfterSeconds: number }>;
  /**
   * The provider answered 429 without saying when to come back: refuse its requests until its rate window resets,
   * on every instance sharing the budget.
   */
  hold?(provider: ProviderId): Promise<void>;
}

/**
 * The upstreamCode of a provider that answered that the account has no credit left (Hugging Face's 402). Not a fault:
 * the provider is up, it will not work for this account until the credit is renewed or topped up.
 */
export const OUT_OF_CREDIT = "OUT_OF_CREDIT";
/** After an out-of-credit answer, calls fail at once for this long; then one call is let through to check again. */
export const CREDIT_RECHECK_MS = 10 * 60_000;

/** The upstreamCode of a budget refusal: the request was never sent. */
export const BUDGET_REFUSED = "UPSTREAM_BUDGET";

export const DEFAULT_SPEECH_ATTEMPT_TIMEOUT_MS = CONFIG_DEFAULTS.PROVIDER_SPEECH_TIMEOUT_MS;

type CallOptions<T> = Omit<SendOptions<T>, "provider" | "fetch" | "policy" | "url"> & { path: string; speech?: boolean };

/** What every provider client shares: identity, transport, retry policy and its circuit breaker. */
export abstract class BaseClient {
  readonly mode: ProviderMode;
  readonly baseUrl: string;
  readonly circuit: CircuitBreaker;
  protected readonly credential?: string;
  protected readonly fetchImpl: FetchLike;
  protected readonly policy: HttpPolicy;
  protected readonly speechPolicy: HttpPolicy;
  readonly isConfigured: boolean;
  private readonly budget?: UpstreamBudget;
  /** When the provider last answered that the account's credit is spent; undefined while it has credit. */
  private outOfCreditAt?: number;

  protected constructor(
    readonly id: ProviderId,
    opts: ClientOptions,
  ) {
    this.mode = opts.mode ?? "live";
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    this.credential = opts.credential || undefined;
    this.fetchImpl = opts.fetch ?? upstreamFetch;
    this.policy = { ...DEFAULT_HTTP_POLICY, ...opts.policy };
    this.speechPolicy = { ...this.policy, attemptTimeoutMs: opts.speechAttemptTimeoutMs ?? DEFAULT_SPEECH_ATTEMPT_TIMEOUT_MS };
    this.circuit = new CircuitBreaker(id, { ...DEFAULT_CIRCUIT_OPTIONS, ...opts.circuit });
    this.isConfigured = opts.configured ?? true;
    this.budget = opts.budget;
  }

  get circuitState(): CircuitState {
    return this.circuit.getState();
  }

  /** Whether the provider's last word on the account was that its credit is spent (see OUT_OF_CREDIT). */
  get outOfCredit(): boolean {
    return this.outOfCreditAt !== undefined;
  }

  /** A request to this provider's API (base URL + path), with retries, under the circuit breaker and the budget. */
  protected call<T>({ path, speech, ...rest }: CallOptions<T>): Promise<T> {
    return this.guard((upstream) => this.sendTo(`${this.baseUrl}${path}`, speech, rest, upstream), rest.signal);
  }

  /**
   * One logical operation (possibly several requests) counted once by the circuit breaker. `operation` sends every
   * request to this provider's API through `upstream`, which takes one budget token per request (retries included):
   * the provider never receives more than its budget, whichever key or instance sends. The first request's token is
   * taken here, before the circuit, so a refusal (a busy gateway, not a failing provider) never counts against the
   * provider's health; it fails the call at once with kind "rate_limited" and the wait in retryAfterMs, and auto
   * routing moves on as it does for an open circuit. A retry refused later ends a call whose first attempt already
   * failed at the provider, and counts as that failure.
   */
  protected async guard<T>(operation: (upstream: FetchLike) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (!this.isConfigured) throw new ProviderError(this.id, "auth", "provider is not configured");
    // Out of credit: every call would be refused (and counted), so none is sent until it is time to check again.
    const waited = this.outOfCreditAt === undefined ? 0 : Date.now() - this.outOfCreditAt;
    if (this.outOfCreditAt !== undefined && waited < CREDIT_RECHECK_MS)
      throw new ProviderError(this.id, "rate_limited", "provider is out of credit", undefined, CREDIT_RECHECK_MS - waited, OUT_OF_CREDIT);
    try {
      const result = await this.metered(operation, signal);
      this.outOfCreditAt = undefined;
      return result;
    } catch (err) {
      if (err instanceof ProviderError && err.upstreamCode === OUT_OF_CREDIT) this.outOfCreditAt = Date.now();
      throw err;
    }
  }

  private async metered<T>(operation: (upstream: FetchLike) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (!this.budget) return this.circuit.run(() => operation(this.counted), signal);
    // An open circuit fails fast in run(); taking a token first would spend it on a request that is never sent.
    if (this.circuit.getState() !== "open") await this.spend(this.budget);
    let prepaid = true;
    const upstream: FetchLike = async (input, init) => {
      if (prepaid) prepaid = false;
      else await this.spend(this.budget!);
      const res = await this.counted(input, init);
      // A bare 429 (Sunbird's per-minute limit sends no Retry-After): the provider's window is spent, whoever spent it.
      if (res.status === 429 && !res.headers.get("retry-after")) await this.budget!.hold?.(this.id).catch(() => {});
      return res;
    };
    return this.circuit.run(() => operation(upstream), signal);
  }

  /** Sends a request to this provider's API, counted as one upstream call (a quota unit) of the request in flight. */
  private readonly counted: FetchLike = (input, init) => {
    noteUpstreamCall(this.id);
    return this.fetchImpl(input, init);
  };

  private async spend(budget: UpstreamBudget): Promise<void> {
    const decision = await budget.tryAcquire(this.id);
    if (!decision.allowed)
      throw new ProviderError(
        this.id,
        "rate_limited",
        "upstream request budget reached",
        undefined,
        decision.retryAfterSeconds * 1000,
        BUDGET_REFUSED,
      );
  }

  /**
   * A request with this client's transport and policy but no circuit accounting of its own (a step inside a call).
   * `fetch` is the operation's `upstream` for requests to this provider's API; the default (unmetered) is for
   * anything else, such as Sunbird's signed audio links on Cloud Storage.
   */
  protected sendTo<T>(url: string, speech: boolean | undefined, rest: Omit<CallOptions<T>, "path" | "speech">, fetch = this.fetchImpl): Promise<T> {
    const breakerCall = activeCall(); // hang detection judges a speech call by speech answer times
    if (breakerCall && speech) breakerCall.lane = "speech";
    return send({ ...rest, url, provider: this.id, fetch, policy: speech ? this.speechPolicy : this.policy });
  }

  /** Auth and fixed headers for every request to this provider's API; Bearer unless a client says otherwise. */
  protected defaultHeaders(): Record<string, string> {
    return this.credential ? { authorization: `Bearer ${this.credential}` } : {};
  }

  protected headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...extra, ...this.defaultHeaders() };
  }

  /** Input the provider would refuse: thrown before any call, and never counted against the provider's health. */
  protected reject(message: string, upstreamCode?: string): never {
    throw new ProviderError(this.id, "rejected", message, undefined, undefined, upstreamCode);
  }

  /**
   * Maps a non-2xx answer (its body already read) to a safe ProviderError, per the provider's error shapes. `context`
   * is what the client passed to readJson/readAudio (HF: the model id; Sunbird: the download step).
   */
  protected abstract failure(res: UpstreamResponse, body: string, context?: string): ProviderError;

  /**
   * The parsed JSON of a 2xx answer. A non-2xx goes through `failure`; a 2xx that is not JSON (an HTML gateway page,
   * a truncated body) is malformed, never a result.
   */
  protected async readJson(res: UpstreamResponse, signal: AbortSignal, context?: string): Promise<unknown> {
    const text = await readText(res, this.id, this.policy.maxBodyBytes, signal);
    if (!res.ok) throw this.failure(res, text, context);
    if (!isJsonResponse(res)) throw this.malformed("provider returned a non-JSON page", res.status);
    const body = tryParseJson(text);
    if (body === undefined) throw this.malformed("provider sent an unreadable response", res.status);
    return body;
  }

  /** Audio bytes of a 2xx answer, typed by their magic bytes: an HTML or JSON page labelled audio is malformed. */
  protected async readAudio(res: UpstreamResponse, signal: AbortSignal, context?: string): Promise<{ audio: Uint8Array; contentType: string }> {
    if (!res.ok) throw this.failure(res, await readText(res, this.id, this.policy.maxBodyBytes, signal), context);
    const audio = await readBytes(res, this.id, MAX_AUDIO_BYTES, signal);
    const contentType = sniffAudioType(audio);
    if (!contentType) throw this.malformed("provider returned no audio", res.status);
    return { audio, contentType };
  }

  protected malformed(message: string, status?: number): ProviderError {
    return new ProviderError(this.id, "malformed", message, status);
  }
}
