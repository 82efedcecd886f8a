import type { CacheKeyExtra } from "@/lib/cache/key";
import type { UsableGlossary } from "@/lib/glossaries/store";
import { ApiError } from "@/lib/kit/errors";
import { hasTextOutsideTokens, type LocaliseFormat, LocaliseInputError, PROTECTION_VERSION, type Protected, protect } from "@/lib/localise";
import type { TranslationRoute } from "@/lib/providers/descriptor";
import { type ProviderClient, ProviderError } from "@/lib/providers/types";
import { CHUNK_CONCURRENCY, type RouteTranslation, type TextRequest, translateOnRoute } from "./long-text";
import { mapWithConcurrency } from "./segment";
import type { ProviderGate } from "./service";

/*
 * Localisation-safe translation around one route (docs/decisions.md "Localising an app"). The order is fixed:
 *
 *   mask (lib/localise protect, once per request) → segment → translate → verify → unmask
 *
 *  - Segments. protect() gives one segment for the text, plus one per ICU plural/select branch and per translated
 *    HTML attribute. Each segment is sent on its own (its own upstream call, or its own chunks when it is longer than
 *    the route takes in one call; a cut falls at whitespace or sentence ends, and tokens are words, so a token is not
 *    cut — and verification would catch one that was). Joining segments into one call would let a model move words
 *    and tokens from one branch into another, which verification would then refuse; separate calls keep each
 *    message whole. A segment with no letter outside its tokens is not sent at all (it comes back as it is), so
 *    `{count, plural, one {# item} other {# items}}` takes two calls, not three. All segments of a request are sent
 *    through the same route (one provider, one model), at most CHUNK_CONCURRENCY segments at a time (a split
 *    segment sends at most CHUNK_CONCURRENCY of its chunks at a time itself); in a batch every call takes a gate slot.
 *  - Verification runs inside the route's attempt: a translation that lost, repeated, mangled or invented a token, or
 *    broke the nesting of markup or an ICU message, is that route's ProviderError ("malformed"), so the chain tries
 *    the provider's next model, then the next provider (auto), or answers 503 PROVIDER_ERROR naming the cause
 *    (forced). It is never patched up and never returned.
 */

export interface Localisation {
  format: LocaliseFormat;
  /** As sent (trimmed, NFC by the schema); order and repeats do not matter. */
  doNotTranslate: readonly string[];
  glossary?: UsableGlossary;
}

/** Masks a request's text; an ICU-looking text that does not parse is the caller's error (422 on `text`). */
export async function maskRequest(text: string, localisation: Localisation, loc: (string | number)[]): Promise<Protected> {
  try {
    return await protect(text, {
      format: localisation.format,
      doNotTranslate: localisation.doNotTranslate,
      glossary: localisation.glossary?.entries,
    });
  } catch (err) {
    if (!(err instanceof LocaliseInputError)) throw err;
    const message =
      'text looks like an ICU MessageFormat message ("{count, plural, ...}") but does not parse: check its braces and that every plural or select has an "other" branch.';
    throw new ApiError("VALIDATION_ERROR", message, { errors: [{ loc: [...loc, "text"], msg: message, type: "invalid_icu_message" }] });
  }
}

/** The part of the translation cache key that localisation adds: everything here changes what the provider is sent. */
export function localisationKey(localisation: Localisation): Record<string, CacheKeyExtra> {
  return {
    format: localisation.format,
    protection: PROTECTION_VERSION,
    do_not_translate: [...new Set(localisation.doNotTranslate)].sort(),
    glossary_id: localisation.glossary?.id,
  };
}

export interface LocalisedTranslation extends RouteTranslation {
  /** The glossary's target terms the text used. */
  glossaryTermsApplied: string[];
}

/** One route's attempt at a masked text: every segment translated, then verified and unmasked, as one unit. */
export async function translateMasked(
  route: TranslationRoute,
  client: ProviderClient,
  masked: Protected,
  { source, target, inferSource }: Omit<TextRequest, "text">,
  deadline: number,
  gate: ProviderGate,
): Promise<LocalisedTranslation> {
  const { segments } = masked;
  let toSend = segments.flatMap((segment, i) => (hasTextOutsideTokens(segment) ? [i] : []));
  // Nothing to translate ("{name}!"): the text still goes to the provider, which answers for it.
  if (toSend.length === 0) toSend = [0];

  let answers: RouteTranslation[];
  try {
    // One segment (most requests): exactly the call an unmasked text would make, with its own timeout handling.
    if (toSend.length === 1)
      answers = [await translateOnRoute(route, client, { text: segments[toSend[0]], source, target, inferSource }, deadline, gate)];
    else
      answers = await mapWithConcurrency(
        toSend,
        CHUNK_CONCURRENCY,
        (index, _i, signal) => translateOnRoute(route, client, { text: segments[index], source, target, inferSource }, deadline, gate, signal),
        { deadline },
      );
  } catch (err) {
    if (err instanceof DOMException && err.name === "TimeoutError")
      throw new ProviderError(route.provider, "timeout", `deadline reached before the ${toSend.length} parts of the text were translated`);
    throw err;
  }

  const translated = [...segments];
  toSend.forEach((index, i) => {
    translated[index] = answers[i].result.translatedText;
  });
  const restored = masked.restore(translated);
  if (!restored.ok) throw new ProviderError(route.provider, "malformed", `the answer failed verification: ${restored.problem}`);
  return {
    result: { translatedText: restored.text, model: answers[0].result.model },
    segments: answers.reduce((n, a) => n + a.segments, 0),
    glossaryTermsApplied: restored.glossaryTermsApplied,
  };
}
