import type { SingleFlight } from "@/lib/cache";
import {
  type CatalogEntry,
  CatalogParseError,
  CatalogRenderError,
  type ParsedCatalog,
  parseCatalog,
  protectionFormat,
  readExisting,
  renderCatalog,
  targetEntries,
} from "@/lib/catalog";
import type { UsableGlossary } from "@/lib/glossaries/store";
import { usableGlossary } from "@/lib/glossaries/store";
import { ApiError } from "@/lib/kit/errors";
import { hfModels } from "@/lib/languages/models";
import { pairOptions } from "@/lib/languages/pairs";
import { getLanguage } from "@/lib/languages/registry";
import { resolveLanguageCode } from "@/lib/languages/resolve";
import { LocaliseInputError, type Protected, packTexts, protect, separatorLength, unpackTexts } from "@/lib/localise";
import { BUDGET_REFUSED } from "@/lib/providers/client";
import type { TranslationRoute } from "@/lib/providers/descriptor";
import { ProviderError } from "@/lib/providers/types";
import { concurrencyGate } from "./batch";
import { type CacheCaller, translationCacheKey } from "./cache";
import type { CatalogRequest, CatalogResponse } from "./catalog-schemas";
import { chunkLimit, codePointLength } from "./limits";
import { localisationKey, translateMasked } from "./localised";
import { mapWithConcurrency } from "./segment";
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

/** Never more texts in one call than this, however short: one bad answer costs at most this many single retries. */
export const MAX_TEXTS_PER_CALL = 40;

export interface CatalogOptions {
  caller?: CacheCaller;
  /** Whole-request budget, ms (default: the batch deadline). */
  deadlineMs?: number;
}

interface Job {
  unit: CatalogEntry;
  masked: Protected;
  /** Indices of the masked segments to send. */
  send: number[];
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
  const catalog = parse(input.format, input.content, "content");
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
  const existing = input.existing === undefined ? new Map() : readExistingOr422(input.format, input.existing, input.target_lang, input.source_hashes);

  const units = targetEntries(catalog, input.target_lang);
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
  let calls = 0;
  let stopped: { retryAfterMs?: number } | undefined;
  const land = () => {
    for (const [id, resolve] of landed) {
      const outcome = outcomes.get(id);
      resolve(outcome?.kind === "done" ? { translated_text: outcome.text } : null);
    }
  };
  try {
    for (const unit of todo) {
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
      const send = masked.segments.flatMap((s, i) => (/\p{L}/u.test(s.replace(/QZ[A-W]+?X/gi, "")) ? [i] : []));
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

    // Sent: packed within the route's limit, at most the batch's concurrency per provider at a time.
    const inner = deps.gate ?? concurrencyGate(deps.batch?.concurrencyPerProvider ?? 8);
    const gate: ProviderGate = async (provider, callDeadline, call) => {
      try {
        const r = await inner(provider, callDeadline, call);
        calls++;
        return r;
      } catch (err) {
        if (!(err instanceof ProviderError && err.upstreamCode === BUDGET_REFUSED)) calls++;
        throw err;
      }
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
      const texts = pack.flatMap((job) => job.send.map((i) => job.masked.segments[i]));
      let answer: string;
      try {
        const d = callDeadline();
        answer = (
          await gate(route.provider, d, () =>
            client.translate({ text: packTexts(texts), source, target, deadline: d, ...(route.hf && { hf: route.hf }) }),
          )
        ).translatedText;
      } catch (err) {
        const outcome = onError(err);
        // A packed answer that is malformed as a whole: each entry on its own.
        if (outcome.kind === "failed") for (const job of pack) await single(job);
        else for (const job of pack) outcomes.set(job.unit.id, outcome);
        return;
      }
      const parts = unpackTexts(answer, texts.length);
      let k = 0;
      const retry: Job[] = [];
      for (const job of pack) {
        if (!parts) {
          retry.push(job);
          continue;
        }
        const out = [...job.masked.segments];
        for (const i of job.send) out[i] = parts[k++];
        const restored = job.masked.restore(out);
        if (restored.ok) outcomes.set(job.unit.id, { kind: "done", text: restored.text, fresh: true });
        else retry.push(job);
      }
      for (const job of retry) await single(job);
    };

    const packs = packJobs(jobs, route);
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
  let content: string;
  for (;;) {
    try {
      content = renderCatalog(input.format, catalog.doc, translations, { sourceLang: input.source_lang, targetLang: input.target_lang });
      break;
    } catch (err) {
      if (!(err instanceof CatalogRenderError) || !translations.has(err.id)) throw err;
      translations.delete(err.id);
      delete hashes[err.id];
      translated--;
      failed.push({ key: err.id, error: "the translation could not be written in the format (it is not well-formed markup)" });
    }
  }

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

/** Entries in file order, packed greedily into calls within the route's input limit (and MAX_TEXTS_PER_CALL texts). */
export function packJobs(jobs: readonly Job[], route: TranslationRoute): Job[][] {
  const limit = chunkLimit(route);
  const fits = (text: string) => (typeof limit === "number" ? codePointLength(text) <= limit : limit(text));
  const packs: Job[][] = [];
  let current: Job[] = [];
  let texts: string[] = [];
  let length = 0;
  for (const job of jobs) {
    const own = job.send.map((i) => job.masked.segments[i]);
    const added = own.reduce((n, t, i) => n + codePointLength(t) + separatorLength(texts.length + i), 0);
    const candidate = [...texts, ...own];
    const ok =
      current.length > 0 &&
      candidate.length <= MAX_TEXTS_PER_CALL &&
      (typeof limit === "number" ? length + added <= limit : fits(packTexts(candidate)));
    if (ok) {
      current.push(job);
      texts = candidate;
      length += added;
    } else {
      if (current.length > 0) packs.push(current);
      current = [job];
      texts = own;
      length = own.reduce((n, t, i) => n + codePointLength(t) + (i > 0 ? separatorLength(i - 1) : 0), 0);
    }
  }
  if (current.length > 0) packs.push(current);
  // A single entry too long to pack is sent on its own (translateMasked splits it for the route).
  return packs;
}

/** A file that does not parse: 422 on `field`, naming the format and the line, never quoting the file. */
function parse(format: CatalogRequest["format"], content: string, field: string): ParsedCatalog {
  try {
    return parseCatalog(format, content);
  } catch (err) {
    if (!(err instanceof CatalogParseError)) throw err;
    throw notParsed(err, field);
  }
}

function readExistingOr422(format: CatalogRequest["format"], content: string, targetLang: string, sidecar?: Record<string, string>) {
  try {
    return readExisting(format, content, { targetLang, sidecar });
  } catch (err) {
    if (!(err instanceof CatalogParseError)) throw err;
    throw notParsed(err, "existing");
  }
}

function notParsed(err: CatalogParseError, field: string): ApiError {
  const message = `${field} is not a valid ${err.format} file: ${err.message.slice(err.format.length + 2)}.`;
  return new ApiError("VALIDATION_ERROR", message, { errors: [{ loc: ["body", field], msg: message, type: "catalog_parse_error" }] });
}
