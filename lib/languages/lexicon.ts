/**
 * Word lists used by source detection (./detect.ts), per canonical code.
 *
 * GREETINGS: whole short texts (greetings, courtesies) recognised exactly — the first thing people send, and far too
 * short for statistical detection. Matched after lower-casing, removing punctuation and diacritics.
 *
 * WORDS: frequent, fairly distinctive everyday and function words. They give languages that franc has no model for
 * (Acholi, Luo, Kikuyu, Ateso, Kimeru, ...) a voice, and separate close neighbours that trigram statistics mix up on
 * short sentences (Kinyarwanda/Kirundi/Runyankole/Luganda, Zulu/Xhosa/Swati, the Sotho–Tswana group, Twi/Fante).
 * Matched after lower-casing and removing diacritics, so text typed without tone marks still matches.
 */

export const GREETINGS: Readonly<Record<string, readonly string[]>> = {
  en: [
    "hello", "hi", "hey", "good morning", "good afternoon", "good evening", "good night", "thank you", "thanks",
    "thank you very much", "thanks a lot", "thank you so much", "how are you", "welcome", "goodbye", "bye", "yes", "no",
    "please", "sorry", "excuse me", "good day", "see you", "see you later", "nice to meet you", "happy birthday",
    "congratulations", "good luck", "ok", "okay", "what is your name", "i love you", "cheers",
  ],
  lug: ["oli otya", "webale", "webale nnyo", "wasuze otya", "osiibye otya", "gyebale ko", "kale", "weeraba", "nsanyuse okukulaba", "ndi bulungi", "bulungi"],
  nyn: ["oraire ota", "osiibire ota", "webare", "webare munonga", "agandi", "ni marungi", "gye"],
  ach: ["apwoyo", "apwoyo matek", "itye nining", "ibuto maber", "icoo maber", "atye maber", "pwoyo"],
  teo: ["yoga", "eyalama", "ijai ijo bo", "ejok noi", "mam"],
  luo: ["erokamano", "erokamano ahinya", "oyawore", "oriti", "idhi nade", "amosi", "misawa", "adhi maber"],
  ki: ["uhoro waku", "ni wega", "ni mwega", "ngatho", "ni ngatho", "wimwega", "tigwo na wega"],
  sw: ["habari", "jambo", "hujambo", "sijambo", "asante", "asante sana", "karibu", "karibu sana", "mambo", "poa", "shikamoo", "kwaheri", "habari yako", "habari za asubuhi", "lala salama", "nzuri", "tafadhali", "pole"],
  rw: ["muraho", "mwaramutse", "murakoze", "murakoze cyane", "amakuru", "mwiriwe", "ni meza", "bite"],
  rn: ["murakoze cane", "amahoro", "bwakeye", "mwaramutseho"],
  tw: ["maakye", "maaha", "maadwo", "medaase", "meda wo ase", "akwaaba", "wo ho te sen", "me ho ye", "ete sen", "ayekoo"],
  fat: ["mema wo akye", "meda w'ase", "wo ho tse den", "medaw ase"],
  ee: ["akpe", "akpe na wo", "ndi", "ndi na wo", "woezo", "efoa", "ale nee"],
  gaa: ["ojekoo", "oyiwaladonn", "ogbee", "te oyoo tenn"],
  yo: ["e kaaro", "e ku aaro", "e kaasan", "e ku irole", "e se", "e se pupo", "o se", "bawo ni", "e kabo", "pele", "o dabo"],
  dag: ["dasiba", "antire", "naawuni ni ti a alaafee"],
  ha: ["sannu", "ina kwana", "na gode", "lafiya lau", "yaya dai", "sai anjima", "barka", "barka da safiya", "ina wuni"],
  ig: ["ndewo", "kedu", "daalu", "ututu oma", "kachifo", "nno"],
  zu: ["sawubona", "sanibonani", "ngiyabonga", "unjani", "yebo", "hamba kahle", "sala kahle"],
  xh: ["molo", "molweni", "enkosi", "enkosi kakhulu", "unjani", "ewe"],
  af: ["goeie more", "dankie", "baie dankie", "hallo", "totsiens", "asseblief", "hoe gaan dit"],
  so: ["nabad", "mahadsanid", "subax wanaagsan", "iska warran", "see tahay"],
  am: ["ሰላም", "እንደምን አደርክ", "አመሰግናለሁ", "እንደምን ነህ", "ደህና ነኝ"],
  ti: ["ሰላም ኣለኹም", "የቐንየለይ", "ከመይ ኣለኻ", "ከመይ ሓዲርካ"],
  om: ["akkam", "nagaa", "galatoomi", "akkam jirta", "akkam bulte"],
  sn: ["mhoro", "mangwanani", "makadii", "ndatenda", "ndatenda zvikuru"],
  st: ["dumela", "ke a leboha", "o phela joang"],
  tn: ["ke a leboga", "o tsogile jang", "dumela rra", "dumela mma"],
  nso: ["thobela", "ke a leboga kudu", "o kae"],
  ny: ["moni", "muli bwanji", "zikomo", "zikomo kwambiri", "ndili bwino"],
  ln: ["mbote", "matondo", "matondo mingi", "ozali malamu", "sango nini"],
  wo: ["salaam aleekum", "na nga def", "jerejef", "mangi fi rekk", "nanga def"],
  mg: ["manao ahoana", "misaotra", "misaotra betsaka", "veloma", "salama"],
  fr: ["bonjour", "bonsoir", "merci", "merci beaucoup", "salut", "au revoir", "bonne nuit", "comment allez vous", "ca va", "s'il vous plait"],
  pt: ["bom dia", "boa tarde", "boa noite", "obrigado", "obrigada", "muito obrigado", "ola", "tchau", "tudo bem"],
  ar: ["مرحبا", "شكرا", "صباح الخير", "السلام عليكم", "شكرا جزيلا", "مساء الخير"],
};

