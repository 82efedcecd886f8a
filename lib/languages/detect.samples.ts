/**
 * Sample sentences for measuring source-language detection (detect.test.ts prints the accuracy table).
 *
 * Written by hand for this project — everyday sentences (greetings, school, water, cooking, thanks, directions), not
 * taken from the UDHR texts franc is trained on, so the measurement is not a memory test. They are plausible, simple
 * sentences, not certified translations; `confidence: "low"` marks languages where the writer is less sure of
 * spelling or grammar. Languages with no samples here (Gurene, Kusaal, Kimeru, Lugbara, Dagbani, Kongo,
 * Luba-Katanga) could not be written reliably; detection cannot be measured for them (and, except via the greeting
 * lexicon, does not propose them): callers should pass source_lang.
 */
export interface SampleSet {
  code: string;
  confidence?: "low";
  sentences: string[];
}

export const DETECTION_SAMPLES: SampleSet[] = [
  {
    code: "en",
    sentences: [
      "The children are going to school early in the morning.",
      "Please send me the report before Friday afternoon.",
      "We need clean water for the whole village.",
      "My mother is cooking food in the kitchen.",
      "Where is the nearest hospital from here?",
      "Thank you very much for your help yesterday.",
    ],
  },
  {
    code: "lug",
    sentences: [
      "Wasuze otya nnyabo? Nsuze bulungi.",
      "Abaana bagenda ku ssomero buli lunaku.",
      "Njagala okunywa amazzi amayonjo.",
      "Maama wange afumba emmere mu ffumbiro.",
      "Eddwaliro eriri okumpi liri ludda wa?",
      "Tugenda mu katale okugula ebijanjaalo n'amatooke.",
      "Webale nnyo olw'obuyambi bwo.",
    ],
  },
  {
    code: "nyn",
    sentences: [
      "Oraire ota? Naraire gye.",
      "Abaana nibagyenda aha ishomero buri izooba.",
      "Ninyenda kunywa amaizi marungi.",
      "Maama wangye nateeka ebyokurya omu kicumbiro.",
      "Webare munonga ahabw'obuyambi bwawe.",
      "Omukazi naashoma ekitabo kye.",
    ],
  },
  {
    code: "ach",
    sentences: [
      "Ibuto maber? Abuto maber.",
      "Lutino gicito i gang kwan nino ducu.",
      "Amito mato pii ma leng.",
      "Mama na tye ka tedo cam i ot tedo.",
      "Apwoyo matek pi kony ni.",
      "Ot yat tye kwene?",
    ],
  },
  {
    code: "teo",
    confidence: "low",
    sentences: ["Yoga, ijai ijo bo?", "Eyalama noi.", "Ejok noi, ijo bo?"],
  },
  {
    code: "tw",
    sentences: [
      "Maakye, wo ho te sɛn?",
      "Me ho yɛ, medaase.",
      "Mmofra no rekɔ sukuu anɔpa.",
      "Me pɛ nsuo a ɛho tew.",
      "Me maame renoa aduane wɔ gyaade hɔ.",
      "Ayaresabea a ɛbɛn ha no wɔ he?",
    ],
  },
  {
    code: "fat",
    confidence: "low",
    sentences: [
      "Mema wo akye, wo ho tse dɛn?",
      "Me ho yɛ, meda w'ase.",
      "Mbofra no rokɔ sukuu.",
      "Me maame rinoa edziban.",
      "Ɔyɛ adwuma wɔ Cape Coast.",
    ],
  },
  {
    code: "ee",
    sentences: [
      "Ŋdi na wò, èfɔ̃ nyuiea?",
      "Akpe na wò ŋutɔ.",
      "Ɖeviwo le yiyim ɖe suku me.",
      "Medi be mano tsi dzadzɛ.",
      "Danye le nu ɖam le nuɖaƒe.",
      "Kɔdzi kae te ɖe afii?",
    ],
  },
  {
    code: "gaa",
    confidence: "low",
    sentences: ["Te oyɔɔ tɛŋŋ?", "Miiyɛ ojogbaŋŋ.", "Oyiwaladonn.", "Gbekɛbii lɛ yaa skul.", "Mɛni ji o gbɛi?"],
  },
  {
    code: "yo",
    sentences: [
      "Ẹ kú àárọ̀, ṣé dáadáa ni?",
      "Àwọn ọmọdé ń lọ sí ilé-ìwé ní àárọ̀.",
      "Mo fẹ́ mu omi tó mọ́.",
      "Ìyá mi ń se oúnjẹ ní ilé ìdáná.",
      "Ibo ni ilé-ìwòsàn tó súnmọ́ jù wà?",
      "Ẹ ṣé púpọ̀ fún ìrànlọ́wọ́ yín.",
    ],
  },
  {
    code: "ki",
    sentences: [
      "Ũhoro waku? Nĩ mwega.",
      "Twana nĩ tũrathiĩ cukuru rũciinĩ.",
      "Nĩ ndĩrenda kũnyua maaĩ matheru.",
      "Maitũ nĩ araruga irio.",
      "Nĩ ngũgũcookeria ngatho mũno.",
      "Thibitari ĩrĩ hakuhĩ ĩrĩ kũ?",
    ],
  },
  {
    code: "luo",
    sentences: [
      "Oyawore, idhi nade?",
      "Nyithindo dhi e skul kawuono okinyi.",
      "Adwaro modho pi maler.",
      "Mama na tedo chiemo e jikon.",
      "Erokamano ahinya kuom konyruok mari.",
      "Osiptal machiegni nitie kanye?",
    ],
  },
  {
    code: "sw",
    sentences: [
      "Habari za asubuhi? Nzuri sana, asante.",
      "Watoto wanakwenda shuleni kila siku.",
      "Nataka kunywa maji safi.",
      "Mama yangu anapika chakula jikoni.",
      "Hospitali iliyo karibu iko wapi?",
      "Asante sana kwa msaada wako.",
    ],
  },
  {
    code: "rw",
    sentences: [
      "Mwaramutse, amakuru yanyu?",
      "Abana bajya ku ishuri buri munsi.",
      "Ndashaka kunywa amazi meza.",
      "Mama wanjye arimo guteka ibiryo mu gikoni.",
      "Murakoze cyane ku bufasha bwanyu.",
      "Ibitaro biri hafi biri he?",
    ],
  },
  {
    code: "rn",
    sentences: [
      "Bite, amakuru yawe?",
      "Abana baja ku ishure buri musi.",
      "Nipfuza kunywa amazi meza.",
      "Mama wanje ariko arateka ivyokurya mu gikoni.",
      "Murakoze cane ku bufasha bwanyu.",
    ],
  },
  {
    code: "so",
    sentences: [
      "Subax wanaagsan, sidee tahay?",
      "Carruurtu waxay u socdaan dugsiga maalin kasta.",
      "Waxaan rabaa inaan cabbo biyo nadiif ah.",
      "Hooyaday waxay cunto ku karinaysaa jikada.",
      "Aad baad u mahadsan tahay caawimaaddaada.",
      "Isbitaalka ugu dhow xaggee buu ku yaal?",
    ],
  },
  {
    code: "am",
    sentences: [
      "እንደምን አደርክ? ደህና ነኝ።",
      "ልጆቹ በየቀኑ ወደ ትምህርት ቤት ይሄዳሉ።",
      "ንጹህ ውሃ መጠጣት እፈልጋለሁ።",
      "እናቴ በኩሽና ውስጥ ምግብ እያበሰለች ነው።",
      "በጣም አመሰግናለሁ።",
      "በአቅራቢያ ያለው ሆስፒታል የት ነው?",
    ],
  },
  {
    code: "ti",
    sentences: ["ከመይ ሓዲርካ? ደሓን እየ።", "ቆልዑ ንኹሉ መዓልቲ ናብ ቤት ትምህርቲ ይኸዱ።", "ጽሩይ ማይ ክሰቲ እደሊ።", "የቐንየለይ ኣዝዩ።", "ሆስፒታል ኣበይ ኣሎ?"],
  },
  {
    code: "om",
    sentences: [
      "Akkam bulte? Nagaa dha.",
      "Ijoolleen guyyaa guyyaan mana barumsaa deemu.",
      "Bishaan qulqulluu dhuguu barbaada.",
      "Haati koo kushinaa keessatti nyaata bilcheessaa jirti.",
      "Baay'ee galatoomi.",
      "Hospitaalli dhihoo jiru eessa jira?",
    ],
  },
  {
    code: "mg",
    sentences: [
      "Manao ahoana ianao?",
      "Mandeha any an-tsekoly isan'andro ny ankizy.",
      "Te hisotro rano madio aho.",
      "Mahandro sakafo ao an-dakozia ny reniko.",
      "Misaotra betsaka tamin'ny fanampianao.",
    ],
  },
  {
    code: "ha",
    sentences: [
      "Ina kwana? Lafiya lau.",
      "Yara suna zuwa makaranta kowace rana.",
      "Ina so in sha ruwa mai tsabta.",
      "Mahaifiyata tana dafa abinci a kicin.",
      "Na gode sosai da taimakon ka.",
      "Ina asibiti mafi kusa yake?",
    ],
  },
  {
    code: "ig",
    sentences: [
      "Ụtụtụ ọma, kedu ka ị mere?",
      "Ụmụaka na-aga ụlọ akwụkwọ kwa ụbọchị.",
      "Achọrọ m ịṅụ mmiri dị ọcha.",
      "Nne m na-esi nri na kichin.",
      "Daalụ nke ukwuu maka enyemaka gị.",
      "Ebee ka ụlọ ọgwụ kacha nso dị?",
    ],
  },
  {
    code: "wo",
    sentences: [
      "Na nga def? Maa ngi fi rekk.",
      "Xale yi dañuy dem lekool bés bu nekk.",
      "Dama bëgg naan ndox mu set.",
      "Sama yaay mu ngi togg ñam ci waañ wi.",
      "Jërëjëf lool ci sa ndimbal.",
    ],
  },
  {
    code: "ln",
    sentences: [
      "Mbote, ozali malamu?",
      "Bana bazali kokende na kelasi mokolo nyonso.",
      "Nalingi komela mai ya pɛto.",
      "Mama na ngai azali kolamba bilei na kuku.",
      "Matondo mingi mpo na lisalisi na yo.",
      "Lopitalo oyo ezali pene ezali wapi?",
    ],
  },
  {
    code: "zu",
    sentences: [
      "Sawubona, unjani namuhla?",
      "Izingane ziya esikoleni nsuku zonke.",
      "Ngifuna ukuphuza amanzi ahlanzekile.",
      "Umama wami upheka ukudla ekhishini.",
      "Ngiyabonga kakhulu ngosizo lwakho.",
      "Sikuphi isibhedlela esiseduze?",
    ],
  },
  {
    code: "xh",
    sentences: [
      "Molo, unjani namhlanje?",
      "Abantwana baya esikolweni yonke imihla.",
      "Ndifuna ukusela amanzi acocekileyo.",
      "Umama wam upheka ukutya ekhitshini.",
      "Enkosi kakhulu ngoncedo lwakho.",
      "Sikuphi isibhedlele esikufutshane?",
    ],
  },
  {
    code: "af",
    sentences: [
      "Goeie môre, hoe gaan dit met jou?",
      "Die kinders gaan elke dag skool toe.",
      "Ek wil skoon water drink.",
      "My ma kook kos in die kombuis.",
      "Baie dankie vir jou hulp.",
      "Waar is die naaste hospitaal?",
    ],
  },
  {
    code: "sn",
    sentences: [
      "Mangwanani, makadii?",
      "Vana vanoenda kuchikoro mazuva ose.",
      "Ndinoda kunwa mvura yakachena.",
      "Amai vangu vari kubika chikafu mukicheni.",
      "Ndatenda zvikuru nerubatsiro rwenyu.",
      "Chipatara chiri pedyo chiri kupi?",
    ],
  },
  {
    code: "st",
    sentences: [
      "Dumela, o phela joang?",
      "Bana ba ya sekolong letsatsi le leng le le leng.",
      "Ke batla ho nwa metsi a hlwekileng.",
      "Mme wa ka o pheha dijo ka kichineng.",
      "Ke a leboha haholo ka thuso ya hao.",
    ],
  },
  {
    code: "tn",
    sentences: [
      "Dumela, o tsogile jang?",
      "Bana ba ya sekolong letsatsi le lengwe le le lengwe.",
      "Ke batla go nwa metsi a a phepa.",
      "Mme wa me o apaya dijo mo kitšhining.",
      "Ke a leboga thata ka thuso ya gago.",
    ],
  },
  {
    code: "ts",
    sentences: [
      "Avuxeni, mi pfukile njhani?",
      "Vana va ya exikolweni siku rin'wana na rin'wana.",
      "Ndzi lava ku nwa mati yo basa.",
      "Manana wa mina u sweka swakudya ekhixini.",
      "Ndza khensa swinene hi mpfuno wa wena.",
    ],
  },
  {
    code: "ss",
    confidence: "low",
    sentences: [
      "Bantfwana baya esikolweni onkhe emalanga.",
      "Ngifuna kunatsa emanti lahlantekile.",
      "Make wami upheka kudla ekhishini.",
      "Ngiyabonga kakhulu ngelusito lwakho.",
      "Sibhedlela lesiseduze siphi?",
    ],
  },
  {
    code: "nso",
    sentences: [
      "Thobela, o kae?",
      "Bana ba ya sekolong letšatši le lengwe le le lengwe.",
      "Ke nyaka go nwa meetse a hlwekilego.",
      "Mma wa ka o apea dijo ka khitšhing.",
      "Ke leboga kudu ka thušo ya gago.",
    ],
  },
  {
    code: "ve",
    sentences: [
      "Ndi matsheloni, vho vuwa hani?",
      "Vhana vha ya tshikoloni ḓuvha ḽiṅwe na ḽiṅwe.",
      "Ndi ṱoḓa u nwa maḓi o kunaho.",
      "Mme anga vha khou bika zwiḽiwa khishini.",
      "Ndo livhuwa nga maanḓa nga thuso yaṋu.",
    ],
  },
  {
    code: "ny",
    sentences: [
      "Muli bwanji? Ndili bwino, kaya inu?",
      "Ana amapita kusukulu tsiku lililonse.",
      "Ndikufuna kumwa madzi aukhondo.",
      "Amayi anga akuphika chakudya kukhitchini.",
      "Zikomo kwambiri chifukwa cha thandizo lanu.",
    ],
  },
  {
    code: "fr",
    sentences: [
      "Bonjour, comment allez-vous aujourd'hui ?",
      "Les enfants vont à l'école tous les jours.",
      "Je voudrais boire de l'eau propre.",
      "Ma mère prépare le repas dans la cuisine.",
      "Merci beaucoup pour votre aide.",
    ],
  },
  {
    code: "pt",
    sentences: [
      "Bom dia, como você está hoje?",
      "As crianças vão à escola todos os dias.",
      "Eu quero beber água limpa.",
      "A minha mãe está a cozinhar na cozinha.",
      "Muito obrigado pela sua ajuda.",
    ],
  },
  {
    code: "ar",
    sentences: [
      "صباح الخير، كيف حالك اليوم؟",
      "يذهب الأطفال إلى المدرسة كل يوم.",
      "أريد أن أشرب ماء نظيفا.",
      "أمي تطبخ الطعام في المطبخ.",
      "شكرا جزيلا على مساعدتك.",
    ],
  },
];

