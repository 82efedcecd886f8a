import type { SingleFlight } from "@/lib/cache";
import { type CatalogEntry, CatalogLimitError, type CatalogParseError, protectionFormat } from "@/lib/catalog";
import { CatalogFileError, inProcessCatalogFiles } from "@/lib/catalog/files";
import type { UsableGlossary } from "@/lib/glossaries/store";
import { usableGlossary } from "@/lib/glossaries/store";
import { ApiError } from "@/lib/kit/errors";
import { countUpstreamCalls, totalUpstreamCalls } from "@/lib/kit/telemetry";
import { hfModels } from "@/lib/languages/models";
import { pairOptions } from "@/lib/languages/pairs";
import { getLanguage } from "@/lib/languages/registry";
import { resolveLanguageCode } from "@/lib/languages/resolve";
import { LocaliseInputError, type Protected, protect } from "@/lib/localise";
import type { TranslationRoute } from "@/lib/providers/descriptor";
import { ProviderError } from "@/lib/providers/types";
import { concurrencyGate } from "./batch";
import { type CacheCaller, translationCacheKey } from "./cache";
import type { CatalogRequest, CatalogResponse } from "./catalog-schemas";
import { chunkLimit, codePointLength } from "./limits";
import { localisationKey, translateMasked } from "./localised";
import { type Packable, packJobs, segmentsToSend, sendPack } from "./packing";
import { mapWithConcurrency, splitForLimit } from "./segment";
import type { ProviderGate, TranslateDeps } from "./service";

/*
 * A whole catalog file in one request (POST /api/v1/translate/catalog): parse (lib/catalog) → keep what `existing`
 * already has → answer from the cache → mask each entry (lib/localise) → pack → translate → verify → render.
 *
 *  - One provider and model per file: the pair's first route (what translate would try first), so that the file
 *    reads in one voice. It never falls back to another provider part-way through a file: what that provider cannot
 *    take now (its request budget is spent, the deadline is near, it is failing) is left `pending`, never an error,
 *    and the next call with the returned file as `existing` continues.
 *  - Incremental: an entry of `existing` whose source hash (in the file for po/arb/xliff, else `source_hashes`) is
 *    the current source's is kept. Without a hash, a value that differs from the source is taken as its translation,
 *    and counted in `entries.kept_unverified`: nothing proves that its source is unchanged (the CLI always sends
 *    `source_hashes`, so its calls never rely on this).
 *  - Packing: each entry is masked on its own; the texts to send (an entry's message, or each branch of an ICU
 *    message) are packed, in file order, into as few calls as the route's input limit allows, joined by separator
 *    tokens (lib/localise pack.ts). An answer whose separators do not all come back in order, or an entry whose
 *    placeholders fail verification, is sent again on its own (translateMasked: exactly what translate does).
 *  - Cache and coalescing, per entry: keyed like translate's (key, mode, pair, route, text, localisation); an entry an
 *    identical entry of another request in flight is translating waits for that answer (pending if it brings none).
 *    Within one file, the same text in the same markup is sent once.
 *  - Budget: every call draws on the provider's upstream budget; a refusal (or the provider's own 429, or its open
 *    circuit) stops sending, and the answer says when to come back where it is known (`retry_after_seconds`).
 *  - Failures: an entry the provider refuses (4xx) or whose answer fails verification on its own is `failed`; what a
 *    failing provider (timeout, 5xx) leaves undone is `pending`.
 */

/**
 * The most upstream calls one catalog request may need in the worst case (every packed call failing and each of its
 * entries then sent on its own, split for the route): checked before the first call; over it, the file is refused.
 */
export const MAX_CATALOG_UPSTREAM_CALLS = 10_000;

/** The longest the masking of a file's entries runs before it lets other work on the event loop. */
const MASKING_SLICE_MS = 10;

export interface CatalogOptions {
  caller?: CacheCaller;
  /** Whole-request budget, ms (default: the batch deadline). */
  deadlineMs?: number;
}

interface Job extends Packable {
  unit: CatalogEntry;
  cacheKey?: string;
}

type Outcome = { kind: "done"; text: string; fresh: boolean } | { kind: "pending" } | { kind: "failed"; error: string };

