import { codePointLength } from "@/lib/kit/text";

/*
 * Long texts for providers with a smaller input (or output) limit than the API's own.
 *
 * splitForLimit cuts a text into chunks a provider accepts (a translation, or a synthesis of speech), and joinSegments
 * puts translated chunks back:
 *   - Cuts fall between sentences (Intl.Segmenter, sentence granularity, so `.`, `?`, `!`, Ethiopic `።`, Arabic `؟`
 *     and line breaks all end one; a decimal point never does). ICU ends a sentence at any period followed by a space
 *     and a capital, so a period after an abbreviation (`Dr. Okello`, `e.g. Mulago`, `Bw. Juma`) or an initial
 *     (`J. Kato`) does not end one here (ABBREVIATIONS). Sentences are packed greedily; when a chunk is full it is
 *     closed at its last line break if it holds one, else at its last sentence end, so paragraphs stay whole wherever
 *     they fit.
 *   - A sentence longer than the limit is cut at the last whitespace that keeps the piece within it (no-break spaces
 *     excepted; after a comma, semicolon, colon or dash when that keeps at least half the piece), or, with no whitespace at all, at the last grapheme boundary within it: an emoji ZWJ sequence, a
 *     letter with its combining marks or a surrogate pair is never cut.
 *   - The whitespace at every cut (spaces, `\n\n` between paragraphs), before the first chunk and after the last goes
 *     into `separators`, never into a chunk, so a chunk never starts or ends with whitespace and the translated text
 *     keeps the original's layout exactly: joinSegments(separators, chunks) === text.
 */

/** A maximum length in code points (as the API counts characters), or a test a chunk must pass. */
export type ChunkLimit = number | ((chunk: string) => boolean);

export interface Segments {
  /** The pieces to translate, in order: never empty, never starting or ending with whitespace. */
  chunks: string[];
  /** `chunks.length + 1` whitespace strings: separators[i] comes before chunks[i], the last one after the last chunk. */
  separators: string[];
}

/** A sentence (or a piece of one) and the whitespace that precedes it. */
interface Unit {
  gap: string;
  text: string;
}

// Whitespace where a long sentence may be cut: any but the no-break spaces, which exist to forbid exactly that.
const BREAKABLE_SPACE = /[^\S\u00a0\u2007\u202f]+/g;
/** Marks after which a sentence too long to keep whole is best cut. */
const CLAUSE_END = /[,;:–—]/;

export function splitForLimit(text: string, limit: ChunkLimit, options: { locale?: string } = {}): Segments {
  const fits = toPredicate(limit);
  const leading = /^\s*/.exec(text)![0];
  if (leading.length === text.length) return { chunks: [], separators: [text] };
  const trailing = /\s*$/.exec(text)![0];
  const core = text.slice(leading.length, text.length - trailing.length);

  const units = sentences(core, options.locale).flatMap((unit) => (fits(unit.text) ? [unit] : splitLongSentence(unit, fits)));
  const chunks: Unit[] = [];
  let current: Unit[] = [];
  for (const unit of units) {
    for (;;) {
      if (current.length === 0 || fits(render([...current, unit]))) {
        current.push(unit);
        break;
      }
      // Full: close at the last line break inside, keeping the rest for the next chunk, else close it whole.
      let cut = current.length;
      for (let i = current.length - 1; i > 0; i--) {
        if (current[i].gap.includes("\n")) {
          cut = i;
          break;
        }
      }
      chunks.push({ gap: current[0].gap, text: render(current.slice(0, cut)) });
      current = current.slice(cut);
    }
  }
  if (current.length) chunks.push({ gap: current[0].gap, text: render(current) });

  return {
    chunks: chunks.map((c) => c.text),
    // The first chunk's gap is empty (the core starts with a sentence); every later one is the whitespace at its cut.
    separators: [leading + chunks[0].gap, ...chunks.slice(1).map((c) => c.gap), trailing],
  };
}

/** The translated text: separators[0] + chunks[0] + separators[1] + ... + chunks[n-1] + separators[n]. */
export function joinSegments(separators: readonly string[], chunks: readonly string[]): string {
  if (separators.length !== chunks.length + 1)
    throw new RangeError(`${chunks.length} chunks need ${chunks.length + 1} separators, not ${separators.length}`);
  let out = separators[0];
  for (let i = 0; i < chunks.length; i++) out += chunks[i] + separators[i + 1];
  return out;
}

