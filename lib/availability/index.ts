import { processLog } from "@/lib/kit/log";
import { describeFailure, withTimeout } from "@/lib/store";
import type { AvailabilityStore } from "./store";

/**
 * Live availability: which models and capabilities the upstreams actually serve now, as opposed to what the provider
 * descriptors say they could serve.
 *
 *  - Subjects. `model:<provider>:<model>` (a model an upstream does not run: Hugging Face 400 "not supported by
 *    provider", 404 Not Found, or the Hub listing no hf-inference deployment) and `pair:<provider>:<source>><target>`
 *    (an upstream refusing a language it is listed for).
 *  - Learning. At once, from an upstream's answer (`noteFailure`), and for Hugging Face models from the Hub's model
 *    information (`checker`), asked only for models whose state is unknown or expired — never by calling the models.
 *  - Sharing. Each finding is written to the shared store with AVAILABILITY_TTL_SECONDS (default 1 h); every instance
 *    re-reads the store when its local copy is older than AVAILABILITY_SYNC_SECONDS (default 60 s, at most the TTL), so
 *    a model one instance finds unavailable leaves routing and /languages on every instance within the TTL. After
 *    the TTL the subject is unknown again, so it is re-checked.
 *  - Failure of the store: bounded by a timeout; the instance keeps its local knowledge and goes on (logged once).
 *  - Unknown is available: a subject nobody has found unavailable is routed (the first refusal marks it).
 */

export interface AvailabilityRecord {
  available: boolean;
  /** Our wording, never an upstream body. */
  reason: string;
  /** "hub" (model information) or "upstream" (an answer to a real call). */
  source: "hub" | "upstream";
  checkedAt: number;
  expiresAt: number;
}

/** Asks whether a subject is served (the Hub for Hugging Face models); undefined when it cannot tell (e.g. no answer). */
export type AvailabilityChecker = (subject: string) => Promise<{ available: boolean; reason: string } | undefined>;

export interface AvailabilityOptions {
  store: AvailabilityStore;
  ttlMs: number;
  syncMs: number;
  timeoutMs: number;
  now?: () => number;
  checker?: AvailabilityChecker;
  /** Which subjects the checker can answer (default: none). */
  checkable?: (subject: string) => boolean;
  /** How long one view() may spend on checks before answering with what it knows. */
  checkBudgetMs?: number;
}

/** What routing and the listing consult: synchronous, from the last sync. */
export interface AvailabilityView {
  isAvailable(subject: string): boolean;
  /** Changes whenever the set of unavailable subjects does (for memoised listings). */
  readonly version: string;
}

export const ALL_AVAILABLE: AvailabilityView = { isAvailable: () => true, version: "all" };

export const modelSubject = (provider: string, model: string) => `model:${provider}:${model}`;
export const pairSubject = (provider: string, source: string, target: string) => `pair:${provider}:${source}>${target}`;
/** A provider's speech-to-text in one language (canonical code): unavailable once the provider refuses the language. */
export const sttSubject = (provider: string, language: string) => `stt:${provider}:${language}`;

const KEY_PREFIX = "lugha:availability:v1:";

export class Availability {
  private readonly local = new Map<string, AvailabilityRecord>();
  private syncedAt = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;
  private storeFailing = false;
  private inflightChecks = new Map<string, Promise<void>>();
  /**
   * When each subject may be asked about again. Set when a check starts, so a checker that cannot answer (the Hub
   * unreachable, slow or failing) is asked at most once per sync interval, and only the request that starts a check
   * waits for it (up to checkBudgetMs) — never every request.
   */
  private readonly nextCheckAt = new Map<string, number>();

  constructor(private readonly opts: AvailabilityOptions) {
    this.now = opts.now ?? Date.now;
  }

  get storeName(): string {
    return this.opts.store.name;
  }

  /**
   * A view for routing: syncs from the shared store when the local copy is older than the sync interval, and checks
   * (within the check budget) the given subjects whose state is unknown. Never throws.
   */
  async view(subjects: readonly string[] = []): Promise<AvailabilityView> {
    if (this.now() - this.syncedAt >= this.opts.syncMs) await this.sync(subjects);
    const now = this.now();
    const unknown = subjects.filter(
      (s) => this.fresh(s) === undefined && (this.nextCheckAt.get(s) ?? 0) <= now && (this.opts.checkable?.(s) ?? false),
    );
    if (unknown.length > 0 && this.opts.checker) await this.check(unknown);
    return this.snapshot();
  }

