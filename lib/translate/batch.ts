import { ApiError } from "@/lib/kit/errors";
import { ProviderError, type ProviderId } from "@/lib/providers/types";
import type { CacheCaller } from "./cache";
import type { BatchItem, BatchItemResult, BatchTranslateRequest, BatchTranslateResponse, ProviderChoice } from "./schemas";
import { type GlossaryLookup, type ProviderGate, type TranslateDeps, translateText } from "./service";

/**
 * Batch translation.
 *
 * - The request is validated first (1–50 items, each {id, text, target_lang, source_lang?} with unique non-empty ids;
 *   see schemas.ts): a malformed request is a 422 for the whole request, nothing is translated.
 * - Each item is then translated on its own, exactly as a single translate with the request's provider override:
 *   same validation, detection, routing, fallback and limits. An item that fails — whitespace-only text, text above a
 *   limit, unknown language, same language, unsupported pair, provider failure — gets `error` + `error_code` and null
 *   translation fields; the response is still 200.
 * - Items run concurrently; calls to each provider are bounded (BATCH_CONCURRENCY_PER_PROVIDER, default 8, per batch
 *   request), so a batch never opens more than that many connections to one upstream. A fallback call takes a slot
 *   of the provider it falls back to.
 * - One deadline for the whole batch (BATCH_DEADLINE_MS, default 30 s). Each item gets the single-translate budget
 *   (TRANSLATE_DEADLINE_MS) from when it starts, never past the batch deadline; an item still waiting for a slot when
 *   the batch deadline passes fails with PROVIDER_ERROR.
 * - Results are in request order.
 * - Localisation: `format`, `do_not_translate` and `glossary_id` may be set for the whole batch and per item; an
 *   item's own value replaces the batch's (do_not_translate lists are not merged). A glossary is looked up once per
 *   batch; an item whose (detected) pair is not the glossary's fails with VALIDATION_ERROR, the others go on.
 * - The cache and coalescing apply item by item (./cache.ts): a batch can mix items answered from the cache with
 *   items sent upstream, and two identical items share one upstream call.
 */

/** Without settings (unit tests that build deps by hand): the configuration's defaults. */
const BATCH_FALLBACK: BatchSettings = { deadlineMs: 30_000, concurrencyPerProvider: 8 };

/** A batch's limits when the caller names none (the configuration's BATCH_DEADLINE_MS and BATCH_CONCURRENCY_PER_PROVIDER). */
export interface BatchSettings {
  deadlineMs: number;
  concurrencyPerProvider: number;
}

/** A counting semaphore whose waiters give up at a deadline. */
export class Semaphore {
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  constructor(readonly limit: number) {}

  async acquire(deadline: number): Promise<() => void> {
    if (this.active < this.limit) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          const i = this.waiters.indexOf(grant);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(new Error("deadline"));
        },
        Math.max(0, deadline - Date.now()),
      );
      this.waiters.push(grant);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next)
        next(); // the slot passes straight to the next waiter
      else this.active--;
    };
  }
}

/** A ProviderGate that allows at most `limit` concurrent calls per provider. */
export function concurrencyGate(limit: number): ProviderGate {
  const semaphores = new Map<ProviderId, Semaphore>();
  return async (provider, deadline, call) => {
    let sem = semaphores.get(provider);
    if (!sem) semaphores.set(provider, (sem = new Semaphore(limit)));
    let release: () => void;
    try {
      release = await sem.acquire(deadline);
    } catch {
      throw new ProviderError(provider, "timeout", "request deadline reached while waiting for a free connection");
    }
    try {
      return await call();
    } finally {
      release();
    }
  };
}

export interface BatchOptions {
  startedAt?: number;
  concurrencyPerProvider?: number;
  batchDeadlineMs?: number;
  /** The API key asking and whether it bypasses the cache (for every item). */
  caller?: CacheCaller;
  /** The batch's own localisation fields: what an item without its own gets. */
  defaults?: Pick<BatchTranslateRequest, "format" | "do_not_translate" | "glossary_id">;
}

/** A lookup that asks once per glossary id, however many items name it. */
function lookupOnce(lookup: GlossaryLookup): GlossaryLookup {
  const seen = new Map<string, ReturnType<GlossaryLookup>>();
  return (keyId, id) => {
    const key = `${keyId}\n${id}`;
    let found = seen.get(key);
    if (!found) seen.set(key, (found = lookup(keyId, id)));
    return found;
  };
}

export async function translateBatch(
  items: BatchItem[],
  provider: ProviderChoice | undefined,
  deps: TranslateDeps,
  options: BatchOptions = {},
): Promise<BatchTranslateResponse> {
  const startedAt = options.startedAt ?? performance.now();
  const batchDeadline = Date.now() + (options.batchDeadlineMs ?? deps.batch?.deadlineMs ?? BATCH_FALLBACK.deadlineMs);
  const gate = concurrencyGate(options.concurrencyPerProvider ?? deps.batch?.concurrencyPerProvider ?? BATCH_FALLBACK.concurrencyPerProvider);
  const itemDeps: TranslateDeps = { ...deps, gate, glossaries: deps.glossaries && lookupOnce(deps.glossaries) };
  const defaults = options.defaults ?? {};

  const results = await Promise.all(
    items.map(async (item, i): Promise<BatchItemResult> => {
      const itemStart = performance.now();
      try {
        const input = {
          text: item.text,
          target_lang: item.target_lang,
          source_lang: item.source_lang,
          provider,
          format: item.format ?? defaults.format,
          do_not_translate: item.do_not_translate ?? defaults.do_not_translate,
          glossary_id: item.glossary_id ?? defaults.glossary_id,
        };
        const r = await translateText(input, itemDeps, {
          startedAt: itemStart,
          loc: ["body", "items", i],
          deadline: Math.min(batchDeadline, Date.now() + deps.deadlineMs),
          caller: options.caller,
        });
        return {
          id: item.id,
          translated_text: r.translated_text,
          detected_source_lang: r.detected_source_lang,
          target_lang: r.target_lang,
          model_used: r.model_used,
          provider: r.provider,
          quality_score: r.quality_score,
          error: null,
          error_code: null,
          latency_ms: r.latency_ms,
          characters_translated: r.characters_translated,
          fallback_used: r.fallback_used,
          segments: r.segments,
          glossary_terms_applied: r.glossary_terms_applied,
          detection_method: r.detection_method,
          sandbox: r.sandbox,
          cached: r.cached,
        };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return {
          id: item.id,
          translated_text: null,
          detected_source_lang: null,
          target_lang: null,
          model_used: null,
          provider: null,
          quality_score: null,
          error: err.message,
          error_code: err.code as BatchItemResult["error_code"],
          latency_ms: Math.round(performance.now() - itemStart),
          characters_translated: null,
          fallback_used: null,
          segments: null,
          glossary_terms_applied: null,
          detection_method: null,
          sandbox: null,
          cached: null,
        };
      }
    }),
  );

  const succeeded = results.filter((r) => r.error === null).length;
  return {
    results,
    total: results.length,
    succeeded,
    failed: results.length - succeeded,
    total_latency_ms: Math.round(performance.now() - startedAt),
    characters_translated: results.reduce((a, r) => a + (r.characters_translated ?? 0), 0),
    sandbox: results.some((r) => r.sandbox === true),
  };
}
