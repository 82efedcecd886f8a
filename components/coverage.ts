import { OTHER_NAMES } from "@/lib/languages/registry";
import type { LanguagesResponse } from "@/lib/languages/schemas";
import { providerNames } from "./providerNames";

/**
 * The coverage table's rows, built on the server from the GET /api/v1/languages listing (called in-process): for each
 * language, the languages it translates into grouped by the provider auto routing picks first, model and quality band,
 * and who serves its speech — with the providers' human names, so the client table needs no descriptor.
 */
export interface CoverageRow {
  code: string;
  name: string;
  nativeName: string;
  region: string;
  /** Other names people search by (Akan, Asante, Ganda…): found by the search box, never accepted as codes. */
  otherNames: string[];
  groups: { provider: string; providerName: string; model: string; band: string; codes: string[] }[];
  stt: { provider: string; providerName: string }[];
  tts: { provider: string; providerName: string; voices: number }[];
}

export function coverageRows(data: LanguagesResponse): { rows: CoverageRow[]; languageNames: Record<string, string> } {
  const names = providerNames();
  const rows = data.languages.map((lang) => {
    const groups = new Map<string, CoverageRow["groups"][number]>();
    for (const t of lang.translation.targets) {
      const key = `${t.provider}|${t.model}|${t.quality_band}`;
      const group = groups.get(key) ?? {
        provider: t.provider,
        providerName: names[t.provider] ?? t.provider,
        model: t.model,
        band: t.quality_band,
        codes: [],
      };
      group.codes.push(t.code);
      groups.set(key, group);
    }
    return {
      code: lang.code,
      name: lang.name,
      nativeName: lang.native_name,
      region: lang.region,
      otherNames: [...(OTHER_NAMES[lang.code] ?? [])],
      groups: [...groups.values()],
      stt: lang.stt.providers.map((p) => ({ provider: p.provider, providerName: names[p.provider] ?? p.provider })),
      tts: lang.tts.providers.map((p) => ({ provider: p.provider, providerName: names[p.provider] ?? p.provider, voices: p.voices.length })),
    };
  });
  return { rows, languageNames: Object.fromEntries(data.languages.map((l) => [l.code, l.name])) };
}
