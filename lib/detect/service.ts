import {
  type Detection,
  detectionCandidates,
  detectLanguage,
  FULL_EVIDENCE_LETTERS,
  MIN_LETTERS,
  type Ranking,
  rankLanguages,
} from "@/lib/languages/detect";
import { detectableLanguages } from "@/lib/languages/detectable";
import { normalizeLanguageCode } from "@/lib/languages/registry";
import { fieldError } from "@/lib/routing";
import { codePointLength, MAX_TEXT_CHARS } from "@/lib/translate/limits";
import { type DetectRequest, type DetectResponse, type DetectResult, MAX_DETECT_TEXTS } from "./schemas";

/**
 * POST /api/v1/detect: the source detection translate runs when source_lang is omitted (lib/languages/detect.ts), with
 * what it saw on the way. `language` and `confidence` are exactly what translate would take and report for the same
 * text; the rest says how far to trust them.
 *
 * - candidates: the best three detectable languages (lib/languages/detectable.ts), each with the answer's confidence
 *   scaled by its score relative to the winner's, so a close runner-up shows as close. When an earlier step of the rule
 *   answered (script, greeting, the default for short text) there is one candidate, the answer.
 * - reliable: confidence ≥ RELIABLE_CONFIDENCE and one language throughout. Measured on the hand-written samples
 *   (detect.samples.ts, 210 sentences): at 0.7, 167 answers are reliable and 164 of them right (98 %), and 16 of the
 *   19 wrong answers are flagged unreliable (the 3 others: Amharic read as Tigrinya, and one Kirundi sentence).
 * - reason, when not reliable, first that applies: mixed (two scripts, or two parts of the text reliably in two
 *   languages: see isMixed); default (nothing pointed to any language — a short text matching no greeting or word list,
 *   or no letters at all — so `language` is the documented default, English, at 0.1); short_text (a statistical answer
 *   on fewer than FULL_EVIDENCE_LETTERS letters); close_candidates (enough text, but the runner-up scored nearly as
 *   well: with full evidence only a small lead keeps the confidence low).
 * - identification: when the answer is not reliable (and not mixed) and a candidate is a language the identifier
 *   knows (Sunbird's: Acholi, Ateso, English, Luganda, Lugbara, Runyankole), the identifier is asked; a language it
 *   names decides, at IDENTIFIED_CONFIDENCE, reliable, method language_id.
 * - method: what decided (lib/languages/detect.ts DETECTION_METHODS).
 */

export const RELIABLE_CONFIDENCE = 0.7;
const MAX_CANDIDATES = 3;

/**
 * A language identification service asked when the local detector is not sure: Sunbird's (provider_a's
 * /tasks/classify_language), which the composition root (lib/server) hands over. Free upstream: it is never counted
 * against the upstream budgets.
 */
export interface LanguageIdentifier {
  /** The languages it can answer (ISO 639-3 or canonical codes). */
  readonly labels: readonly string[];
  /** Its answer for the text, or null when it is not sure; throws when it could not be asked. */
  classifyLanguage(text: string, req: { deadline: number; signal?: AbortSignal }): Promise<string | null>;
}

export interface DetectDeps {
  /** Without it, detection is the local detector alone. */
  identifier?: LanguageIdentifier;
}

/**
 * How long identification may take: it is asked before translating, so it is kept short; past it (or with its
 * circuit open, or on any failure) the local answer stands.
 */
export const IDENTIFICATION_DEADLINE_MS = 1_500;
/** The confidence of an identified language: Sunbird's classifier answers only at 0.9 probability or more. */
export const IDENTIFIED_CONFIDENCE = 0.9;
const IDENTIFICATION_CACHE_SIZE = 2_000;

export async function detectTexts(request: DetectRequest, deps: DetectDeps = {}): Promise<DetectResponse> {
  return { results: await Promise.all(textsOf(request).map((text) => detectOne(text, deps))) };
}

