import { z } from "zod";
import type { KeyStore } from "@/lib/keys/store";
import type { Dialect, Refusal } from "@/lib/kit/dialect";
import { ApiError, type ErrorCode } from "@/lib/kit/errors";
import { readFields } from "@/lib/kit/fields";
import type { PairEntry } from "@/lib/languages/pairs";
import { normalizeLanguageCode } from "@/lib/languages/registry";
import { MAX_BATCH_ITEMS } from "@/lib/translate/schemas";
import { readUsage } from "@/lib/usage/read";
import { formatDay } from "@/lib/usage/schemas";
import { languageName, protocolCode } from "./codes";
import type { CompatTranslated, CompatTranslation } from "./translate";

/**
 * DeepL's API v2 (developers.deepl.com), served under /compat/deepl so that DeepL's SDKs work with `serverUrl` set to
 * it, and the tools built on them (Weblate, Nextcloud, ...). The key comes as `Authorization: DeepL-Auth-Key <key>`;
 * errors are {"message": "…"} with DeepL's statuses (400, 403 for the key, 404, 413, 429, 5xx). Language codes are
 * upper case, a region suffix where DeepL has one (EN-GB and EN-US are both English).
 */
export const DEEPL: Dialect = {
  name: "deepl",
  readFields,
  credential: (req) => {
    const header = req.headers.get("authorization");
    if (header === null) return null;
    const match = /^DeepL-Auth-Key[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (!match) throw new ApiError("INVALID_API_KEY", "The Authorization header must be: DeepL-Auth-Key svc_<your Lugha key>.");
    return match[1];
  },
  status,
  errorBody: (refusal) => ({ message: message(refusal) }),
  errorSchema: "DeepLError",
};

export const DeepLError = z.object({ message: z.string().describe("What went wrong") }).describe("A DeepL error");

function status(code: ErrorCode, status: number): number {
  if (code === "MISSING_API_KEY" || code === "INVALID_API_KEY") return 403;
  if (status === 404 || status === 405 || status === 413 || status === 429 || status >= 500) return status;
  return 400;
}

function message({ code, message }: Refusal): string {
  if (code === "MISSING_API_KEY") return "Authorization failure, check auth_key: send Authorization: DeepL-Auth-Key svc_<your Lugha key>.";
  return message;
}

/** DeepL's code of a language (upper case; the regional variants DeepL's SDKs ask for as targets). */
function deeplCodes(canonical: string, role: "source" | "target"): string[] {
  const code = protocolCode(canonical).toUpperCase();
  if (role === "target" && code === "EN") return ["EN-GB", "EN-US"];
  if (role === "target" && code === "PT") return ["PT-BR", "PT-PT"];
  return [code];
}

/** The API's code of a DeepL code: itself, or without its region (EN-GB, PT-BR); unknown codes pass on as sent. */
export function fromDeepl(code: string): string {
  return normalizeLanguageCode(code) ?? normalizeLanguageCode(code.split("-")[0]) ?? code;
}

const Formality = z.enum(["default", "more", "less", "prefer_more", "prefer_less"], {
  error: () => "Value for 'formality' not supported: one of default, more, less, prefer_more, prefer_less.",
});

export const DeepLTranslateRequest = z
  .looseObject({
    text: z
      .union([z.string(), z.array(z.string()).min(1).max(MAX_BATCH_ITEMS, `text holds at most ${MAX_BATCH_ITEMS} texts`)], {
        error: (iss) => (iss.input === undefined ? "Parameter 'text' not specified." : "Parameter 'text' should be a string or an array of strings."),
      })
      .describe(`The text; repeat it (or send an array) for up to ${MAX_BATCH_ITEMS} (more than one is a batch: its rate limit and usage)`),
    target_lang: z.string({ error: "Value for 'target_lang' not specified." }).max(32).describe("LG, SW, YO, ACH, EN-GB, EN-US, ..."),
    source_lang: z.string().max(32).optional().describe("Detected when absent"),
    tag_handling: z
      .enum(["html", "xml"], { error: () => "Value for 'tag_handling' not supported: html or xml." })
      .optional()
      .describe('html or xml: tags are kept as sent (Weblate\'s <x id="n"></x> placeholders come back unchanged); only text is translated'),
    formality: Formality.optional().describe(
      "default, prefer_more and prefer_less are accepted; more and less are refused (no language here has formality)",
    ),
    glossary_id: z.string().optional().describe("A glossary of the calling key (POST /api/v1/glossaries)"),
  })
  .describe("DeepL POST /v2/translate (form or JSON); other DeepL fields are accepted and have no effect");
export type DeepLTranslateRequest = z.infer<typeof DeepLTranslateRequest>;

/** The request as the API's own translation; a formality no language here can honour is DeepL's 400. */
export function deeplTranslation(request: DeepLTranslateRequest): CompatTranslation {
  if (request.formality === "more" || request.formality === "less") {
    throw new ApiError("VALIDATION_ERROR", "'formality' is not supported for given 'target_lang'.", {
      errors: [{ loc: ["body", "formality"], msg: "Not supported for the target language; use prefer_more or prefer_less", type: "formality" }],
    });
  }
  return {
    texts: request.text,
    target: fromDeepl(request.target_lang),
    source: request.source_lang === undefined || request.source_lang === "" ? undefined : fromDeepl(request.source_lang),
    format: request.tag_handling ? "html" : "text",
    glossary: request.glossary_id,
  };
}

export function deeplTranslateReply(translated: CompatTranslated) {
  return {
    translations: translated.items.map((i) => ({ detected_source_language: deeplCodes(i.source, "source")[0], text: i.text })),
  };
}

export const DeepLLanguagesQuery = z.object({
  type: z.enum(["source", "target"], { error: () => "Value for 'type' not supported: source or target." }).default("source"),
});

/** GET /v2/languages?type=source|target from the served pairs. */
export function deeplLanguages(pairs: readonly PairEntry[], type: "source" | "target") {
  const codes = new Set(pairs.map((p) => (type === "source" ? p.source : p.target)));
  return [...codes].flatMap((canonical) =>
    deeplCodes(canonical, type).map((language) => ({
      language,
      name: languageName(canonical),
      ...(type === "target" ? { supports_formality: false } : {}),
    })),
  );
}

/** DeepL has a character limit per billing period; a Lugha key has none, so the limit is a figure no count reaches. */
export const NO_CHARACTER_LIMIT = 1_000_000_000_000;

/** GET /v2/usage: the characters this key sent for translation this calendar month (UTC). */
export async function deeplUsage(keys: KeyStore, keyId: string, now = Date.now()) {
  const today = new Date(now);
  const from = formatDay(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
  const [total] = await readUsage(keys, keyId, { from, to: formatDay(now) }, []);
  return { character_count: total?.characters ?? 0, character_limit: NO_CHARACTER_LIMIT };
}

export const DeepLTranslateResponse = z
  .object({
    translations: z.array(z.object({ detected_source_language: z.string().describe("Upper case"), text: z.string() })),
  })
  .describe("DeepL translations, one per text, in order");

export const DeepLLanguagesResponse = z
  .array(z.object({ language: z.string(), name: z.string(), supports_formality: z.boolean().optional().describe("Targets only") }))
  .describe("DeepL languages");

export const DeepLUsageResponse = z.object({ character_count: z.number().int(), character_limit: z.number().int() }).describe("DeepL usage");

export const DeepLGlossaryPairsResponse = z
  .object({ supported_languages: z.array(z.object({ source_lang: z.string(), target_lang: z.string() })) })
  .describe("DeepL glossary language pairs");
