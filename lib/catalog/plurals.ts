import { PLURAL_CATEGORIES, type PluralCategory } from "./types";

/**
 * Locale tags and plural rules of target languages.
 *
 * Locale tags. Lugha's language codes (lib/languages/registry.ts: ISO 639-1 where one exists, else ISO 639-3, plus
 * aliases) become BCP 47 tags by the BCP 47 rule "use the shortest ISO 639 code": `lug` → `lg`, `twi` → `tw`,
 * `ewe` → `ee`, `yor` → `yo`, `swa`/`swh` → `sw`; codes with no two-letter form stay (`ach`, `nyn`, `teo`, `lgg`).
 * A region is kept (`pt_BR`, `pt-br` → `pt-BR`). The table below is this module's own (it may import nothing from
 * lib/languages); it covers every registry language that has a two-letter code.
 *
 * Plural categories. Node's full ICU (Intl.PluralRules, CLDR 48 in Node 24) is asked first. ICU has data for lg,
 * nyn, teo, cgg, xog, ak, ee, yo, sw and most other registry languages, but not for ach, tw, lgg, rw, rn, ki, luo,
 * gaa, dag, gur, mer, kus, kg, lu, kri and the smaller Ugandan and Ghanaian languages: for those it silently answers
 * with English rules (resolvedOptions().locale comes back as the default locale), which is detected, and this table
 * is used instead:
 *
 *   tw, atw, fat    → the rules of ak (Akan; Twi and Fante are Akan): one = 0..1, other. (CLDR ak.)
 *   ach             → one = 0..1, other: the Plural-Forms used by gettext tooling for Acholi (translate-toolkit,
 *                     Pootle, Mozilla's Acholi team): nplurals=2; plural=(n > 1).
 *   every other language ICU lacks → one = 1, other, as English. An assumption, not data: it gives a translator a
 *                     singular and a plural slot; a language that does not inflect for number writes the same text
 *                     in both, which is harmless, whereas a missing slot could not be filled.
 *
 * Gettext Plural-Forms are derived from the same rules, with msgstr[i] holding the i-th category in CLDR order
 * (zero, one, two, few, many, other), so that a PO file and a JSON/ARB/Android file of one language agree.
 */

const ISO639_3_TO_1: Record<string, string> = {
  eng: "en",
  lug: "lg",
  twi: "tw",
  aka: "ak",
  ewe: "ee",
  yor: "yo",
  kik: "ki",
  swa: "sw",
  swh: "sw",
  kin: "rw",
  run: "rn",
  som: "so",
  amh: "am",
  orm: "om",
  gaz: "om",
  tir: "ti",
  mlg: "mg",
  plt: "mg",
  hau: "ha",
  ibo: "ig",
  wol: "wo",
  lin: "ln",
  kon: "kg",
  lub: "lu",
  zul: "zu",
  xho: "xh",
  afr: "af",
  sna: "sn",
  sot: "st",
  tsn: "tn",
  tso: "ts",
  ssw: "ss",
  ven: "ve",
  nya: "ny",
  fra: "fr",
  fre: "fr",
  por: "pt",
  ara: "ar",
  arb: "ar",
  ful: "ff",
  bam: "bm",
};

/** Spellings of the registry that are names, not codes (registry aliases), mapped to their language's tag. */
const NAME_ALIASES: Record<string, string> = {
  acholi: "ach",
  frafra: "gur",
  dholuo: "luo",
  sepedi: "nso",
  fulah: "ff",
  akuapem: "atw",
  naija: "pcm",
  pidgin: "pcm",
};

/** BCP 47 tag of a Lugha language code or a locale tag: `lug` → `lg`, `pt_br` → `pt-BR`. Throws on an empty or malformed code. */
export function localeTag(code: string): string {
  const parts = code.trim().replace(/_/g, "-").split("-");
  const lang = parts[0]?.toLowerCase() ?? "";
  if (!/^[a-z]{2,8}$/.test(lang) || parts.slice(1).some((p) => !/^[A-Za-z0-9]{1,8}$/.test(p))) {
    throw new RangeError("not a language code");
  }
  const base = ISO639_3_TO_1[lang] ?? NAME_ALIASES[lang] ?? lang;
  const rest = parts
    .slice(1)
    .map((p) => (p.length === 2 ? p.toUpperCase() : p.length === 4 ? p[0].toUpperCase() + p.slice(1).toLowerCase() : p.toLowerCase()));
  return [base, ...rest].join("-");
}

/** The tag as gettext and Flutter write it: `pt_BR`. */
export const underscoreTag = (tag: string) => tag.replace(/-/g, "_");

/** Whether two codes name the same language (and region, if both give one). */
export function sameLanguage(a: string, b: string): boolean {
  try {
    const [ta, tb] = [localeTag(a), localeTag(b)];
    if (ta === tb) return true;
    const [la, ra] = [ta.split("-")[0], ta.split("-").slice(1).join("-")];
    const [lb, rb] = [tb.split("-")[0], tb.split("-").slice(1).join("-")];
    return la === lb && (!ra || !rb);
  } catch {
    return false;
  }
}

type Select = (n: number) => PluralCategory;

interface FallbackRule {
  categories: PluralCategory[];
  select: Select;
  basis: string;
}

const ONE_IS_0_OR_1: Select = (n) => (n === 0 || n === 1 ? "one" : "other");
const ONE_IS_1: Select = (n) => (n === 1 ? "one" : "other");

