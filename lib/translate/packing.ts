import { hasTextOutsideTokens, type Protected, packTexts, separatorLength, unpackTexts } from "@/lib/localise";
import type { TranslationRoute } from "@/lib/providers/descriptor";
import type { ProviderClient } from "@/lib/providers/types";
import { chunkLimit, codePointLength } from "./limits";
import type { ProviderGate } from "./service";

/*
 * Packing: several short masked texts in one upstream call, for the catalog (./catalog.ts) and the batch (./batch.ts).
 * The texts are joined with numbered separator tokens (lib/localise pack.ts) within the route's input limit; the answer
 * is split again only when every separator came back exactly once and in order, and each text is then verified and
 * unmasked on its own (its placeholders, markup, ICU structure). What fails either check is not guessed at: the
 * caller sends that text again on its own, exactly as a single translate would.
 */

/** Never more texts in one call than this, however short: one bad answer costs at most this many single retries. */
export const MAX_TEXTS_PER_CALL = 40;

/** A masked text and the indices of its segments to send. */
export interface Packable {
  masked: Protected;
  send: number[];
}

/** The segments of a masked text worth sending: those with a letter outside its tokens (the others come back as they are). */
export function segmentsToSend(masked: Protected): number[] {
  return masked.segments.flatMap((s, i) => (hasTextOutsideTokens(s) ? [i] : []));
}

/** Texts in the order given, packed greedily into calls within the route's input limit (and MAX_TEXTS_PER_CALL texts). */
export function packJobs<J extends Packable>(jobs: readonly J[], route: TranslationRoute): J[][] {
  const limit = chunkLimit(route);
  const fits = (text: string) => (typeof limit === "number" ? codePointLength(text) <= limit : limit(text));
  const packs: J[][] = [];
  let current: J[] = [];
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
  // A single text too long to pack is a pack of its own (the caller sends it alone: translateMasked splits it for the route).
  return packs;
}

/** A text of a packed answer, verified and unmasked. */
export interface PackedTranslation {
  text: string;
  glossaryTermsApplied: string[];
  /** The model that answered (as the client names it). */
  model: string;
}

/**
 * One upstream call for a pack of two or more texts. Per text, in pack order: its translation, or undefined when it
 * must be sent again on its own (a separator lost, repeated or moved: all of them; its own verification failed: it
 * alone). Throws the call's ProviderError (the caller decides: a malformed or refused answer is re-sent text by text,
 * a failing provider is that provider's failure for every text).
 */
export async function sendPack(
  route: TranslationRoute,
  client: ProviderClient,
  pack: readonly Packable[],
  { source, target }: { source: string; target: string },
  deadline: number,
  gate: ProviderGate,
): Promise<(PackedTranslation | undefined)[]> {
  const texts = pack.flatMap((job) => job.send.map((i) => job.masked.segments[i]));
  const answer = await gate(route.provider, deadline, () =>
    client.translate({ text: packTexts(texts), source, target, deadline, ...(route.hf && { hf: route.hf }) }),
  );
  const parts = unpackTexts(answer.translatedText, texts.length);
  if (!parts) return pack.map(() => undefined);
  let k = 0;
  return pack.map((job) => {
    const out = [...job.masked.segments];
    for (const i of job.send) out[i] = parts[k++];
    const restored = job.masked.restore(out);
    return restored.ok ? { text: restored.text, glossaryTermsApplied: restored.glossaryTermsApplied, model: answer.model } : undefined;
  });
}
