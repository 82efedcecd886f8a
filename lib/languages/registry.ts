/**
 * The language registry: every language at least one provider serves — translation (see ./pairs.ts for who translates
 * what) or speech (lib/speech/catalog.ts for who transcribes and speaks what).
 *
 * Codes. Our canonical code is the one the API speaks: ISO 639-1 where the contract uses it (en, sw, yo, tw,
 * ee, ki, ...), ISO 639-3 where it does (lug, ach, teo, nyn, lgg, gaa, fat, dag, gur, luo, mer, kus). Every language
 * also accepts its ISO 639-3 code and the other common spellings listed in `aliases`, in any case and with surrounding
 * whitespace. Responses echo what the caller sent in `target_lang`; everything else (routing, detection, listings)
 * uses the canonical code.
 *
 * Adding a language: add an entry here (names, region, aliases, and the franc code if franc knows it); then give it
 * pairs — provider_a / provider_b sets in ./pairs.ts, or Hugging Face models in the model map (./hf-models.json or
 * HF_MODEL_MAP) — and/or speech (the provider tables behind lib/speech/catalog.ts). Being in the registry makes a code
 * *known* (translate answers UNSUPPORTED_LANGUAGE_PAIR rather than UNSUPPORTED_LANGUAGE for it); it claims nothing by
 * itself: /languages reports only what the pair tables and the speech catalogue serve, and does not list a language
 * nobody serves.
 */

export type Region = "East Africa" | "West Africa" | "Central Africa" | "Southern Africa" | "North Africa" | "Global";

export interface Language {
  /** Canonical code. */
  code: string;
  /** English name. */
  name: string;
  /** Name in the language itself. */
  nativeName: string;
  region: Region;
  /** Other accepted spellings (lower case): ISO 639-3, ISO 639-1, common variants. */
  aliases: readonly string[];
  /** franc (ISO 639-3) code used by source detection, when franc has a model for the language. */
  franc?: string;
}

const L = (code: string, name: string, nativeName: string, region: Region, aliases: string[] = [], franc?: string): Language => ({
  code,
  name,
  nativeName,
  region,
  aliases,
  ...(franc ? { franc } : {}),
});

/**
 * Other names people know a language by — the language family or cluster it belongs to, a dialect's name, its name in
 * another language — for finding it by search (the /languages page). Unlike `aliases`, these are never accepted as a
 * code: "Akan" names Twi and Fante alike.
 */
export const OTHER_NAMES: Readonly<Record<string, readonly string[]>> = {
  tw: ["Akan", "Asante", "Ashanti", "Asante Twi", "Akuapem", "Akuapem Twi"],
  fat: ["Akan", "Fanti", "Mfantse"],
  lug: ["Ganda", "Oluganda"],
  sw: ["Kiswahili"],
  nyn: ["Nkore", "Nyankore", "Runyankore"],
  teo: ["Teso", "Iteso"],
  ach: ["Lwo", "Acoli"],
  ki: ["Gikuyu", "Gĩkũyũ"],
  luo: ["Dholuo", "Nilotic Luo"],
  yo: ["Yorùbá"],
  ee: ["Eʋe", "Eʋegbe"],
  gaa: ["Gã"],
  gur: ["Frafra", "Farefare"],
  mer: ["Meru"],
  rw: ["Rwanda", "Ikinyarwanda"],
  rn: ["Rundi", "Ikirundi"],
  ny: ["Nyanja", "Chinyanja", "Chewa"],
  st: ["Southern Sotho", "Sotho"],
  nso: ["Sepedi", "Pedi"],
  tn: ["Tswana"],
  ts: ["Tsonga"],
  ss: ["Swazi"],
  zu: ["isiZulu"],
  xh: ["isiXhosa"],
  om: ["Afaan Oromoo"],
  xog: ["Soga"],
  myx: ["Masaba", "Gisu", "Lugisu"],
};

