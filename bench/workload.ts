/**
 * Deterministic request bodies for the cache scenarios: the same seed gives the same sequence, so the cache-on and
 * cache-off runs replay the same requests in the same order.
 */

/** mulberry32: a small seeded PRNG; quality is ample for drawing strings. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = [
  "The market",
  "Our school",
  "The clinic",
  "My brother",
  "The bus",
  "The farmer",
  "Your order",
  "The meeting",
  "The rain",
  "This road",
];
const VERBS = ["opens", "closes", "arrives", "starts", "ends", "stops", "returns", "waits", "moves", "begins"];
const TIMES = [
  "at eight",
  "before noon",
  "after lunch",
  "on Monday",
  "this evening",
  "tomorrow",
  "next week",
  "at dawn",
  "late tonight",
  "on Friday",
];

/** The i-th distinct sentence (distinct for every i ≥ 0). */
export function sentence(i: number): string {
  const s = SUBJECTS[i % 10];
  const v = VERBS[Math.floor(i / 10) % 10];
  const t = TIMES[Math.floor(i / 100) % 10];
  const n = Math.floor(i / 1000);
  return `${s} ${v} ${t}${n ? `, number ${n}` : ""}. Please tell everyone.`;
}

export const REPLAY = { hotStrings: 20, repeatShare: 0.8, seed: 14 };

/**
 * The replay workload: 80 % of requests repeat one of 20 hot strings (drawn with a fixed seed), the other 20 % send a
 * string not sent before in the sequence — an app's UI text and greetings beside its users' own sentences. A finite
 * pool of "cold" strings would be fully cached after a few seconds and hide the misses. Each call of the returned
 * function gives the next body.
 */
export function replayBodies(target = "lug"): () => string {
  const random = prng(REPLAY.seed);
  let fresh = REPLAY.hotStrings;
  return () => {
    const i = random() < REPLAY.repeatShare ? Math.floor(random() * REPLAY.hotStrings) : fresh++;
    return JSON.stringify({ text: sentence(i), source_lang: "en", target_lang: target });
  };
}

/** `count` distinct texts of about `chars` characters each, for filling the cache to its byte bound. */
export function fillTexts(start: number, count: number, chars: number): string[] {
  return Array.from({ length: count }, (_, k) => {
    const parts: string[] = [];
    for (let j = 0; parts.join(" ").length < chars; j++) parts.push(sentence((start + k) * 7 + j));
    return `${start + k}: ${parts.join(" ")}`.slice(0, chars);
  });
}

/** The benchmark's sentence: what a single translation sends, and what distinct texts are made from. */
export const SENTENCE = "Good morning, how are you? The market opens at eight and the bus leaves at nine.";

/** Numbers the sequences of distinct texts, so that no two sequences of one benchmark process share a text. */
let sequences = 0;

/**
 * Distinct texts: each call gives SENTENCE with a counter appended ("… at nine. (3.1234)": the sequence, then the
 * request), a text no earlier request of the process sent, so neither the cache nor the coalescing of identical
 * requests in flight can answer it: every request costs an upstream call, as a stream of users' own sentences does.
 * Each call of distinctTexts() starts a new sequence (one per target and run). The cost is a counter and a string
 * concatenation, the same for every target, and it runs in the load generator, not in the server measured.
 */
export function distinctTexts(): () => string {
  const sequence = ++sequences;
  let n = 0;
  return () => `${SENTENCE} (${sequence}.${++n})`;
}

/** A body per request for POST /translate, each with a distinct text (distinctTexts). */
export function distinctBodies(target = "lug"): () => string {
  const next = distinctTexts();
  return () => JSON.stringify({ text: next(), source_lang: "en", target_lang: target });
}

/** Short UI strings, as an app's batch of interface texts has them. */
const UI_TEXTS = ["Save changes", "Open settings", "Sign in", "Try again", "Delete this file?", "Your profile", "Next page", "Send the invoice"];

/** Distinct short UI strings ("Sign in (3.12)"), distinct as distinctTexts' sentences are. */
export function distinctUiTexts(): () => string {
  const sequence = ++sequences;
  let n = 0;
  return () => `${UI_TEXTS[n % UI_TEXTS.length]} (${sequence}.${++n})`;
}

/** A body per request for POST /translate/batch: `items` items, every text distinct within and across requests (default distinctTexts' sentences). */
export function distinctBatchBodies(items: number, target = "lug", next = distinctTexts()): () => string {
  return () =>
    JSON.stringify({ items: Array.from({ length: items }, (_, i) => ({ id: `item-${i}`, text: next(), source_lang: "en", target_lang: target })) });
}
