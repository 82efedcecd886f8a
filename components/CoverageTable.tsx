import type { LanguagesResponse } from "@/lib/languages/schemas";
import { htmlLang } from "@/lib/portal/lang";
import { BAND_MEANING } from "@/lib/portal/quality";
import { ProviderBadge } from "./ProviderBadge";
import { providerNames } from "./providerNames";
import { ScrollRegion } from "./ScrollRegion";

/**
 * Coverage of the languages GET /api/v1/languages lists (the same registry and pair tables, called in-process):
 * for each language, the languages it translates into grouped by the provider auto routing picks first, and its
 * speech-to-text / text-to-speech support.
 */
export function CoverageTable({ data }: { data: LanguagesResponse }) {
  const names = new Map(data.languages.map((l) => [l.code, l.name]));
  const pairs = data.languages.reduce((n, l) => n + l.translation.targets.length, 0);
  const stt = data.languages.filter((l) => l.stt.supported).length;
  const tts = data.languages.filter((l) => l.tts.supported).length;

  return (
    <div>
      <p className="text-slate-800">
        <strong>{data.total}</strong> languages, <strong>{pairs.toLocaleString("en-US")}</strong> translation directions; speech-to-text in{" "}
        <strong>{stt}</strong> and text-to-speech in <strong>{tts}</strong> {stt === 0 && tts === 0 ? "(speech is being added)" : ""}.
      </p>
      <p className="mt-2 text-sm text-slate-700" data-testid="quality-bands">
        Quality, as each pair's band:{" "}
        {Object.entries(BAND_MEANING)
          .slice(0, 4)
          .map(([band, meaning]) => `${band} — ${meaning}`)
          .join("; ")}
        .
      </p>
      <ScrollRegion label="Languages table" className="relative mt-4 rounded-lg border border-slate-200 bg-white">
        <table className="min-w-full text-left text-sm">
          <caption className="sr-only">Languages, the languages each translates into by provider, and speech support</caption>
          <thead className="bg-slate-100 text-slate-900">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                Language
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Region
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Translates into
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Speech-to-text
              </th>
              <th scope="col" className="px-3 py-2 font-semibold">
                Text-to-speech
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {data.languages.map((lang) => {
              // One group per provider, model and quality band: what would serve each pair now.
              const groups = new Map<string, { provider: string; model: string; band: string; codes: string[] }>();
              for (const t of lang.translation.targets) {
                const key = `${t.provider}|${t.model}|${t.quality_band}`;
                const group = groups.get(key) ?? { provider: t.provider, model: t.model, band: t.quality_band, codes: [] };
                group.codes.push(t.code);
                groups.set(key, group);
              }
              return (
                <tr key={lang.code} className="align-top">
                  <th scope="row" className="px-3 py-2 font-normal">
                    <span className="font-semibold">{lang.name}</span> <code className="font-mono text-xs text-slate-700">{lang.code}</code>
                    {lang.native_name !== lang.name && (
                      <span className="block text-xs text-slate-700" lang={htmlLang(lang.code)}>
                        {lang.native_name}
                      </span>
                    )}
                  </th>
                  <td className="whitespace-nowrap px-3 py-2 text-slate-800">{lang.region}</td>
                  <td className="px-3 py-2">
                    {groups.size === 0 ? (
                      <span className="text-slate-700">target only</span>
                    ) : (
                      <ul className="space-y-1">
                        {[...groups.entries()].map(([key, { provider, model, band, codes }]) => (
                          <li key={key} className="flex flex-wrap items-baseline gap-x-2">
                            <ProviderBadge provider={provider} name={providerNames()[provider]} />
                            <span className="text-xs text-slate-700">
                              <code className="font-mono">{model}</code> · {band}
                            </span>
                            {codes.length <= 8 ? (
                              <CodeList codes={codes} names={names} />
                            ) : (
                              <details className="min-w-0">
                                <summary className="cursor-pointer text-brand-800 underline underline-offset-2">{codes.length} languages</summary>
                                <CodeList codes={codes} names={names} />
                              </details>
                            )}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="px-3 py-2">
                    <SpeechCell providers={lang.stt.providers.map((p) => ({ provider: p.provider }))} />
                  </td>
                  <td className="px-3 py-2">
                    <SpeechCell providers={lang.tts.providers.map((p) => ({ provider: p.provider, voices: p.voices.length }))} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}

function CodeList({ codes, names }: { codes: string[]; names: Map<string, string> }) {
  return (
    <span className="font-mono text-xs text-slate-800">
      {codes.map((c, i) => (
        <span key={c}>
          <abbr title={names.get(c) ?? c} className="no-underline">
            {c}
          </abbr>
          {i < codes.length - 1 ? ", " : ""}
        </span>
      ))}
    </span>
  );
}

function SpeechCell({ providers }: { providers: { provider: string; voices?: number }[] }) {
  if (providers.length === 0)
    return (
      <span className="text-slate-600">
        <span aria-hidden="true">—</span>
        <span className="sr-only">not available</span>
      </span>
    );
  return (
    <ul className="space-y-1">
      {providers.map((p) => (
        <li key={p.provider}>
          <ProviderBadge provider={p.provider} name={providerNames()[p.provider]} />
          {p.voices !== undefined && <span className="ml-1 text-xs text-slate-700">{p.voices === 1 ? "1 voice" : `${p.voices} voices`}</span>}
        </li>
      ))}
    </ul>
  );
}