  /** Records that `subject` is unavailable, here at once and in the shared store. */
  async markUnavailable(subject: string, reason: string, source: AvailabilityRecord["source"] = "upstream"): Promise<void> {
    await this.record(subject, { available: false, reason, source });
  }

  /** For /health (operators): every subject known to be unavailable, with its reason and until when. */
  report(): { subject: string; reason: string; source: string; checked_at: string; recheck_after: string }[] {
    const now = this.now();
    return [...this.local.entries()]
      .filter(([, r]) => !r.available && r.expiresAt > now)
      .map(([subject, r]) => ({
        subject,
        reason: r.reason,
        source: r.source,
        checked_at: new Date(r.checkedAt).toISOString(),
        recheck_after: new Date(r.expiresAt).toISOString(),
      }))
      .sort((a, b) => a.subject.localeCompare(b.subject));
  }

  private snapshot(): AvailabilityView {
    const now = this.now();
    const down = new Set([...this.local.entries()].filter(([, r]) => !r.available && r.expiresAt > now).map(([s]) => s));
    if (down.size === 0) return ALL_AVAILABLE;
    return { isAvailable: (s) => !down.has(s), version: [...down].sort().join("|") };
  }

  private fresh(subject: string): AvailabilityRecord | undefined {
    const r = this.local.get(subject);
    return r && r.expiresAt > this.now() ? r : undefined;
  }

  private async record(subject: string, finding: Omit<AvailabilityRecord, "checkedAt" | "expiresAt">) {
    const checkedAt = this.now();
    const record: AvailabilityRecord = { ...finding, checkedAt, expiresAt: checkedAt + this.opts.ttlMs };
    this.local.set(subject, record);
    await this.guard(this.opts.store.set(KEY_PREFIX + subject, JSON.stringify(record), this.opts.ttlMs));
  }

  /** Reads the known subjects (local ones and `subjects`) from the shared store. */
  private async sync(subjects: readonly string[]) {
    const keys = [...new Set([...this.local.keys(), ...subjects])];
    const values = await this.guard(this.opts.store.getMany(keys.map((k) => KEY_PREFIX + k)));
    if (!values) return; // store down: keep local knowledge, try again next time
    this.syncedAt = this.now();
    keys.forEach((subject, i) => {
      const parsed = parseRecord(values[i]);
      if (parsed && parsed.expiresAt > this.now()) this.local.set(subject, parsed);
      else this.local.delete(subject);
    });
  }

  private async check(subjects: readonly string[]) {
    const checker = this.opts.checker!;
    const retryAt = this.now() + this.opts.syncMs;
    for (const subject of subjects) this.nextCheckAt.set(subject, retryAt);
    const run = subjects.map((subject) => {
      let pending = this.inflightChecks.get(subject);
      if (!pending) {
        pending = (async () => {
          const answer = await checker(subject).catch(() => undefined);
          if (answer) await this.record(subject, { ...answer, source: "hub" });
        })().finally(() => this.inflightChecks.delete(subject));
        this.inflightChecks.set(subject, pending);
      }
      return pending;
    });
    await withTimeout(Promise.all(run), this.opts.checkBudgetMs ?? 3_000).catch(() => undefined);
  }

  private async guard<T>(promise: Promise<T>): Promise<T | undefined> {
    try {
      const value = await withTimeout(promise, this.opts.timeoutMs);
      if (this.storeFailing)
        processLog().warn({ event: "store_recovered", component: "availability", store: this.opts.store.name }, "availability store answers again");
      this.storeFailing = false;
      return value;
    } catch (err) {
      if (!this.storeFailing)
        processLog().warn(
          { event: "store_failed", component: "availability", store: this.opts.store.name, failure: describeFailure(err) },
          "availability store failed; using local knowledge",
        );
      this.storeFailing = true;
      return undefined;
    }
  }
}

function parseRecord(text: string | null | undefined): AvailabilityRecord | undefined {
  if (!text) return undefined;
  try {
    const r = JSON.parse(text) as AvailabilityRecord;
    return typeof r.available === "boolean" && typeof r.expiresAt === "number" && typeof r.reason === "string" ? r : undefined;
  } catch {
    return undefined;
  }
}