export const LANGUAGES: readonly Language[] = [
  // provider_a (Sunbird) core set
  L("en", "English", "English", "Global", ["eng"], "eng"),
  L("lug", "Luganda", "Oluganda", "East Africa", ["lg"], "lug"),
  L("ach", "Acholi", "Lwo", "East Africa", ["acholi"]),
  L("teo", "Ateso", "Ateso", "East Africa", []),
  L("nyn", "Runyankole", "Runyankore", "East Africa", [], "nyn"),
  L("lgg", "Lugbara", "Lugbarati", "East Africa", []),
  // provider_b (Khaya) set
  L("tw", "Twi", "Twi", "West Africa", ["twi"], "twi"),
  L("ee", "Ewe", "Eʋegbe", "West Africa", ["ewe"], "ewe"),
  L("gaa", "Ga", "Gã", "West Africa", [], "gaa"),
  L("fat", "Fante", "Mfantse", "West Africa", [], "fat"),
  L("yo", "Yoruba", "Yorùbá", "West Africa", ["yor"], "yor"),
  L("dag", "Dagbani", "Dagbanli", "West Africa", [], "dag"),
  L("ki", "Kikuyu", "Gĩkũyũ", "East Africa", ["kik"]),
  L("gur", "Gurene", "Gurenɛ", "West Africa", ["frafra"]),
  L("luo", "Luo", "Dholuo", "East Africa", ["dholuo"]),
  L("mer", "Kimeru", "Kĩmĩĩrũ", "East Africa", []),
  L("kus", "Kusaal", "Kusaal", "West Africa", []),
  // Hugging Face models (opus-mt pair models, NLLB-200, opus-mt multilingual)
  L("sw", "Swahili", "Kiswahili", "East Africa", ["swa", "swh"], "swh"),
  L("rw", "Kinyarwanda", "Ikinyarwanda", "East Africa", ["kin"], "kin"),
  L("rn", "Kirundi", "Ikirundi", "East Africa", ["run"], "run"),
  L("so", "Somali", "Soomaali", "East Africa", ["som"], "som"),
  L("am", "Amharic", "አማርኛ", "East Africa", ["amh"], "amh"),
  L("om", "Oromo", "Afaan Oromoo", "East Africa", ["orm", "gaz"], "gaz"),
  L("ti", "Tigrinya", "ትግርኛ", "East Africa", ["tir"], "tir"),
  L("mg", "Malagasy", "Malagasy", "East Africa", ["mlg", "plt"], "plt"),
  L("ha", "Hausa", "Hausa", "West Africa", ["hau"], "hau"),
  L("ig", "Igbo", "Asụsụ Igbo", "West Africa", ["ibo"], "ibo"),
  L("wo", "Wolof", "Wolof", "West Africa", ["wol"], "wol"),
  L("ln", "Lingala", "Lingála", "Central Africa", ["lin"], "lin"),
  L("kg", "Kongo", "Kikongo", "Central Africa", ["kon"]),
  L("lu", "Luba-Katanga", "Kiluba", "Central Africa", ["lub"]),
  L("zu", "Zulu", "isiZulu", "Southern Africa", ["zul"], "zul"),
  L("xh", "Xhosa", "isiXhosa", "Southern Africa", ["xho"], "xho"),
  L("af", "Afrikaans", "Afrikaans", "Southern Africa", ["afr"], "afr"),
  L("sn", "Shona", "chiShona", "Southern Africa", ["sna"], "sna"),
  L("st", "Sesotho", "Sesotho", "Southern Africa", ["sot"], "sot"),
  L("tn", "Setswana", "Setswana", "Southern Africa", ["tsn"], "tsn"),
  L("ts", "Xitsonga", "Xitsonga", "Southern Africa", ["tso"], "tso"),
  L("ss", "Swati", "siSwati", "Southern Africa", ["ssw"], "ssw"),
  L("nso", "Northern Sotho", "Sesotho sa Leboa", "Southern Africa", ["sepedi"], "nso"),
  L("ve", "Venda", "Tshivenḓa", "Southern Africa", ["ven"], "ven"),
  L("ny", "Chichewa", "Chichewa", "Southern Africa", ["nya"], "nya"),
  L("fr", "French", "Français", "Global", ["fra", "fre"], "fra"),
  L("pt", "Portuguese", "Português", "Global", ["por"], "por"),
  L("de", "German", "Deutsch", "Global", ["deu", "ger"], "deu"),
  L("ar", "Arabic", "العربية", "North Africa", ["ara", "arb"], "arb"),
  // Sunbird's Sunflower languages beyond routing rule (a)'s set: provider_a serves their pairs as the last candidate
  // (the "sunflower-extended" tier, see lib/providers/sunbird.descriptor.ts). Lusoga, Lumasaba and Rutooro are also
  // transcribed by Sunbird's STT.
  L("xog", "Lusoga", "Olusoga", "East Africa", ["soga", "lusoga"]),
  L("myx", "Lumasaba", "Lumasaaba", "East Africa", ["masaba", "lumasaba", "lugisu"]),
  L("alz", "Alur", "Dho-Alur", "East Africa", ["alur"]),
  L("luc", "Aringa", "Aringati", "East Africa", ["aringa"]),
  L("bfa", "Bari", "Kutuk na Bari", "East Africa", ["bari"]),
  L("adh", "Jopadhola", "Dhopadhola", "East Africa", ["jopadhola", "dhopadhola"]),
  L("keo", "Kakwa", "Kutuk na Kakwa", "East Africa", ["kakwa"]),
  L("kdj", "Karamojong", "Ngakarimojong", "East Africa", ["karamojong"]),
  L("kdi", "Kumam", "Ikokolemu", "East Africa", ["kumam"]),
  L("kpz", "Kupsabiny", "Kupsapiiny", "East Africa", ["kupsabiny", "sebei"]),
  L("rwm", "Kwamba", "Lubwamba", "East Africa", ["kwamba", "amba"]),
  L("laj", "Lango", "Lëblaŋo", "East Africa", ["lango"]),
  L("tlj", "Lubwisi", "Lubwisi", "East Africa", ["lubwisi", "talinga"]),
  L("rub", "Lugungu", "Rugungu", "East Africa", ["lugungu", "gungu"]),
  L("gwr", "Lugwere", "Olugwere", "East Africa", ["lugwere", "gwere"]),
  L("nuj", "Lunyole", "Olunyole", "East Africa", ["lunyole", "nyole"]),
  L("mhi", "Ma'di", "Ma'di ti", "East Africa", ["madi"]),
  L("pok", "Pokot", "Pökoot", "East Africa", ["pokot"]),
  L("cgg", "Rukiga", "Orukiga", "East Africa", ["rukiga", "chiga"]),
  L("koo", "Rukonjo", "Orukonzo", "East Africa", ["rukonjo", "konzo"]),
  L("nyo", "Runyoro", "Orunyoro", "East Africa", ["runyoro", "nyoro"]),
  L("ruc", "Ruruuli", "Oruruuli", "East Africa", ["ruruuli", "ruuli"]),
  L("ttj", "Rutooro", "Orutooro", "East Africa", ["rutooro", "tooro"]),
  L("lsm", "Samia", "Olusamia", "East Africa", ["samia"]),
  // Speech only: Khaya (ASR and/or TTS) or Sunbird TTS; no provider here translates them.
  L("ff", "Fula", "Fulfulde", "West Africa", ["ful", "fulah"]),
  L("atw", "Akuapem Twi", "Akuapem Twi", "West Africa", ["akuapem"]),
  L("bwu", "Buli", "Buli", "West Africa", ["buli"]),
  L("dga", "Dagaare", "Dagaare", "West Africa", ["dagaare"]),
  L("ada", "Dangme", "Dangme", "West Africa", ["dangme", "adangme"]),
  L("gjn", "Gonja", "Ngbanyito", "West Africa", ["gonja"]),
  L("xsm", "Kasem", "Kasɩm", "West Africa", ["kasem"]),
  L("kri", "Krio", "Krio", "West Africa", ["krio"]),
  L("maw", "Mampruli", "Mampruli", "West Africa", ["mampruli"]),
  L("men", "Mende", "Mɛnde", "West Africa", ["mende"]),
  L("pcm", "Nigerian Pidgin", "Naijá", "West Africa", ["naija", "pidgin"]),
  L("nzi", "Nzema", "Nzema", "West Africa", ["nzema"]),
  L("tem", "Timne", "Themne", "West Africa", ["temne", "timne"]),
  L("wlx", "Wali", "Waale", "West Africa", ["wali"]),
  L("xon", "Konkomba", "Likpakpaanl", "West Africa", ["konkomba"]),
];