function toPredicate(limit: ChunkLimit): (chunk: string) => boolean {
  if (typeof limit === "function") return limit;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, not ${limit}`);
  return (chunk) => chunk.length <= limit || codePointLength(chunk) <= limit;
}

/** The units' text with the whitespace between them, as in the original. */
function render(units: readonly Unit[]): string {
  let out = units[0].text;
  for (let i = 1; i < units.length; i++) out += units[i].gap + units[i].text;
  return out;
}

/**
 * Words that end with a period without ending the sentence, lower-cased and without their periods: titles and Latin
 * abbreviations in English, and the common ones in Swahili (Bw. Bwana, Bi. Bibi, Dkt. Daktari, Mh. Mheshimiwa, k.m.
 * kwa mfano, n.k. na kadhalika). Not "etc.", "a.m." or "No.": they end sentences as often as not.
 */
const ABBREVIATIONS = new Set(
  "mr mrs ms dr prof st mt sr jr gen col capt lt sgt rev hon gov pres sen rep fr vol fig art sec ch pp approx dept est inc ltd co corp vs eg ie cf al bw bi dkt mh km nk".split(
    " ",
  ),
);
/** The word before a sentence's final period: letters and inner periods ("e.g", "Dr", "J"). */
const LAST_WORD = /(?:^|[\s(“"'‘])([\p{L}][\p{L}.]*)\.$/u;

/** Whether a sentence ends with an abbreviation or an initial rather than a full stop. */
function endsWithAbbreviation(sentence: string): boolean {
  const word = LAST_WORD.exec(sentence)?.[1];
  if (!word) return false;
  const bare = word.replaceAll(".", "").toLowerCase();
  return ABBREVIATIONS.has(bare) || [...bare].length === 1;
}

/** Sentences of a text without leading or trailing whitespace; whitespace-only segments join the next gap. */
function sentences(core: string, locale: string | undefined): Unit[] {
  const units: Unit[] = [];
  let pending = "";
  let glued = false;
  for (const { segment } of new Intl.Segmenter(locale, { granularity: "sentence" }).segment(core)) {
    const [, lead, body, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(segment)!;
    if (!body) {
      pending += segment;
      continue;
    }
    // After an abbreviation on the same line, the sentence goes on: this segment joins the previous one.
    const previous = units.at(-1);
    if (glued && previous && !(pending + lead).includes("\n")) previous.text += pending + lead + body;
    else units.push({ gap: pending + lead, text: body });
    glued = endsWithAbbreviation(body);
    pending = trail;
  }
  return units;
}

/** Cuts a sentence that does not fit into pieces that do (see the top of the file). */
function splitLongSentence(unit: Unit, fits: (chunk: string) => boolean): Unit[] {
  const pieces: Unit[] = [];
  let gap = unit.gap;
  let rest = unit.text;
  const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  while (!fits(rest)) {
    const ends: number[] = [];
    for (const { index, segment } of graphemes.segment(rest)) ends.push(index + segment.length);
    const longest = longestFitting(rest, ends, fits) ?? longestFitting(rest, codePointEnds(rest), fits) ?? codePointEnds(rest)[0];
    // The last breakable whitespace run that starts after the first character and no later than the cut point; the
    // last one after a clause mark (, ; : – —) instead when it keeps at least half the piece, so speech pauses there.
    let space: { index: number; length: number } | undefined;
    let clause: typeof space;
    for (const m of rest.matchAll(BREAKABLE_SPACE)) {
      if (m.index > longest) break;
      if (m.index === 0) continue;
      space = { index: m.index, length: m[0].length };
      if (CLAUSE_END.test(rest[m.index - 1]) && m.index >= longest / 2) clause = space;
    }
    space = clause ?? space;
    // Cut before the whitespace run, or hard at the grapheme boundary; whitespace next to the cut (a run of spaces, a
    // no-break space beside it) goes to the gap, so pieces stay trimmed.
    const [end, resume] = space ? [space.index, space.index + space.length] : [longest, longest];
    const pieceEnd = /\s*$/.exec(rest.slice(0, end))!.index;
    const resumeAt = resume + /^\s*/.exec(rest.slice(resume))![0].length;
    pieces.push({ gap, text: rest.slice(0, pieceEnd) });
    gap = rest.slice(pieceEnd, resumeAt);
    rest = rest.slice(resumeAt);
  }
  pieces.push({ gap, text: rest });
  return pieces;
}

/** The largest end offset whose prefix fits (binary search: a prefix of a fitting prefix fits), or undefined. */
function longestFitting(text: string, ends: readonly number[], fits: (chunk: string) => boolean): number | undefined {
  let lo = 0;
  let hi = ends.length - 1;
  let best: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (fits(text.slice(0, ends[mid]))) {
      best = ends[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

function codePointEnds(text: string): number[] {
  const ends: number[] = [];
  let offset = 0;
  for (const ch of text) ends.push((offset += ch.length));
  return ends;
}

/**
 * Runs `fn` over `items` with at most `limit` calls in flight and resolves with the results in order.
 * Stops at the first failure, at `deadline` (epoch ms, as Date.now()) or when `signal` aborts: no further item
 * starts, the signal handed to the calls in flight aborts, and the promise rejects at once with the failure (or a
 * TimeoutError DOMException, or the signal's reason), without waiting for calls that ignore their signal.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number, signal: AbortSignal) => Promise<R>,
  options: { signal?: AbortSignal; deadline?: number } = {},
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, not ${limit}`);
  const { signal, deadline } = options;
  signal?.throwIfAborted();
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (deadline !== undefined) {
    const timeout = () => stop.abort(new DOMException("deadline reached", "TimeoutError"));
    if (deadline <= Date.now()) timeout();
    else timer = setTimeout(timeout, deadline - Date.now());
  }
  const stopped = new Promise<never>((_, reject) => {
    if (stop.signal.aborted) reject(stop.signal.reason);
    stop.signal.addEventListener("abort", () => reject(stop.signal.reason), { once: true });
  });
  stopped.catch(() => {}); // observed by the race below; this only keeps an early abort from being "unhandled"

  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop.signal.aborted) {
      const index = next++;
      try {
        results[index] = await fn(items[index], index, stop.signal);
      } catch (err) {
        if (!stop.signal.aborted) stop.abort(err);
        return;
      }
    }
  };
  try {
    await Promise.race([Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker)), stopped]);
    stop.signal.throwIfAborted();
    return results;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
