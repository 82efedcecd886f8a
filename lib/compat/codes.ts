import { getLanguage } from "@/lib/languages/registry";

/**
 * Language codes on the other protocols' surfaces: ISO 639-1 where a language has one (lg for Luganda, sw, yo), ISO
 * 639-3 otherwise (ach, nyn). Both are accepted on the way in, as every code the API itself accepts is; inside, the
 * API's own codes.
 */

/** The code a protocol shows for a language of the registry: its two-letter code or alias, else its own. */
export function protocolCode(canonical: string): string {
  const language = getLanguage(canonical);
  if (!language) return canonical;
  if (language.code.length === 2) return language.code;
  return language.aliases.find((a) => /^[a-z]{2}$/.test(a)) ?? language.code;
}

/** The English name of a language of the registry. */
export function languageName(canonical: string): string {
  return getLanguage(canonical)?.name ?? canonical;
}

/**
 * The OpenAI audio surface's model that names a language, in a direction: lugha-stt-lg, lugha-tts-ach (GET
 * /compat/openai/v1/models lists those served). Here, not in ./openai, so that the portal's View code can name it.
 */
export function openaiModelId(direction: "stt" | "tts", canonical: string): string {
  return `lugha-${direction}-${protocolCode(canonical)}`;
}
