"use client";

import { useId, useMemo, useState } from "react";
import { htmlLang } from "@/lib/portal/lang";
import { BAND_MEANING } from "@/lib/portal/quality";
import type { CoverageRow } from "./coverage";
import { ProviderBadge } from "./ProviderBadge";
import { ScrollRegion } from "./ScrollRegion";

type Capability = "" | "translation" | "stt" | "tts";

/**
 * The languages table of /languages, searchable (name, native name, code or another name it is known by: Akan finds
 * Twi and Fante) and filterable by region, capability and provider. Rows come from coverageRows
 * (components/coverage.ts). Below 768 px each language is a card instead of a row, so nothing is cut off on a phone.
 */
export function CoverageTable({ rows, languageNames }: { rows: CoverageRow[]; languageNames: Record<string, string> }) {
  const id = useId();
  const [query, setQuery] = useState("");
  const [region, setRegion] = useState("");
  const [capability, setCapability] = useState<Capability>("");
  const [provider, setProvider] = useState("");
  const regions = useMemo(() => [...new Set(rows.map((r) => r.region))].sort(), [rows]);
  const providers = useMemo(() => {
    const all = new Map<string, string>();
    for (const r of rows) for (const p of [...r.groups, ...r.stt, ...r.tts]) all.set(p.provider, p.providerName);
    return [...all].sort();
  }, [rows]);

  const needle = query.trim().toLowerCase();
  const shown = rows.filter((r) => {
    if (needle && ![r.name, r.nativeName, r.code, ...r.otherNames].some((s) => s.toLowerCase().includes(needle))) return false;
    if (region && r.region !== region) return false;
    const served = {
      translation: r.groups.map((g) => g.provider),
      stt: r.stt.map((p) => p.provider),
      tts: r.tts.map((p) => p.provider),
    };
    const among = capability ? served[capability] : [...served.translation, ...served.stt, ...served.tts];
    if (capability && among.length === 0) return false;
    if (provider && !among.includes(provider)) return false;
    return true;
  });
  const pairs = rows.reduce((n, r) => n + r.groups.reduce((m, g) => m + g.codes.length, 0), 0);

  return (
    <div>
      <p className="text-slate-800">
        <strong>{rows.length}</strong> languages, <strong>{pairs.toLocaleString("en-US")}</strong> translation directions; speech-to-text in{" "}
        <strong>{rows.filter((r) => r.stt.length > 0).length}</strong> and text-to-speech in{" "}
        <strong>{rows.filter((r) => r.tts.length > 0).length}</strong>.
      </p>
      <p className="mt-2 text-sm text-slate-700" data-testid="quality-bands">
        Quality, as each pair's band:{" "}
        {Object.entries(BAND_MEANING)
          .slice(0, 4)
          .map(([band, meaning]) => `${band} — ${meaning}`)
          .join("; ")}
        .
      </p>
      <search className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <label htmlFor={`${id}-q`} className="field-label">
            Search
          </label>
          <input
            id={`${id}-q`}
            type="search"
            className="field-input"
            placeholder="Name or code, e.g. Luganda, lug"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${id}-region`} className="field-label">
            Region
          </label>
          <select id={`${id}-region`} className="field-input" value={region} onChange={(e) => setRegion(e.target.value)}>
            <option value="">All regions</option>
            {regions.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-cap`} className="field-label">
            Capability
          </label>
          <select id={`${id}-cap`} className="field-input" value={capability} onChange={(e) => setCapability(e.target.value as Capability)}>
            <option value="">Any</option>
            <option value="translation">Translation</option>
            <option value="stt">Speech-to-text</option>
            <option value="tts">Text-to-speech</option>
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-provider`} className="field-label">
            Provider
          </label>
          <select id={`${id}-provider`} className="field-input" value={provider} onChange={(e) => setProvider(e.target.value)}>
            <option value="">Any</option>
            {providers.map(([pid, name]) => (
              <option key={pid} value={pid}>
                {name} ({pid})
              </option>
            ))}
          </select>
        </div>
      </search>
      <p className="mt-3 text-sm text-slate-800" role="status" data-testid="coverage-count">
        Showing {shown.length} of {rows.length} languages.
      </p>
      {/* A phone gets one card per language: the table's five columns would not fit beside each other. */}
      <ul className="mt-2 space-y-3 md:hidden" aria-label="Languages" data-testid="coverage-cards">
        {shown.map((lang) => (
          <li key={lang.code} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
            <p className="font-medium text-slate-950">
              {lang.name} <code className="font-mono text-xs text-slate-700">{lang.code}</code>
              {lang.nativeName !== lang.name && (
                <span className="ml-1 text-xs font-normal text-slate-700" lang={htmlLang(lang.code)}>
                  {lang.nativeName}
                </span>
              )}
              <span className="block text-xs font-normal text-slate-700">{lang.region}</span>
            </p>
            <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-2">
              <div className="col-span-2">
                <dt className="text-xs font-semibold text-slate-800">Translates into</dt>
                <dd className="mt-0.5">
                  {lang.groups.length === 0 ? (
                    <span className="text-slate-700">target only</span>
                  ) : (
                    <ul className="space-y-1">
                      {lang.groups.map(({ provider, providerName, model, band, codes }) => (
                        <li key={`${provider}|${model}|${band}`} className="flex flex-wrap items-baseline gap-x-2">
                          <ProviderBadge provider={provider} name={providerName} />
                          <span className="break-all text-xs text-slate-700">
                            <code className="font-mono">{model}</code> · {band}
                          </span>
                          <details className="min-w-0">
                            <summary className="cursor-pointer text-brand-800 underline underline-offset-2">
                              {codes.length} {codes.length === 1 ? "language" : "languages"}
                            </summary>
                            <CodeList codes={codes} names={languageNames} />
                          </details>
                        </li>
                      ))}
                    </ul>
                  )}
                </dd>
              </div>
              <div>
                <dt className="text-xs font-semibold text-slate-800">Speech-to-text</dt>
                <dd className="mt-0.5">
                  <SpeechCell providers={lang.stt} />
                </dd>
              </div>
              <div>
                <dt className="text-xs font-semibold text-slate-800">Text-to-speech</dt>
                <dd className="mt-0.5">
                  <SpeechCell providers={lang.tts} />
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
      <ScrollRegion label="Languages table" className="relative mt-2 hidden rounded-lg border border-slate-200 bg-white md:block">
        <table className="min-w-full text-left text-sm">
          <caption className="sr-only">Languages, the languages each translates into by provider, and speech support</caption>
          <thead className="bg-slate-100 text-slate-900">
            <tr>
              {["Language", "Region", "Translates into", "Speech-to-text", "Text-to-speech"].map((h) => (
                <th key={h} scope="col" className="px-3 py-2 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {shown.map((lang) => (
              <tr key={lang.code} className="align-top">
                <th scope="row" className="px-3 py-2 font-medium text-slate-950">
                  {lang.name} <code className="font-mono text-xs text-slate-700">{lang.code}</code>
                  {lang.nativeName !== lang.name && (
                    <span className="block text-xs text-slate-700" lang={htmlLang(lang.code)}>
                      {lang.nativeName}
                    </span>
                  )}
                </th>
                <td className="whitespace-nowrap px-3 py-2 text-slate-800">{lang.region}</td>
                <td className="px-3 py-2">
                  {lang.groups.length === 0 ? (
                    <span className="text-slate-700">target only</span>
                  ) : (
                    <ul className="space-y-1">
                      {lang.groups.map(({ provider, providerName, model, band, codes }) => (
                        <li key={`${provider}|${model}|${band}`} className="flex flex-wrap items-baseline gap-x-2">
                          <ProviderBadge provider={provider} name={providerName} />
                          <span className="text-xs text-slate-700">
                            <code className="font-mono">{model}</code> · {band}
                          </span>
                          {codes.length <= 8 ? (
                            <CodeList codes={codes} names={languageNames} />
                          ) : (
                            <details className="min-w-0">
                              <summary className="cursor-pointer text-brand-800 underline underline-offset-2">{codes.length} languages</summary>
                              <CodeList codes={codes} names={languageNames} />
                            </details>
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="px-3 py-2">
                  <SpeechCell providers={lang.stt} />
                </td>
                <td className="px-3 py-2">
                  <SpeechCell providers={lang.tts} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}

function CodeList({ codes, names }: { codes: string[]; names: Record<string, string> }) {
  return (
    <span className="font-mono text-xs text-slate-800">
      {codes.map((c, i) => (
        <span key={c}>
          <abbr title={names[c] ?? c} className="no-underline">
            {c}
          </abbr>
          {i < codes.length - 1 ? ", " : ""}
        </span>
      ))}
    </span>
  );
}

function SpeechCell({ providers }: { providers: { provider: string; providerName: string; voices?: number }[] }) {
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
          <ProviderBadge provider={p.provider} name={p.providerName} />
          {p.voices !== undefined && <span className="ml-1 text-xs text-slate-700">{p.voices === 1 ? "1 voice" : `${p.voices} voices`}</span>}
        </li>
      ))}
    </ul>
  );
}