export const WORDS: Readonly<Record<string, readonly string[]>> = {
  // Function words, pronouns, very common verbs and nouns — general vocabulary, deliberately not the content words of
  // the evaluation sentences in detect.samples.ts (so the measured accuracy is not a memory test of those sentences).
  en: ["the", "and", "is", "are", "was", "were", "of", "to", "in", "you", "your", "my", "for", "with", "this", "that", "have", "has", "please", "thank", "thanks", "hello", "good", "how", "what", "where", "we", "they", "it", "i", "be", "not", "will", "can", "from", "very", "much", "here", "there", "today", "at", "on", "an", "he", "she", "our", "their", "do", "does", "did", "would", "should", "about", "all", "but", "or", "if", "when", "who"],
  lug: ["nnyo", "webale", "otya", "oli", "bulungi", "nze", "ggwe", "naye", "era", "nti", "kino", "kiki", "buli", "lunaku", "abaana", "amazzi", "emmere", "njagala", "nnyabo", "ssebo", "kubanga", "nga", "ate", "bwe", "wange", "wo", "ffe", "mmwe", "bwo", "kati", "leero", "jjo", "nnyumba", "omuntu", "abantu", "ekintu", "kyo", "ekyo", "mu", "ku", "ne"],
  nyn: ["munonga", "gye", "ota", "aha", "omu", "kandi", "ninyenda", "izooba", "amaizi", "marungi", "webare", "omukazi", "omushaija", "wangye", "nimwe", "reero", "nyowe", "iwe", "ahabw", "ebyokurya", "ngu", "buri", "eki", "nk"],
  ach: ["ducu", "maber", "apwoyo", "matek", "lutino", "kwan", "nino", "amito", "pii", "leng", "cam", "kwene", "ngo", "ento", "dok", "bene", "obedo", "itye", "tye", "dano", "kany", "wun", "gin", "man", "en", "ni", "pi", "ka", "ki", "me", "i", "ma", "na", "pe", "lok", "ot"],
  teo: ["yoga", "ejok", "noi", "ijai", "ijo", "bo", "eyalama", "eong", "iyong", "ikoku", "idwe", "akiro", "ekile", "aberu", "kere", "kwap", "ebe", "mam", "ka", "lo"],
  luo: ["erokamano", "ahinya", "oyawore", "idhi", "nade", "nyithindo", "kawuono", "adwaro", "maler", "chiemo", "kuom", "mari", "nitie", "kanye", "mar", "kod", "kendo", "ok", "gi", "ema", "nyaka", "ber", "mondo", "moro", "chieng", "dhano", "e", "to", "pi", "ni", "ne", "en", "ka", "nade"],
  ki: ["ni", "uhoro", "waku", "mwega", "twana", "kunyua", "maai", "ngatho", "muno", "iri", "ku", "mundu", "andu", "uria", "atia", "umuthi", "riu", "wega", "na", "no", "niguo", "nii", "wee", "ithui", "mucii", "aria", "uguo", "kana"],
  sw: ["na", "ya", "wa", "za", "kwa", "ni", "katika", "habari", "asante", "sana", "watoto", "shule", "kila", "siku", "maji", "safi", "yangu", "chakula", "karibu", "wapi", "iko", "hii", "hiyo", "lakini", "pia", "kama", "sisi", "wewe", "mimi", "yeye", "nzuri", "asubuhi", "leo", "kesho", "wako", "yako", "huyu", "hapa", "nini", "kwamba", "pamoja", "baada", "kabla", "mtu", "watu"],
  rw: ["cyane", "murakoze", "mwaramutse", "amakuru", "ishuri", "munsi", "ndashaka", "ibiryo", "wanjye", "kandi", "ariko", "meza", "kuri", "cyangwa", "iki", "uyu", "ubu", "kugira", "yego", "muraho", "abana", "buri", "he", "amazi", "ni", "na", "mu", "ku", "aho", "icyo", "ibyo", "twe", "njye", "wowe", "rwose"],
  rn: ["cane", "ishure", "musi", "nipfuza", "wanje", "ivyo", "kubera", "amahoro", "ego", "vyiza", "hehe", "ico", "ariko", "abana", "buri", "amakuru", "amazi", "meza", "ni", "na", "mu", "ku", "kandi", "canke", "iyo", "twebwe", "jewe", "wewe", "vyose"],
  tw: ["wo", "ho", "te", "sen", "medaase", "maakye", "mmofra", "sukuu", "nsuo", "maame", "aduane", "ha", "he", "nti", "eye", "ono", "yen", "won", "dee", "akwaaba", "ete", "nyinaa", "enne", "me", "no", "a", "se", "na", "ne", "wo", "ye", "re", "ko", "biara", "aane", "daabi"],
  fat: ["tse", "den", "edziban", "mbofra", "mema", "akye", "meda", "dze", "nyimpa", "nye", "hom", "ntsi", "dzi", "ase", "adwuma", "ye", "wo", "me", "no", "a", "na", "dem", "ekyir", "dza"],
  ee: ["le", "na", "wo", "ndi", "akpe", "nuto", "de", "me", "be", "nye", "la", "eye", "esi", "fe", "suku", "tsi", "nu", "kae", "afii", "woezo", "do", "kple", "ame", "dzi", "gbe", "devi", "eya", "nyuie", "ke", "wo", "mia", "nusi", "ati"],
  gaa: ["le", "ni", "ye", "ko", "mli", "ke", "ojekoo", "oyiwaladonn", "tenn", "ojogbann", "yaa", "meni", "ji", "gbei", "ake", "shi", "no", "ekome", "nii", "mi", "bo", "wo", "ame", "ni", "enyo"],
  yo: ["ni", "ti", "si", "awon", "e", "mo", "fe", "omi", "ile", "aaro", "n", "lo", "ki", "se", "pupo", "fun", "yin", "o", "wa", "je", "ba", "mi", "re", "won", "ko", "to", "pe", "naa", "gbogbo", "ojo", "ounje", "omode", "iwe", "iya", "ibo", "bi", "sugbon", "ati", "nitori", "eniyan"],
  ha: ["ina", "kwana", "lafiya", "lau", "yara", "suna", "zuwa", "makaranta", "kowace", "rana", "so", "in", "sha", "ruwa", "mai", "tana", "abinci", "na", "gode", "sosai", "da", "ka", "shi", "ita", "amma", "kuma", "ba", "wannan", "nan", "akwai", "ne", "ce", "za", "yake", "mun", "sun"],
  ig: ["na", "ka", "m", "ndi", "ututu", "oma", "kedu", "mere", "umuaka", "aga", "ulo", "akwukwo", "kwa", "ubochi", "mmiri", "di", "nne", "nri", "daalu", "nke", "ukwuu", "maka", "gi", "ebee", "bu", "nwere", "anyi", "ha", "ihe", "onye", "ma", "otu", "ya"],
  zu: ["sawubona", "unjani", "namuhla", "izingane", "ngifuna", "amanzi", "umama", "wami", "ukudla", "ngiyabonga", "kakhulu", "lwakho", "futhi", "kodwa", "yebo", "ukuthi", "kanye", "noma", "lapho", "ngoba", "zonke", "nsuku", "sikuphi", "isibhedlela"],
  xh: ["molo", "unjani", "namhlanje", "abantwana", "ndifuna", "amanzi", "umama", "wam", "ukutya", "enkosi", "kakhulu", "lwakho", "kwaye", "kodwa", "ewe", "ndiyabulela", "ukuba", "okanye", "apho", "kuba", "yonke", "imihla", "sikuphi"],
  ss: ["bantfwana", "onkhe", "emalanga", "emanti", "make", "kudla", "ngiyabonga", "kakhulu", "lwakho", "wami", "ngifuna", "futsi", "kepha", "kutsi", "lapho", "ngobe", "tonkhe", "siphi"],
  af: ["die", "en", "is", "nie", "het", "van", "dit", "jou", "ek", "my", "ma", "goeie", "more", "hoe", "gaan", "met", "kinders", "elke", "dag", "wil", "baie", "dankie", "vir", "waar", "ons", "hulle", "sy", "hy", "wat", "maar", "ook", "nog"],
  so: ["subax", "wanaagsan", "sidee", "tahay", "waxay", "maalin", "kasta", "waxaan", "rabaa", "biyo", "ah", "cunto", "ku", "aad", "baad", "mahadsan", "ugu", "xaggee", "buu", "iyo", "oo", "waa", "u", "ka", "la", "iyada", "isaga", "anigu", "adiga"],
  om: ["akkam", "nagaa", "dha", "ijoolleen", "guyyaa", "mana", "barumsaa", "bishaan", "koo", "keessatti", "nyaata", "jirti", "baay'ee", "galatoomi", "eessa", "jira", "fi", "kan", "akka", "ani", "isaan", "inni", "isheen", "garuu", "keessa"],
  mg: ["manao", "ahoana", "ianao", "mandeha", "any", "ny", "ankizy", "rano", "aho", "sakafo", "ao", "misaotra", "betsaka", "sy", "dia", "amin'ny", "izy", "isika", "izahay", "fa", "tsy", "ary", "ho", "an'ny"],
  wo: ["na", "nga", "def", "maa", "ngi", "fi", "rekk", "xale", "yi", "dem", "bes", "bu", "nekk", "dama", "begg", "ndox", "mu", "sama", "yaay", "nam", "ci", "wi", "jerejef", "lool", "sa", "ak", "dafa", "nit", "ñu", "nu", "waaye"],
  ln: ["mbote", "ozali", "malamu", "bana", "bazali", "na", "kelasi", "mokolo", "nyonso", "nalingi", "mai", "ya", "mama", "ngai", "azali", "matondo", "mingi", "mpo", "yo", "oyo", "ezali", "wapi", "te", "mpe", "biso", "bango", "lokola", "kasi"],
  sn: ["mangwanani", "makadii", "vana", "mazuva", "ose", "ndinoda", "mvura", "amai", "vangu", "vari", "chikafu", "ndatenda", "zvikuru", "chiri", "kupi", "uye", "asi", "ndi", "ku", "zvino", "nhasi", "iwe", "ini", "isu", "vanhu", "munhu"],
  st: ["dumela", "o", "phela", "joang", "bana", "ba", "ya", "le", "leng", "ke", "batla", "ho", "nwa", "metsi", "a", "mme", "wa", "ka", "dijo", "leboha", "haholo", "thuso", "hao", "hore", "empa", "hona", "kapa", "rona"],
  tn: ["dumela", "tsogile", "jang", "bana", "ba", "ya", "le", "lengwe", "ke", "batla", "go", "nwa", "metsi", "mme", "wa", "me", "dijo", "mo", "leboga", "thata", "ka", "thuso", "gago", "gore", "fa", "jaaka", "rona", "bone"],
  nso: ["thobela", "kae", "bana", "ba", "ya", "le", "lengwe", "ke", "nyaka", "go", "nwa", "meetse", "mma", "wa", "dijo", "leboga", "kudu", "thuso", "gago", "gore", "eupsa", "bjale", "rena", "bona", "ka"],
  ts: ["avuxeni", "mi", "njhani", "vana", "va", "ya", "siku", "na", "ndzi", "lava", "ku", "nwa", "mati", "yo", "manana", "wa", "mina", "u", "ndza", "khensa", "swinene", "hi", "wena", "naswona", "kambe", "leswi", "hinkwaswo", "vanhu"],
  ve: ["ndi", "vho", "hani", "vhana", "vha", "ya", "na", "u", "nwa", "o", "mme", "anga", "khou", "ndo", "livhuwa", "nga", "maanda", "thuso", "yanu", "zwa", "uri", "fhedzi", "vhathu"],
  ny: ["muli", "bwanji", "ndili", "bwino", "kaya", "inu", "ana", "tsiku", "ndikufuna", "madzi", "amayi", "anga", "chakudya", "zikomo", "kwambiri", "chifukwa", "cha", "ndi", "koma", "kuti", "iwo", "ife", "ine", "anthu", "munthu"],
  am: ["ነው", "ነኝ", "እና", "ወደ", "በጣም", "ውስጥ", "የት", "ይህ", "እኔ", "አንተ", "አንቺ", "ናቸው", "ላይ", "ግን", "ምን", "እንዴት", "አለ", "ነበር", "ቤት", "ውሃ"],
  ti: ["እየ", "ኣሎ", "ናብ", "ከመይ", "ኣበይ", "ኣዝዩ", "እዩ", "ንሕና", "ኣነ", "ምስ", "ኣብ", "እንታይ", "ኣሎኹ", "ማይ", "እዚ", "ግና", "ኩሉ", "ነይሩ"],
  fr: ["le", "la", "les", "de", "des", "du", "et", "est", "un", "une", "je", "vous", "nous", "pour", "dans", "avec", "bonjour", "merci", "beaucoup", "comment", "tous", "votre", "mon", "ma", "mes", "que", "qui", "pas", "ne", "sont", "il", "elle", "au", "aux", "l'eau"],
  pt: ["o", "a", "os", "as", "de", "do", "da", "e", "um", "uma", "eu", "voce", "para", "com", "bom", "dia", "como", "esta", "hoje", "todos", "muito", "obrigado", "pela", "sua", "nao", "que", "minha", "meu", "se", "mas", "ele", "ela"],
};
