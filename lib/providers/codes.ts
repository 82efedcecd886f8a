/**
 * Provider wire codes. Our canonical codes are short (en, sw, tw, ...); the upstreams want
 * ISO 639-3 (Sunbird, Khaya speech), Khaya v1 pair codes (en-tw) or FLORES-200 (NLLB, chosen by lib/languages).
 */

/** Canonical codes that are not already ISO 639-3. */
const CANONICAL_TO_ISO3: Readonly<Record<string, string>> = {
  en: "eng",
  sw: "swa",
  rw: "kin",
  tw: "twi",
  ee: "ewe",
  yo: "yor",
  ki: "kik",
  ha: "hau",
  ig: "ibo",
  am: "amh",
  zu: "zul",
  xh: "xho",
  so: "som",
  af: "afr",
  ln: "lin",
  lg: "lug",
  fr: "fra",
  ar: "ara",
  sn: "sna",
  wo: "wol",
  rn: "run",
  ny: "nya",
  om: "orm",
  ti: "tir",
  ff: "ful",
};

export function toIso3(code: string): string {
  const c = code.trim().toLowerCase();
  return CANONICAL_TO_ISO3[c] ?? c;
}

/** Sunbird Sunflower translation: the 32 languages, ISO 639-3 → name (app/utils/languages.py). */
export const SUNBIRD_TRANSLATE_LANGUAGES: Readonly<Record<string, string>> = {
  ach: "Acholi",
  alz: "Alur",
  luc: "Aringa",
  teo: "Ateso",
  bfa: "Bari",
  eng: "English",
  adh: "Jopadhola",
  keo: "Kakwa",
  kdj: "Karamojong",
  kin: "Kinyarwanda",
  kdi: "Kumam",
  kpz: "Kupsabiny",
  rwm: "Kwamba",
  laj: "Lango",
  tlj: "Lubwisi",
  lug: "Luganda",
  lgg: "Lugbara",
  rub: "Lugungu",
  gwr: "Lugwere",
  myx: "Lumasaba",
  nuj: "Lunyole",
  xog: "Lusoga",
  mhi: "Ma'di",
  pok: "Pokot",
  cgg: "Rukiga",
  koo: "Rukonjo",
  nyn: "Runyankole",
  nyo: "Runyoro",
  ruc: "Ruruuli",
  ttj: "Rutooro",
  lsm: "Samia",
  swa: "Swahili",
};

/**
 * Sunbird speech-to-text languages: the `language` enum (SttbLanguage) plus Rutooro (ttj), which Sunbird's tutorial
 * lists and its published STT list (11 languages) includes, but the server's enum does not. Rutooro follows what
 * Sunbird answers: the first 422 refusing the value marks provider_a's Rutooro STT unavailable (lib/availability,
 * subject stt:provider_a:ttj), and it leaves routing and GET /api/v1/languages on every instance until the finding
 * expires and the language is tried again.
 */
export const SUNBIRD_STT_LANGUAGES: readonly string[] = ["ach", "teo", "eng", "lug", "lgg", "nyn", "swa", "kin", "xog", "myx", "ttj"];

/** Sunbird spark-tts speakers: id → ISO 639-3 (app/models/enums.py SpeakerID). 248 (Luganda) is the default. */
export const SUNBIRD_SPARK_VOICES: Readonly<Record<string, string>> = {
  "241": "ach",
  "242": "teo",
  "243": "nyn",
  "245": "lgg",
  "246": "swa",
  "248": "lug",
};

/**
 * Sunbird Orpheus (orpheus-3b-tts) voice catalog by ISO 639-3: the named voices Sunbird's tutorial publishes; the
 * first of each language is its default. Sunbird lists 20 Orpheus languages; Lugbara, Sesotho and Setswana have no
 * voices in the catalog, so nothing is claimed for them. The live catalog (GET /tasks/voice/speakers) is authoritative.
 */