export async function translateCatalog(input: CatalogRequest, deps: TranslateDeps, options: CatalogOptions = {}): Promise<CatalogResponse> {
  const started = Date.now();
  const deadline = started + (options.deadlineMs ?? deps.batch?.deadlineMs ?? 30_000);
  const source = resolveLanguageCode(input.source_lang, "source_lang");
  const target = resolveLanguageCode(input.target_lang, "target_lang");
  if (source === target) {
    const name = getLanguage(target)?.name ?? target;
    throw new ApiError("SAME_LANGUAGE", `source_lang and target_lang are both ${name} (${source}); nothing to translate.`, {
      errors: [{ loc: ["body", "source_lang"], msg: "Source and target language are the same", type: "same_language" }],
    });
  }
  const files = deps.catalogFiles ?? inProcessCatalogFiles;
  const read = await or422(
    files.read({
      format: input.format,
      content: input.content,
      targetLang: input.target_lang,
      existing: input.existing,
      sidecar: input.source_hashes,
    }),
  );
  const view = deps.view ?? (await deps.availability?.view());
  const options0 = pairOptions(source, target, deps.models ?? hfModels(), deps.catalogue, view);
  if (options0.length === 0) {
    throw new ApiError("UNSUPPORTED_LANGUAGE_PAIR", `No provider translates ${source} → ${target}. See GET /api/v1/languages?source=${source}.`, {
      errors: [{ loc: ["body", "target_lang"], msg: "Language pair not supported", type: "unsupported_language_pair" }],
    });
  }
  const route = options0[0].routes[0];
  const client = deps.providers[route.provider];
  let glossary: UsableGlossary | undefined;
  if (input.glossary_id !== undefined) {
    const found = options.caller ? await deps.glossaries?.(options.caller.apiKeyId, input.glossary_id) : undefined;
    glossary = usableGlossary(found, source, target, ["body", "glossary_id"]);
  }
  const existing = new Map(read.existing);
  const units = read.units;
  const translations = new Map<string, string>();
  const hashes: Record<string, string> = {};
  const failed: { key: string; error: string }[] = [];
  let kept = 0;
  let keptUnverified = 0;
  let translated = 0;
  let pending = 0;
  let characters = 0;

  // Kept: not to be translated, or already translated from this very source.
  const todo: CatalogEntry[] = [];
  for (const unit of units) {
    if (!unit.translatable) {
      kept++;
      continue;
    }
    const before = existing.get(unit.id);
    const usable =
      before && before.translation.trim() !== "" && (before.sourceHash ? before.sourceHash === unit.sourceHash : before.translation !== unit.source);
    if (usable) {
      translations.set(unit.id, before.translation);
      hashes[unit.id] = unit.sourceHash;
      kept++;
      if (!before.sourceHash) keptUnverified++;
    } else todo.push(unit);
  }

  // Masked, and answered from the cache where it can.
  const caching = deps.caching;
  const useCache = caching?.cache.enabled && options.caller ? options.caller : undefined;
  const jobs: Job[] = [];
  const outcomes = new Map<string, Outcome>();
  // The same text (in the same markup) twice in a file is sent once; the others take its outcome.
  const sentFor = new Map<string, string>();
  const sameAs = new Map<string, string>();
  // Entries an identical entry of another request in flight is translating: they wait for its answer.
  const joined: { unit: CatalogEntry; key: string }[] = [];
  const flights = caching?.flights as SingleFlight<{ translated_text: string } | null> | undefined;
  const landed = new Map<string, (value: { translated_text: string } | null) => void>();
  let stopped: { retryAfterMs?: number } | undefined;
  let texts = 0;
  const land = () => {
    for (const [id, resolve] of landed) {
      const outcome = outcomes.get(id);
      resolve(outcome?.kind === "done" ? { translated_text: outcome.text } : null);
    }
  };
  // Every request sent to the provider from here on is one upstream call (a quota unit) of this catalog.
  const { calls: spent } = await countUpstreamCalls(async () => {
    try {
      let slice = performance.now();
      for (const unit of todo) {
        // Masking thousands of entries is CPU work: let other requests in every few milliseconds.
        if (performance.now() - slice > MASKING_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          slice = performance.now();
        }
        const format = protectionFormat(unit);
        const dedupe = `${format}\u0000${unit.source}`;
        const first = sentFor.get(dedupe);
        if (first !== undefined) {
          sameAs.set(unit.id, first);
          continue;
        }
        sentFor.set(dedupe, unit.id);
        const localisation = { format, doNotTranslate: input.do_not_translate ?? [], glossary } as const;
        let masked: Protected;
        try {
          masked = await protect(unit.source, { format, doNotTranslate: localisation.doNotTranslate, glossary: glossary?.entries });
        } catch (err) {
          if (!(err instanceof LocaliseInputError)) throw err;
          outcomes.set(unit.id, { kind: "failed", error: "the entry looks like an ICU message but does not parse" });
          continue;
        }
        const send = segmentsToSend(masked);
        // Every text sent is at least one call: past the budget already, stop masking the rest.
        texts += send.length;
        if (texts > MAX_CATALOG_UPSTREAM_CALLS) throw tooManyCalls(`more than ${MAX_CATALOG_UPSTREAM_CALLS}`);
        if (send.length === 0) {
          outcomes.set(unit.id, { kind: "done", text: unit.source, fresh: false });
          continue;
        }
        const cacheKey =
          useCache && caching
            ? translationCacheKey(
                caching.cache,
                useCache.apiKeyId,
                { text: unit.source, source, target, requested: "catalog", routes: [route] },
                deps.providers,
                localisationKey(localisation),
              )
            : undefined;
        if (cacheKey && !useCache?.bypass) {
          const hit = await caching!.cache.get<{ translated_text: string }>(cacheKey);
          if (hit && typeof hit.translated_text === "string") {
            outcomes.set(unit.id, { kind: "done", text: hit.translated_text, fresh: false });
            continue;
          }
          if (flights!.has(cacheKey)) {
            joined.push({ unit, key: cacheKey });
            continue;
          }
          // Sent by this request: a flight other requests can join (not with a bypass, which neither reads nor joins).
          const answer = new Promise<{ translated_text: string } | null>((resolve) => landed.set(unit.id, resolve));
          flights!.run(cacheKey, () => answer).catch(() => {});
        }
        jobs.push({ unit, masked, send, cacheKey });
      }

      // Sent: packed within the route's limit, at most the batch's concurrency per provider at a time, and never more
      // calls than the worst case counted here, before the first one.
      const packs = packJobs(jobs, route);
      const callBudget = worstCaseCalls(packs, route);
      if (callBudget > MAX_CATALOG_UPSTREAM_CALLS) throw tooManyCalls(`up to ${callBudget}`);
      const inner = deps.gate ?? concurrencyGate(deps.batch?.concurrencyPerProvider ?? 8);
      let admitted = 0;
      const gate: ProviderGate = (provider, callDeadline, call) => {
        // Not reached unless the count above is wrong: the bound holds whatever the answers are.
        if (admitted >= callBudget) throw new ProviderError(provider, "rate_limited", "the request's upstream calls are spent");
        admitted++;
        return inner(provider, callDeadline, call);
      };
      // A call is not started when less than this is left: its answer could not come back in time.
      const reserve = Math.min(2_000, (deadline - started) / 4);
      const mayStart = () => !stopped && Date.now() < deadline - reserve;
      const callDeadline = () => Math.min(deadline, Date.now() + deps.deadlineMs);

      const onError = (err: unknown): Outcome => {
        if (!(err instanceof ProviderError)) throw err;
        // This text: its answer failed verification, or the provider refused it (a packed call is then retried entry by entry).
        if (err.kind === "malformed" || err.kind === "rejected") return { kind: "failed", error: err.message };
        // The provider, for now: its budget is spent, it asks to slow down, or its circuit is open. Nothing more is sent.
        if (err.kind === "rate_limited" || err.kind === "circuit_open") stopped = { retryAfterMs: err.retryAfterMs };
        return { kind: "pending" };
      };
      const single = async (job: Job): Promise<void> => {
        if (!mayStart()) return void outcomes.set(job.unit.id, { kind: "pending" });
        try {
          const r = await translateMasked(route, client, job.masked, { source, target }, callDeadline(), gate);
          outcomes.set(job.unit.id, { kind: "done", text: r.result.translatedText, fresh: true });
        } catch (err) {
          outcomes.set(job.unit.id, onError(err));
        }
      };
      const packed = async (pack: Job[]): Promise<void> => {
        if (pack.length === 1) return single(pack[0]);
        if (!mayStart()) {
          for (const job of pack) outcomes.set(job.unit.id, { kind: "pending" });
          return;
        }
        let answers: Awaited<ReturnType<typeof sendPack>>;
        try {
          answers = await sendPack(route, client, pack, { source, target }, callDeadline(), gate);
        } catch (err) {
          const outcome = onError(err);
          // A packed answer that is malformed as a whole: each entry on its own.
          if (outcome.kind === "failed") for (const job of pack) await single(job);
          else for (const job of pack) outcomes.set(job.unit.id, outcome);
          return;
        }
        const retry: Job[] = [];
        pack.forEach((job, i) => {
          const answer = answers[i];
          if (answer) outcomes.set(job.unit.id, { kind: "done", text: answer.text, fresh: true });
          else retry.push(job);
        });
        for (const job of retry) await single(job);
      };

      const joining = Promise.all(
        joined.map(async ({ unit, key }) => {
          try {
            const { value } = await flights!.run(key, async () => null, AbortSignal.timeout(Math.max(0, deadline - Date.now())));
            outcomes.set(unit.id, value ? { kind: "done", text: value.translated_text, fresh: false } : { kind: "pending" });
          } catch {
            outcomes.set(unit.id, { kind: "pending" });
          }
        }),
      );
      try {
        await mapWithConcurrency(packs, deps.batch?.concurrencyPerProvider ?? 8, (pack) => packed(pack), { deadline });
      } catch (err) {
        if (!(err instanceof DOMException && err.name === "TimeoutError")) throw err;
      }
      await joining;
    } finally {
      land(); // every flight this request opened ends, whatever happened
    }
  });
  const calls = totalUpstreamCalls(spent);
  for (const [id, first] of sameAs) {
    const outcome = outcomes.get(first) ?? { kind: "pending" };
    outcomes.set(id, outcome.kind === "done" ? { ...outcome, fresh: false } : outcome);
  }

  const jobById = new Map(jobs.map((job) => [job.unit.id, job]));
  // Rendered: an entry whose translation cannot be written into the file fails; the others stay.
  for (const unit of todo) {
    const outcome = outcomes.get(unit.id) ?? { kind: "pending" };
    if (outcome.kind === "done") {
      translations.set(unit.id, outcome.text);
      hashes[unit.id] = unit.sourceHash;
      translated++;
      if (outcome.fresh) {
        characters += codePointLength(unit.source.trim());
        const job = jobById.get(unit.id);
        if (job?.cacheKey && caching) await caching.cache.set(job.cacheKey, { translated_text: outcome.text });
      }
    } else if (outcome.kind === "pending") pending++;
    else failed.push({ key: unit.id, error: outcome.error });
  }
  const written = await or422(
    files.write({
      format: input.format,
      content: input.content,
      translations: [...translations],
      sourceLang: input.source_lang,
      targetLang: input.target_lang,
    }),
  );
  for (const id of written.unwritable) {
    delete hashes[id];
    translated--;
    failed.push({ key: id, error: "the translation could not be written in the format (it is not well-formed markup)" });
  }
  const content = written.content;

  const used = calls > 0;
  return {
    format: input.format,
    content,
    entries: { total: units.length, translated, kept, kept_unverified: keptUnverified, pending, failed },
    upstream_calls: calls,
    characters_translated: characters,
    source_lang: source,
    target_lang: input.target_lang,
    provider: used ? route.provider : null,
    model_used: used ? `${route.provider}/${route.model}` : null,
    source_hashes: hashes,
    retry_after_seconds: pending > 0 && stopped?.retryAfterMs !== undefined ? Math.max(1, Math.ceil(stopped.retryAfterMs / 1000)) : null,
    sandbox: client.mode === "sandbox",
  };
}

