import { ApiError } from "@/lib/kit/errors";
import { Semaphore } from "@/lib/kit/semaphore";
import { countUpstreamCalls, totalUpstreamCalls } from "@/lib/kit/telemetry";
import type { TranslationRoute } from "@/lib/providers/descriptor";
import { type ProviderClient, ProviderError, type ProviderId } from "@/lib/providers/types";
import { type CacheCaller, routesVersion } from "./cache";
import { type LocalisedTranslation, translateMasked } from "./localised";
import { type Packable, packJobs, segmentsToSend, sendPack } from "./packing";
import type { BatchItem, BatchItemResult, BatchTranslateRequest, BatchTranslateResponse, ProviderChoice } from "./schemas";
import { type GlossaryLookup, type PackSlot, type ProviderGate, type TranslateDeps, translateText } from "./service";

/**
 * Batch translation.
 *
 * - The request is validated first (1–50 items, each {id, text, target_lang, source_lang?} with unique non-empty ids;
 *   see schemas.ts): a malformed request is a 422 for the whole request, nothing is translated.
 * - Each item is then translated on its own, exactly as a single translate with the request's provider override:
 *   same validation, detection, routing, fallback and limits. An item that fails — whitespace-only text, text above a
 *   limit, unknown language, same language, unsupported pair, provider failure — gets `error` + `error_code` and null
 *   translation fields; the response is still 200.
 * - Packing (BATCH_PACKING, default on; BatchPacks below): the items whose first-choice route is the same provider and
 *   model, with the same pair and protection settings, share upstream calls (./packing.ts, as a catalog's entries do).
 *   The upstream's quota is counted in requests, so 50 short texts cost 2 calls instead of 50. An item's result is
 *   still its own translate's: what fails verification in a packed answer is sent again on its own, and a failing
 *   provider fails each item's first route, from which each item falls back on its own.
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
  /** BATCH_PACKING: items' texts share upstream calls (default true). */
  packing?: boolean;
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

interface PackEntry extends Packable {
  deadline: number;
  resolve(value: LocalisedTranslation): void;
  reject(err: unknown): void;
}

interface PackGroup {
  route: TranslationRoute;
  client: ProviderClient;
  pair: { source: string; target: string };
  entries: PackEntry[];
}

/**
 * The packs of one batch. Each item gets a slot (./service.ts PackSlot); its first-choice route's attempt hands its
 * masked text to the slot, grouped by route (provider and model), pair and protection settings. Once every item is
 * either waiting in a group or needs no pack (answered from the cache, failed, waiting for an identical request's
 * answer), each group is packed within its route's limit (./packing.ts) and sent, one call per pack. A text whose
 * part of the answer does not verify is sent again on its own; a pack the provider refuses or answers unreadably is
 * sent again text by text; a failing provider fails each text's attempt, and each item falls back on its own.
 */
class BatchPacks {
  private outstanding: number;
  private readonly groups = new Map<string, PackGroup>();

  constructor(
    items: number,
    private readonly gate: ProviderGate,
  ) {
    this.outstanding = items;
  }

  slot(): PackSlot {
    let arrived = false;
    const arrive = () => {
      if (arrived) return;
      arrived = true;
      if (--this.outstanding === 0) this.flush();
    };
    return {
      translate: (route, client, masked, group, pair, deadline) => {
        const send = segmentsToSend(masked);
        // Nothing to translate outside tokens: sent alone, as a single translate sends it.
        if (send.length === 0) {
          arrive();
          return translateMasked(route, client, masked, pair, deadline, this.gate);
        }
        const key = `${routesVersion([route])}\n${group}`;
        let found = this.groups.get(key);
        if (!found) this.groups.set(key, (found = { route, client, pair: { source: pair.source, target: pair.target }, entries: [] }));
        const entries = found.entries;
        const translated = new Promise<LocalisedTranslation>((resolve, reject) => entries.push({ masked, send, deadline, resolve, reject }));
        arrive();
        return translated;
      },
      waiting: arrive,
    };
  }

  private flush() {
    const groups = [...this.groups.values()];
    this.groups.clear();
    for (const group of groups) for (const pack of packJobs(group.entries, group.route)) void this.send(group, pack);
  }

  private async send({ route, client, pair }: PackGroup, pack: PackEntry[]): Promise<void> {
    const alone = (entry: PackEntry) =>
      translateMasked(route, client, entry.masked, pair, entry.deadline, this.gate).then(entry.resolve, entry.reject);
    if (pack.length === 1) return alone(pack[0]);
    let answers: Awaited<ReturnType<typeof sendPack>>;
    try {
      answers = await sendPack(route, client, pack, pair, Math.min(...pack.map((e) => e.deadline)), this.gate);
    } catch (err) {
      // Refused or unreadable as a whole: each text on its own. The provider failing: each item's attempt fails.
      if (err instanceof ProviderError && (err.kind === "malformed" || err.kind === "rejected")) await Promise.all(pack.map(alone));
      else for (const entry of pack) entry.reject(err);
      return;
    }
    const resend: PackEntry[] = [];
    pack.forEach((entry, i) => {
      const answer = answers[i];
      if (answer)
        entry.resolve({
          result: { translatedText: answer.text, model: answer.model },
          segments: 1,
          glossaryTermsApplied: answer.glossaryTermsApplied,
        });
      else resend.push(entry);
    });
    await Promise.all(resend.map(alone));
  }
}

export interface BatchOptions {
  startedAt?: number;
  concurrencyPerProvider?: number;
  batchDeadlineMs?: number;
  /** Pack the items' texts into shared upstream calls (default: the configuration's BATCH_PACKING). */
  packing?: boolean;
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
  const packs = (options.packing ?? deps.batch?.packing ?? true) ? new BatchPacks(items.length, gate) : undefined;

  // Every request sent upstream for the batch's items, packed or not: what the batch cost.
  const { value: results, calls } = await countUpstreamCalls(() =>
    Promise.all(
      items.map(async (item, i): Promise<BatchItemResult> => {
        const itemStart = performance.now();
        const pack = packs?.slot();
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
            pack,
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
        } finally {
          pack?.waiting();
        }
      }),
    ),
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
    upstream_calls: totalUpstreamCalls(calls),
  };
}
