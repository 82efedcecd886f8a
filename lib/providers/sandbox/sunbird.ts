import { SUNBIRD_TRANSLATE_LANGUAGES } from "../codes";
import { isRecord } from "../http";
import type { EmulatorControls } from "./controls";
import type { EmulatorOptions, ProviderBehaviour } from "./emulator";
import { hash32, hex, htmlPage, json, readJson, sandboxMark } from "./respond";
import { sunbirdSpeechRoutes } from "./sunbird-speech";
import { apiError, sunbirdError, uploadTooLarge, validationError } from "./sunbird-wire";
import { sandboxTranslation } from "./translation";

const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** Emulates api.sunbird.ai as of 2026-07. */
/** Sunbird tasks that cost no quota unit. */
const FREE_TASKS = new Set(["/tasks/language_id", "/tasks/classify_language"]);

export function sunbirdBehaviour(opts: EmulatorOptions): ProviderBehaviour {
  const now = opts.now ?? Date.now;
  let jobs = 0;
  const speech = sunbirdSpeechRoutes(opts, now);

  /** FastAPI's OAuth2PasswordBearer: {"detail"} bodies with WWW-Authenticate. */
  const authFailure = (req: Request): Response | undefined => {
    if (opts.credential === undefined) return undefined;
    const header = req.headers.get("authorization") ?? "";
    const [scheme, token] = header.split(/\s+/, 2);
    if (scheme?.toLowerCase() !== "bearer" || !token) return json(401, { detail: "Not authenticated" }, { "www-authenticate": "Bearer" });
    if (token !== opts.credential) return json(401, { detail: "Could not validate credentials" }, { "www-authenticate": "Bearer" });
    return undefined;
  };

  const translate = async (req: Request): Promise<Response> => {
    const body = await readJson(req);
    if (!isRecord(body)) return validationError(["body"], "Input should be a valid dictionary", body);
    const textValue = typeof body.text === "string" ? body.text.trim() : undefined;
    if (body.target_language === undefined) return validationError(["body", "target_language"], "Field required", body);
    if (textValue === undefined) return validationError(["body", "text"], "Field required", body);
    if (!textValue) return validationError(["body", "text"], "String should have at least 1 character", body);
    const target = resolveLanguage(body.target_language);
    const source = body.source_language === undefined || body.source_language === null ? null : resolveLanguage(body.source_language);
    if (!target) return unsupportedLanguage(body.target_language);
    if (source === undefined) return unsupportedLanguage(body.source_language);
    if (source === target) return apiError(400, "BAD_REQUEST", "Source and target languages must be different");
    jobs += 1;
    return json(
      200,
      translationBody(
        `trans-${hex(hash32(textValue) + jobs, 32)}`,
        source,
        target,
        sandboxTranslation(opts, "sunbird", `${source ?? "auto"}→${target}`, textValue),
      ),
    );
  };

  /**
   * /tasks/language_id answers its best label; /tasks/classify_language lower-cases the text first and answers
   * "language not detected" when the best label's probability is under 0.9. Neither is quota-checked.
   */
  const languageId = (threshold: number) => async (req: Request) => {
    const body = await readJson(req);
    const value = isRecord(body) && typeof body.text === "string" ? body.text : undefined;
    if (value === undefined || value.length < 3 || value.length > 200)
      return validationError(["body", "text"], "String should have between 3 and 200 characters", body);
    const { language, probability } = identifyLanguage(value);
    return json(200, { language: language && probability >= threshold ? language : LANGUAGE_NOT_DETECTED });
  };

  const handlers: Record<string, (req: Request) => Promise<Response>> = {
    "/tasks/translate": translate,
    "/tasks/language_id": languageId(0),
    "/tasks/classify_language": languageId(CLASSIFY_THRESHOLD),
    ...speech.routes,
  };

  return {
    async route(req, url) {
      const path = url.pathname;
      // GET: the signed audio downloads, else the SPA catch-all serving its index page.
      if (req.method === "GET") return speech.download(url) ?? htmlPage(200, "Sunbird AI");
      if (req.method !== "POST") return json(405, { detail: "Method Not Allowed" });
      if (path === "/auth/token") return json(200, { access_token: opts.credential ?? "sandbox-token", token_type: "bearer" });
      // Any POST to a path without a POST route hits the SPA catch-all GET route: 405, whatever the token.
      const handle = handlers[path];
      if (!handle) return json(405, { detail: "Method Not Allowed" });
      if (Number(req.headers.get("content-length")) > MAX_UPLOAD_BYTES) return uploadTooLarge();
      return authFailure(req) ?? handle(req);
    },

    // The quota guard covers the API's tasks; language identification passes neither it nor the per-minute limiter.
    charged(req, url) {
      return req.method === "POST" && url.pathname.startsWith("/tasks/") && !FREE_TASKS.has(url.pathname);
    },

    errorResponse(status, variant) {
      return sunbirdError(status, variant);
    },

    loadingResponse() {
      return sunbirdError(503, "loading");
    },

    rateLimitedResponse(controls: EmulatorControls) {
      if (controls.variant === "quota") {
        const wait = controls.retryAfterSeconds ?? 60;
        return apiError(429, "RATE_LIMIT_ERROR", "Daily quota exceeded", [{ retry_after_seconds: wait }], { "retry-after": String(wait) });
      }
      // slowapi's default handler sends no Retry-After (headers are not enabled).
      return json(429, { error: "Rate limit exceeded: 50 per 1 minute" });
    },

    successSample() {
      return {
        contentType: "application/json",
        body: JSON.stringify(translationBody("trans-0", "eng", "lug", sandboxMark("sunbird", "eng→lug", "Hello"))),
      };
    },

    translationText(url, body) {
      return url.pathname === "/tasks/translate" && isRecord(body) && typeof body.text === "string" ? body.text : undefined;
    },
  };
}