/** The texts to detect, validated with translate's rules and codes; located at ["body","text"] or ["body","texts",i]. */
function textsOf({ text, texts }: DetectRequest): string[] {
  if (text !== undefined && texts !== undefined)
    throw fieldError("VALIDATION_ERROR", "Send either text or texts, not both.", ["body"], "text_or_texts");
  if (text === undefined && texts === undefined) throw fieldError("VALIDATION_ERROR", "text or texts is required.", ["body", "text"], "missing");
  if (texts !== undefined) {
    if (texts.length === 0) throw fieldError("VALIDATION_ERROR", "texts must contain at least 1 text.", ["body", "texts"], "too_short");
    if (texts.length > MAX_DETECT_TEXTS) {
      throw fieldError(
        "BATCH_TOO_LARGE",
        `texts holds at most ${MAX_DETECT_TEXTS} texts; this request has ${texts.length}. Split it into several requests.`,
        ["body", "texts"],
        "too_long",
      );
    }
    return texts.map((t, i) => checked(t, ["body", "texts", i]));
  }
  return [checked(text!, ["body", "text"])];
}

function checked(text: string, loc: (string | number)[]): string {
  const trimmed = text.trim();
  if (trimmed.length === 0) throw fieldError("VALIDATION_ERROR", "text must not be empty or only whitespace.", loc, "string_too_short");
  const characters = codePointLength(trimmed);
  if (characters > MAX_TEXT_CHARS) {
    throw fieldError(
      "TEXT_TOO_LONG",
      `text is ${characters.toLocaleString("en-US")} characters; the limit is ${MAX_TEXT_CHARS.toLocaleString("en-US")} characters.`,
      loc,
      "string_too_long",
    );
  }
  return trimmed;
}

export async function detectOne(text: string, deps: DetectDeps = {}): Promise<DetectResult> {
  const ranking = await rankLanguages(text);
  const { detection } = ranking;
  const mixed = await isMixed(text);
  const reliable = !mixed && detection.method !== "default" && detection.confidence >= RELIABLE_CONFIDENCE;
  const candidates = candidatesOf(ranking);
  if (!reliable && !mixed) {
    const identified = await identify(text, candidates, deps);
    if (identified) {
      const others = candidates.filter((c) => c.language !== identified.code);
      return {
        language: identified.code,
        confidence: identified.confidence,
        reliable: true,
        reason: null,
        candidates: [{ language: identified.code, confidence: identified.confidence }, ...others].slice(0, MAX_CANDIDATES),
        method: identified.method,
      };
    }
  }
  return {
    language: detection.code,
    confidence: detection.confidence,
    reliable,
    reason: reliable ? null : reasonFor(ranking, mixed),
    candidates,
    method: detection.method,
  };
}

/** Translate's source detection (deps.detect in lib/translate): detectOne's language, confidence and method. */
export async function detectSource(text: string, deps: DetectDeps = {}): Promise<Detection> {
  const { language, confidence, method, reliable } = await detectOne(text, deps);
  return { code: language, confidence, method, reliable };
}

/**
 * The identification step: when the local answer is not reliable and a language the identifier knows is among the
 * candidates, its answer decides — if it names a language detection may answer. Any failure keeps the local answer.
 */
async function identify(text: string, candidates: DetectResult["candidates"], { identifier }: DetectDeps): Promise<Detection | undefined> {
  if (!identifier) return undefined;
  const labels = new Set(identifier.labels.map((l) => normalizeLanguageCode(l)));
  if (!candidates.some((c) => labels.has(c.language))) return undefined;
  try {
    const label = await cachedIdentification(identifier, text);
    const code = label === null ? undefined : normalizeLanguageCode(label);
    if (code === undefined || !detectionCandidates().includes(code)) return undefined;
    return { code, confidence: IDENTIFIED_CONFIDENCE, method: "language_id" };
  } catch {
    return undefined;
  }
}

