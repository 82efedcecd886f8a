import { getLanguage, normalizeLanguageCode } from "@/lib/languages/registry";

/**
 * The HTML `lang` value (a BCP 47 tag) for an API language code. BCP 47 takes the two-letter ISO 639-1 code where a
 * language has one (Luganda is `lg`, not the API's `lug`), else the three-letter code; screen readers pick their voice
 * from it. Unknown codes give undefined (no attribute rather than a wrong one).
 */
export function htmlLang(code: string): string | undefined {
  const canonical = normalizeLanguageCode(code);
  if (!canonical) return undefined;
  if (canonical.length === 2) return canonical;
  return getLanguage(canonical)?.aliases.find((alias) => /^[a-z]{2}$/.test(alias)) ?? canonical;
}