const BY_CODE = new Map<string, Language>();
const BY_ALIAS = new Map<string, Language>();
for (const lang of LANGUAGES) {
  if (BY_CODE.has(lang.code)) throw new Error(`language registry: duplicate code ${lang.code}`);
  BY_CODE.set(lang.code, lang);
}
for (const lang of LANGUAGES) {
  for (const spelling of [lang.code, ...lang.aliases]) {
    const key = spelling.toLowerCase();
    const other = BY_ALIAS.get(key);
    if (other && other !== lang) throw new Error(`language registry: "${key}" names both ${other.code} and ${lang.code}`);
    if (BY_CODE.has(key) && BY_CODE.get(key) !== lang)
      throw new Error(`language registry: alias "${key}" of ${lang.code} is another language's code`);
    BY_ALIAS.set(key, lang);
  }
}

/** Canonical form of `input` (any case, surrounding whitespace, ISO 639-3 or alias), or undefined if unknown. */
export function normalizeLanguageCode(input: string): string | undefined {
  return BY_ALIAS.get(input.trim().toLowerCase())?.code;
}

export function getLanguage(code: string): Language | undefined {
  const canonical = normalizeLanguageCode(code);
  return canonical ? BY_CODE.get(canonical) : undefined;
}

export function allLanguageCodes(): string[] {
  return LANGUAGES.map((l) => l.code);
}

/** Every accepted spelling → canonical code (for docs and the portal). */
export function languageAliases(): Record<string, string> {
  return Object.fromEntries([...BY_ALIAS.entries()].map(([k, v]) => [k, v.code]));
}