/** The wire shape FastAPI serialises from WorkerTranslationResponse (nulls and `Error` included). */
function translationBody(id: string, source: string | null, target: string, translated: string) {
  return {
    delayTime: null,
    executionTime: null,
    id,
    output: {
      text: null,
      translated_text: translated,
      source_language: source,
      target_language: target,
      Error: null,
    },
    status: "COMPLETED",
    workerId: null,
  };
}

const LANGUAGE_NOT_DETECTED = "language not detected";
const CLASSIFY_THRESHOLD = 0.9;

/**
 * The emulated classifier: everyday words of the six labels Sunbird's model knows. A text's probability for a label
 * is the share of its words that the label's list holds, less half the runner-up's share; words no list holds count
 * against every label. A real model, not a lookup: any sentence made of these words is identified,
 * and one that mixes languages or uses other words falls under the threshold.
 */
const LANGUAGE_ID_WORDS: Record<string, readonly string[]> = {
  ach: "an in en gin wan wun gi ki i me ma pe tye atye itye obedo bene dok ento ka pi ni cam pii ot gang kwan lutino latin dano mon co lok yat ngeyo mito amito imito wamito tic kwo maber marac matek apwoyo nino ducu kany kwene ngo nining kit pien wek cwiny rwot lobo piny ceng odiko wot cito ocito bino obino neno winyo lego kom wic nyako awobi dako laco baba mego won leng acoyo coc kwano lakwan lapwony".split(
    " ",
  ),
  teo: "eong iyong ebe ka kere noi ejok yoga eyalama aberu ekiliokit itunga akiro akwap kwap etogo alosit elosit elosete akimuj akipi ekile aswam erai ibore ngun kwape idwe ikoku edwe ijai ejai mam emam bo kesi ijo oni lo na nes imina asomero isomero akisoma ekitabo akuj akoru ipu kalo toma kolong ainapet apolou itelekak ekokor".split(
    " ",
  ),
  lug: "nze ggwe ye ffe mmwe bo era naye mu ku ne nga kino ekyo abantu omuntu abaana omwana amazzi emmere ennyumba essomero bulungi nnyo webale wasuze otya ssebo nnyabo njagala oyagala tugenda agenda buli lunaku kati leero".split(
    " ",
  ),
  nyn: "nyowe we itwe imwe bo kandi mu aha omu nka ogu abantu omuntu abaana omwana amaizi ebyokurya enju ishomero gye munonga webare oraire ota ninyenda nitugyenda buri izooba hati erizooba".split(
    " ",
  ),
  lgg: "ma mi eri ama emi eyi ra ri si ku ni e a aza ezata ovu adi nyaku ari ijo oku ejo ndra ndrani ede".split(" "),
  eng: "the a an and is are was of to in you your my for with this that have has please thank hello good how what where we they it i be not will can from very here there today at on he she our their do children school water food house go going".split(
    " ",
  ),
};

const LANGUAGE_ID_INDEX = new Map<string, string[]>();
for (const [label, words] of Object.entries(LANGUAGE_ID_WORDS))
  for (const w of words) LANGUAGE_ID_INDEX.set(w, [...(LANGUAGE_ID_INDEX.get(w) ?? []), label]);

function identifyLanguage(text: string): { language?: string; probability: number } {
  const words = text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  const shares = new Map<string, number>();
  for (const w of words) for (const label of LANGUAGE_ID_INDEX.get(w) ?? []) shares.set(label, (shares.get(label) ?? 0) + 1);
  const [best, second] = [...shares].sort((a, b) => b[1] - a[1]);
  // A tie is no answer; a runner-up takes its lead off the winner's probability.
  if (!best || best[1] === second?.[1]) return { probability: 0 };
  return { language: best[0], probability: (best[1] - (second?.[1] ?? 0) / 2) / words.length };
}

const NAME_TO_CODE: Record<string, string> = {
  ...Object.fromEntries(Object.entries(SUNBIRD_TRANSLATE_LANGUAGES).map(([code, name]) => [name.toLowerCase(), code])),
  runyankore: "nyn",
  dhopadhola: "adh",
};

/** ISO 639-3 code or full name, case-insensitive, trimmed; undefined when unsupported. */
function resolveLanguage(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const v = value.trim().toLowerCase();
  return SUNBIRD_TRANSLATE_LANGUAGES[v] ? v : NAME_TO_CODE[v];
}

function unsupportedLanguage(value: unknown): Response {
  const names = Object.values(SUNBIRD_TRANSLATE_LANGUAGES).sort().join(", ");
  return apiError(400, "BAD_REQUEST", `Unsupported language: '${String(value)}'. Supported languages: ${names} (full name or ISO code).`);
}