/** Short greetings and courtesies: the rule for short text must get these right (they are common first requests). */
export const SHORT_SAMPLES: { code: string; text: string }[] = [
  { code: "en", text: "Good morning" },
  { code: "en", text: "Hello" },
  { code: "en", text: "Thank you" },
  { code: "en", text: "Good night!" },
  { code: "en", text: "How are you?" },
  { code: "en", text: "Hi" },
  { code: "en", text: "Thanks a lot" },
  { code: "en", text: "Welcome" },
  { code: "lug", text: "Oli otya?" },
  { code: "lug", text: "Webale nnyo" },
  { code: "lug", text: "Wasuze otya" },
  { code: "sw", text: "Habari" },
  { code: "sw", text: "Asante sana" },
  { code: "sw", text: "Karibu" },
  { code: "yo", text: "Ẹ kú àárọ̀" },
  { code: "yo", text: "Ẹ ṣé" },
  { code: "tw", text: "Maakye" },
  { code: "tw", text: "Medaase" },
  { code: "ee", text: "Akpe" },
  { code: "ach", text: "Apwoyo" },
  { code: "luo", text: "Erokamano" },
  { code: "zu", text: "Sawubona" },
  { code: "ha", text: "Sannu" },
  { code: "fr", text: "Bonjour" },
  { code: "fr", text: "Merci beaucoup" },
];