/** 422: the file would need `howMany` upstream calls, more than one request may make. */
function tooManyCalls(howMany: string): ApiError {
  const message = `content would need ${howMany} upstream calls; at most ${MAX_CATALOG_UPSTREAM_CALLS} are made for one request. Split the file.`;
  return new ApiError("VALIDATION_ERROR", message, { errors: [{ loc: ["body", "content"], msg: message, type: "catalog_limit_exceeded" }] });
}

/**
 * The most calls `packs` can cost: one per pack, plus, should a pack's answer fail, each of its entries on its own
 * (every text sent, split into the route's chunks).
 */
function worstCaseCalls(packs: readonly Job[][], route: TranslationRoute): number {
  const limit = chunkLimit(route);
  const chunks = (text: string) =>
    (typeof limit === "number" ? codePointLength(text) <= limit : limit(text)) ? 1 : splitForLimit(text, limit).chunks.length;
  let calls = packs.length;
  for (const pack of packs) for (const job of pack) for (const i of job.send) calls += chunks(job.masked.segments[i]);
  return calls;
}

/** Runs a step of lib/catalog on the file in `field`: a file that does not parse or is over a limit is 422 on `field`. */
/** A file of the request that cannot be read (or is over a budget) as a 422 on its field. */
async function or422<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (!(err instanceof CatalogFileError)) throw err;
    throw notParsed(err.error, err.field);
  }
}

/**
 * A file that does not parse, or is over a limit: 422 on `field`, naming the format and the line (or the limit),
 * never quoting the file.
 */
function notParsed(err: CatalogParseError, field: string): ApiError {
  const problem = err.message.slice(err.format.length + 2);
  if (err instanceof CatalogLimitError) {
    const message = `${field} is over a limit of ${err.format} files: ${problem}.`;
    return new ApiError("VALIDATION_ERROR", message, { errors: [{ loc: ["body", field], msg: message, type: "catalog_limit_exceeded" }] });
  }
  const message = `${field} is not a valid ${err.format} file: ${problem}.`;
  return new ApiError("VALIDATION_ERROR", message, { errors: [{ loc: ["body", field], msg: message, type: "catalog_parse_error" }] });
}