export const SUNBIRD_ORPHEUS_VOICES: Readonly<Record<string, readonly string[]>> = {
  ach: ["salt_ach_0001", "waxal_ach_0001", "waxal_ach_0005", "waxal_ach_0006", "waxal_ach_0008"],
  afr: ["slr32_afr_0009"],
  eng: ["salt_eng_0001", "salt_eng_0002", "salt_eng_0003"],
  ewe: ["slr129_ewe_0001"],
  ful: ["waxal_ful_0003", "waxal_ful_0004", "waxal_ful_0006"],
  hau: ["waxal_hau_0004", "waxal_hau_0006", "waxal_hau_0007", "waxal_hau_0008"],
  ibo: ["waxal_ibo_0003", "waxal_ibo_0005", "waxal_ibo_0008"],
  kik: ["waxal_kik_0003", "waxal_kik_0004"],
  kin: ["bateesa_kin_0001"],
  lin: ["slr129_lin_0001"],
  lug: [
    "salt_lug_0001",
    "waxal_lug_0002",
    "waxal_lug_0003",
    "waxal_lug_0004",
    "waxal_lug_0005",
    "waxal_lug_0006",
    "waxal_lug_0007",
    "waxal_lug_0008",
  ],
  luo: ["waxal_luo_0001", "waxal_luo_0002", "waxal_luo_0003", "waxal_luo_0004"],
  nyn: ["salt_nyn_0001", "waxal_nyn_0003", "waxal_nyn_0004", "waxal_nyn_0007", "waxal_nyn_0008"],
  swa: ["waxal_swa_0006", "waxal_swa_0007"],
  teo: ["salt_teo_0001"],
  xho: ["slr32_xho_0012"],
  yor: ["waxal_yor_0002", "waxal_yor_0006", "waxal_yor_0008"],
};

/**
 * Khaya translation: canonical code → language name; every pair has English on one side. The wire code is the
 * language's ISO 639-3 code (`eng-twi`, see KhayaClient.pairCode): two-letter codes are legacy upstream.
 */
export const KHAYA_TRANSLATE_LANGUAGES: Readonly<Record<string, string>> = {
  tw: "Twi",
  ee: "Ewe",
  gaa: "Ga",
  fat: "Fante",
  yo: "Yoruba",
  dag: "Dagbani",
  ki: "Kikuyu",
  gur: "Gurene",
  luo: "Luo",
  mer: "Kimeru",
  kus: "Kusaal",
};

/**
 * Khaya ASR v3 catalog: 34 ids, ISO 639-3 plus two Konkomba dialect ids. The dialect ids name no language of the
 * registry on their own, so the catalogue does not claim Konkomba speech-to-text.
 */
export const KHAYA_ASR_LANGUAGES: readonly string[] = [
  "eng",
  "fra",
  "atw",
  "bwu",
  "dga",
  "dag",
  "ada",
  "ewe",
  "fat",
  "gaa",
  "gjn",
  "gur",
  "hau",
  "ibo",
  "xsm",
  "kik",
  "kin",
  "kri",
  "kus",
  "luo",
  "maw",
  "men",
  "mer",
  "pcm",
  "nzi",
  "sna",
  "swa",
  "tem",
  "twi",
  "wlx",
  "wol",
  "xon_likoonli",
  "xon_likpakpaanl",
  "yor",
];

/** Khaya TTS v1 catalog (32 codes; `lxn` is a Konkomba variant id the registry does not name, so it is not claimed). */
export const KHAYA_TTS_LANGUAGES: readonly string[] = [
  "atw",
  "twi",
  "dga",
  "dag",
  "ada",
  "eng",
  "ewe",
  "fat",
  "fra",
  "gaa",
  "gjn",
  "gur",
  "hau",
  "ibo",
  "xsm",
  "kik",
  "lxn",
  "xon",
  "kri",
  "kus",
  "luo",
  "maw",
  "men",
  "mer",
  "nzi",
  "pcm",
  "sna",
  "swa",
  "tem",
  "wlx",
  "wol",
  "yor",
];

/** MMS-TTS ids differ from plain ISO 639-3 for macro-languages (Swahili is swh). */
const MMS_OVERRIDES: Readonly<Record<string, string>> = { swa: "swh" };

export function defaultHfTtsModel(language: string): string {
  const iso = toIso3(language);
  return `facebook/mms-tts-${MMS_OVERRIDES[iso] ?? iso}`;
}

export const DEFAULT_HF_ASR_MODEL = "openai/whisper-large-v3-turbo";