/** Languages ICU lacks: see the module comment. */
const FALLBACK: Record<string, FallbackRule | { sameAs: string }> = {
  tw: { sameAs: "ak" },
  atw: { sameAs: "ak" },
  fat: { sameAs: "ak" },
  ach: { categories: ["one", "other"], select: ONE_IS_0_OR_1, basis: "gettext tooling for Acholi: nplurals=2; plural=(n > 1)" },
};
const DEFAULT_RULE: FallbackRule = {
  categories: ["one", "other"],
  select: ONE_IS_1,
  basis: "no CLDR data: singular and plural as in English (assumption)",
};

export interface PluralInfo {
  /** BCP 47 tag. */
  tag: string;
  /** Cardinal categories in CLDR order; always ends with "other". */
  categories: PluralCategory[];
  /** Ordinal categories (selectordinal, i18next `_ordinal_*`) in CLDR order. */
  ordinal: PluralCategory[];
  /** Where the rules come from: ICU's CLDR data, this module's table, or the default assumption. */
  basis: "cldr" | "table" | "default";
  /** The category of an integer count. */
  select(n: number): PluralCategory;
  /** The gettext Plural-Forms header value, e.g. "nplurals=2; plural=(n != 1);"; undefined when none is known (see GETTEXT_EXPRESSIONS). */
  gettextPluralForms: string | undefined;
}

const byCldrOrder = (cats: readonly string[]) => PLURAL_CATEGORIES.filter((c) => cats.includes(c));

function icuRules(tag: string): { cardinal: Intl.PluralRules; ordinal: Intl.PluralRules } | undefined {
  const cardinal = new Intl.PluralRules(tag);
  const resolved = cardinal.resolvedOptions().locale.split("-")[0];
  // ICU answers an unknown language with the default locale's rules; only a match on the language counts.
  if (resolved !== tag.split("-")[0]) return undefined;
  return { cardinal, ordinal: new Intl.PluralRules(tag, { type: "ordinal" }) };
}

const cache = new Map<string, PluralInfo>();

/** Plural rules of a target language (Lugha code or BCP 47 tag). */
export function pluralInfo(code: string): PluralInfo {
  const tag = localeTag(code);
  const cached = cache.get(tag);
  if (cached) return cached;
  const lang = tag.split("-")[0];
  let info: PluralInfo;
  const icu = icuRules(tag);
  const fallback = FALLBACK[lang];
  if (icu) {
    info = build(
      tag,
      byCldrOrder(icu.cardinal.resolvedOptions().pluralCategories),
      (n) => icu.cardinal.select(n) as PluralCategory,
      "cldr",
      icu.ordinal,
    );
  } else if (fallback && "sameAs" in fallback) {
    const other = icuRules(fallback.sameAs)!;
    info = build(
      tag,
      byCldrOrder(other.cardinal.resolvedOptions().pluralCategories),
      (n) => other.cardinal.select(n) as PluralCategory,
      "table",
      other.ordinal,
    );
  } else {
    const rule = fallback ?? DEFAULT_RULE;
    info = build(tag, rule.categories, rule.select, fallback ? "table" : "default");
  }
  cache.set(tag, info);
  return info;
}

function build(tag: string, categories: PluralCategory[], select: Select, basis: PluralInfo["basis"], ordinal?: Intl.PluralRules): PluralInfo {
  return {
    tag,
    categories,
    ordinal: ordinal ? byCldrOrder(ordinal.resolvedOptions().pluralCategories) : ["other"],
    basis,
    select,
    gettextPluralForms: gettextPluralForms(tag, categories, select),
  };
}

/**
 * Gettext expressions for the rules that need more than "is n 1" / "is n 0 or 1". Each lists msgstr indexes in CLDR
 * category order; lib/catalog/plurals.test.ts checks each against Intl.PluralRules for n = 0..10,000,000 samples.
 */
const GETTEXT_EXPRESSIONS: Record<string, string> = {
  // CLDR fr/pt (Brazil): one = 0..1; many = exact millions (1000000, 2000000…); other.
  fr: "(n == 0 || n == 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2",
  pt: "(n == 0 || n == 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2",
  // CLDR pt-PT, es, it: one = 1; many = exact millions; other.
  "pt-PT": "(n == 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2",
  es: "(n == 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2",
  it: "(n == 1) ? 0 : (n != 0 && n % 1000000 == 0) ? 1 : 2",
  // CLDR ar: zero, one, two, few = n%100 3..10, many = n%100 11..99, other.
  ar: "(n == 0) ? 0 : (n == 1) ? 1 : (n == 2) ? 2 : (n % 100 >= 3 && n % 100 <= 10) ? 3 : (n % 100 >= 11) ? 4 : 5",
};

function gettextPluralForms(tag: string, categories: PluralCategory[], select: Select): string | undefined {
  const n = categories.length;
  if (n === 1) return "nplurals=1; plural=0;";
  if (n === 2 && categories[0] === "one") {
    const ones = [0, 1, 2, 11, 21, 101].filter((k) => select(k) === "one");
    if (ones.join() === "1") return "nplurals=2; plural=(n != 1);";
    if (ones.join() === "0,1") return "nplurals=2; plural=(n > 1);";
  }
  const expression = GETTEXT_EXPRESSIONS[tag] ?? GETTEXT_EXPRESSIONS[tag.split("-")[0]];
  return expression ? `nplurals=${n}; plural=${expression};` : undefined;
}

/** Parses "nplurals=N; plural=…;" loosely: only N is needed (to check a file's forms against a language). */
export function gettextPluralCount(pluralForms: string | undefined): number | undefined {
  const m = /nplurals\s*=\s*(\d+)/.exec(pluralForms ?? "");
  return m ? Number(m[1]) : undefined;
}