/** Each identifier's answers per text (null included: "not sure" is an answer), most recent last; failures are not kept. */
const answersOf = new WeakMap<LanguageIdentifier, Map<string, string | null>>();

async function cachedIdentification(identifier: LanguageIdentifier, text: string): Promise<string | null> {
  let identifications = answersOf.get(identifier);
  if (!identifications) answersOf.set(identifier, (identifications = new Map()));
  const known = identifications.get(text);
  if (known !== undefined) {
    identifications.delete(text);
    identifications.set(text, known);
    return known;
  }
  const answer = await identifier.classifyLanguage(text, { deadline: Date.now() + IDENTIFICATION_DEADLINE_MS });
  identifications.set(text, answer);
  if (identifications.size > IDENTIFICATION_CACHE_SIZE) identifications.delete(identifications.keys().next().value!);
  return answer;
}

function reasonFor(ranking: Ranking, mixed: boolean): NonNullable<DetectResult["reason"]> {
  if (mixed) return "mixed";
  if (ranking.detection.method === "default") return "default";
  // With enough text, only a small lead over the runner-up keeps the confidence low.
  return ranking.short || ranking.letters < FULL_EVIDENCE_LETTERS ? "short_text" : "close_candidates";
}

function candidatesOf({ detection, ranked }: Ranking): DetectResult["candidates"] {
  const best = ranked[0];
  if (detection.method !== "statistical" || !best || best.code !== detection.code)
    return [{ language: detection.code, confidence: detection.confidence }];
  const detectable = detectableLanguages();
  const runnersUp = ranked.slice(1).filter((r) => r.score > 0 && detectable.has(r.code));
  return [best, ...runnersUp]
    .slice(0, MAX_CANDIDATES)
    .map((r) => ({ language: r.code, confidence: round2((detection.confidence * r.score) / best.score) }));
}

/**
 * Whether the text mixes scripts, or two parts of it (sentences and clauses, cut at sentence and clause punctuation and
 * line breaks) are each reliably in a different language: "Good morning, webale nnyo ssebo" or an English sentence
 * after a Swahili one.
 * At most MAX_PARTS_CHECKED parts, spread over the text, keep the cost bounded (about 0.3 ms a part). On the 210 sample
 * sentences, 2 are flagged, both between close neighbours (Fante/Twi, Setswana/Sesotho).
 */
async function isMixed(text: string): Promise<boolean> {
  if (mixesScripts(text)) return true;
  const parts = text.split(PART_BOUNDARY).filter((p) => p.trim() !== "");
  if (parts.length < 2) return false;
  const sampled =
    parts.length <= MAX_PARTS_CHECKED
      ? parts
      : Array.from({ length: MAX_PARTS_CHECKED }, (_, i) => parts[Math.round((i * (parts.length - 1)) / (MAX_PARTS_CHECKED - 1))]);
  const languages = new Set<string>();
  for (const part of sampled) {
    const { code, confidence, method } = await detectLanguage(part);
    if (method !== "default" && confidence >= RELIABLE_CONFIDENCE) languages.add(code);
    if (languages.size > 1) return true;
  }
  return false;
}

/** Two scripts (Latin, Ethiopic, Arabic) each with at least a fifth of the letters, in a text of MIN_LETTERS or more. */
function mixesScripts(text: string): boolean {
  const counts = SCRIPTS.map((script) => text.match(script)?.length ?? 0);
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  return letters >= MIN_LETTERS && counts.filter((n) => n >= letters / 5).length >= 2;
}

const SCRIPTS = [/\p{Script=Latin}/gu, /\p{Script=Ethiopic}/gu, /\p{Script=Arabic}/gu];

// Sentence ends and clause punctuation (Latin, Ethiopic and Arabic), and line breaks.
const PART_BOUNDARY = /[.!?;:,\n።፣፤؟،؛]+/;
const MAX_PARTS_CHECKED = 16;

const round2 = (n: number) => Math.round(n * 100) / 100;
