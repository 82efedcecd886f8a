import { z } from "zod";
import { detectTexts } from "@/lib/detect";
import type { Dialect, Refusal } from "@/lib/kit/dialect";
import type { ErrorCode } from "@/lib/kit/errors";
import { readFields } from "@/lib/kit/fields";
import type { PairEntry } from "@/lib/languages/pairs";
import { MAX_TEXT_CHARS } from "@/lib/translate";
import { MAX_BATCH_ITEMS } from "@/lib/translate/schemas";
import { languageName, protocolCode } from "./codes";
import type { CompatTranslated, CompatTranslation } from "./translate";

/**
 * LibreTranslate's API (libretranslate.com/docs), served under /compat/libretranslate for the tools that speak it
 * (Weblate, Mastodon, Discourse, Nextcloud, LibreChat, ...). Its key is the `api_key` field of the JSON or form body;
 * its errors are {"error": "…"} with its statuses (400 bad input, 403 a bad key, 429, 500), in its wording where tools
 * match on it.
 */
export const LIBRETRANSLATE: Dialect = {
  name: "libretranslate",
  readFields,
  keyInFields: true,
  credential: (_req, fields) => {
    const key = fields.api_key;
    // Clients send an empty api_key when none is configured: that is no key, not a bad one.
    if (key === undefined || key === "") return null;
    return typeof key === "string" ? key : "";
  },
  status,
  errorBody: (refusal) => ({ error: message(refusal) }),
  errorSchema: "LibreTranslateError",
};

export const LibreTranslateError = z.object({ error: z.string().describe("What went wrong") }).describe("A LibreTranslate error");

function status(code: ErrorCode, status: number): number {
  if (code === "MISSING_API_KEY") return 400;
  if (code === "INVALID_API_KEY") return 403;
  if (status === 404 || status === 405 || status === 413 || status === 429) return status;
  return status >= 500 ? 500 : 400;
}

function message({ code, message }: Refusal): string {
  // LibreTranslate's own sentences, which tools show or match on; the rest is the API's message.
  if (code === "MISSING_API_KEY") return "Please contact the server operator to get an API key (send it as api_key)";
  if (code === "INVALID_API_KEY") return "Invalid API key";
  return message;
}

const Text = z.string();

export const LibreTranslateRequest = z
  .object({
    q: z
      .union([Text, z.array(Text).min(1, "q must hold at least one text").max(MAX_BATCH_ITEMS, `q holds at most ${MAX_BATCH_ITEMS} texts`)], {
        error: (iss) => (iss.input === undefined ? "Invalid request: missing q parameter" : "q should be a string or an array of strings"),
      })
      .describe(`The text, or up to ${MAX_BATCH_ITEMS} texts (an array is a batch: its rate limit, its usage record)`),
    source: z
      .string()
      .max(32)
      .default("auto")
      .describe("The source language (ISO 639-1 where it has one: lg, sw; else ISO 639-3: ach, nyn), or auto"),
    target: z.string({ error: "Invalid request: missing target parameter" }).max(32).describe("The target language, coded as `source` is"),
    format: z.enum(["text", "html"]).default("text").describe("text, or html (only text nodes are translated; tags are kept)"),
    alternatives: z.coerce.number().int().min(0).max(10).default(0).describe("Alternatives asked for: always answered with none"),
    api_key: z.string().optional().describe("A Lugha API key (svc_…)"),
  })
  .describe("LibreTranslate POST /translate (JSON or form)");
export type LibreTranslateRequest = z.infer<typeof LibreTranslateRequest>;

/** The request as the API's own translation. */
export function libreTranslation(request: LibreTranslateRequest): CompatTranslation {
  const source = request.source.trim().toLowerCase() === "auto" ? undefined : request.source;
  return { texts: request.q, target: request.target, source, format: request.format };
}

/** LibreTranslate's answer: translatedText (a string, or an array for an array), detectedLanguage when source was auto. */
export function libreTranslateReply(request: LibreTranslateRequest, translated: CompatTranslated) {
  const detected = request.source.trim().toLowerCase() === "auto";
  const detectedLanguage = translated.items.map((i) => ({ confidence: Math.round((i.confidence ?? 0) * 100), language: protocolCode(i.source) }));
  const alternatives = request.alternatives > 0 ? translated.items.map(() => []) : undefined;
  const one = typeof request.q === "string";
  return {
    translatedText: one ? translated.items[0].text : translated.items.map((i) => i.text),
    ...(detected ? { detectedLanguage: one ? detectedLanguage[0] : detectedLanguage } : {}),
    ...(alternatives ? { alternatives: one ? alternatives[0] : alternatives } : {}),
  };
}

export const LibreDetectRequest = z
  .object({
    q: z.string({ error: "Invalid request: missing q parameter" }).describe("The text"),
    api_key: z.string().optional().describe("A Lugha API key (svc_…)"),
  })
  .describe("LibreTranslate POST /detect (JSON or form)");

/** POST /detect: the candidates, best first, confidence 0–100. */
export async function libreDetect(text: string) {
  const [result] = (await detectTexts({ text })).results;
  return result.candidates.map((c) => ({ confidence: Math.round(c.confidence * 100), language: protocolCode(c.language) }));
}

/** GET /languages: every language that is the source of a served pair, with the targets it is served to. */
export function libreLanguages(pairs: readonly PairEntry[]) {
  const targets = new Map<string, Set<string>>();
  for (const { source, target } of pairs) {
    const set = targets.get(source) ?? new Set<string>();
    set.add(protocolCode(target));
    targets.set(source, set);
  }
  return [...targets].map(([code, to]) => ({ code: protocolCode(code), name: languageName(code), targets: [...to].sort() }));
}

/** GET /frontend/settings: what LibreTranslate's own web page and some tools read to set themselves up. */
export function libreSettings() {
  return {
    charLimit: MAX_TEXT_CHARS,
    frontendTimeout: 500,
    apiKeys: true,
    keyRequired: true,
    suggestions: false,
    filesTranslation: false,
    supportedFilesFormat: [],
    language: { source: { code: "auto", name: "Auto Detect" }, target: { code: protocolCode("lug"), name: languageName("lug") } },
  };
}

const Detected = z.object({
  confidence: z.number().describe("0–100"),
  language: z.string().describe("ISO 639-1 where the language has one, else ISO 639-3"),
});

export const LibreTranslateResponse = z
  .object({
    translatedText: z.union([z.string(), z.array(z.string())]).describe("The translation; an array, in order, when q was an array"),
    detectedLanguage: z
      .union([Detected, z.array(Detected)])
      .optional()
      .describe("When source was auto"),
    alternatives: z
      .union([z.array(z.string()), z.array(z.array(z.string()))])
      .optional()
      .describe("When asked for: none"),
  })
  .describe("LibreTranslate translation");

export const LibreDetectResponse = z.array(Detected).describe("Candidates, best first");

export const LibreLanguagesResponse = z
  .array(z.object({ code: z.string(), name: z.string(), targets: z.array(z.string()) }))
  .describe("Source languages and their targets");

export const LibreSettingsResponse = z
  .looseObject({ charLimit: z.number().int(), apiKeys: z.boolean(), keyRequired: z.boolean() })
  .describe("LibreTranslate server settings");
