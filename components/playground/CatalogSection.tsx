"use client";

import { useEffect, useId, useRef, useState } from "react";
import { type ApiProblem, callApi } from "@/lib/portal/api";
import { CATALOG_FORMAT_CHOICES, type CatalogFormatChoice, formatFromName, targetFileName } from "@/lib/portal/catalog";
import type { SnippetRequest } from "@/lib/portal/snippets";
import { LanguageSelect, type PlaygroundLanguage } from "./LanguageFields";
import { usePlayground } from "./PlaygroundContext";
import { ProblemBox } from "./ProblemBox";
import { ViewCode } from "./ViewCode";

/** Revokes object URLs and empties the list. */
function releaseAll(list: string[]) {
  for (const url of list.splice(0)) URL.revokeObjectURL(url);
}

/** What POST /api/v1/translate/catalog answers (the fields the tab shows). */
interface CatalogAnswer {
  content: string;
  entries: { total: number; translated: number; kept: number; pending: number; failed: { key: string; error: string }[] };
  upstream_calls: number;
  retry_after_seconds: number | null;
  sandbox: boolean;
}

interface TargetResult {
  target: string;
  fileName: string;
  answer?: CatalogAnswer;
  url?: string;
  problem?: ApiProblem;
}

/**
 * The Catalog tab: a catalog file from this computer, translated into each chosen language by
 * POST /api/v1/translate/catalog (one request per language, with the user's key), each result offered for download.
 * The file never leaves the browser except in those requests.
 */
export function CatalogSection({ languages }: { languages: PlaygroundLanguage[] }) {
  const { apiKey, recordRateLimit } = usePlayground();
  const id = useId();
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [format, setFormat] = useState<CatalogFormatChoice>("json");
  const [source, setSource] = useState("en");
  const [targets, setTargets] = useState<string[]>(["lug"]);
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<TargetResult[]>([]);
  /** The last request sent, for "View code" (the same JSON body, with the file's text in `content`). */
  const [sent, setSent] = useState<SnippetRequest | null>(null);

  // Download links are object URLs: released when a new run replaces them and when the playground goes away.
  const urls = useRef<string[]>([]);
  useEffect(() => () => releaseAll(urls.current), []);

  async function onFile(e: React.ChangeEvent<HTMLInputElement>) {
    const picked = e.target.files?.[0];
    if (!picked) return setFile(null);
    setFile({ name: picked.name, content: await picked.text() });
    const guessed = formatFromName(picked.name);
    if (guessed) setFormat(guessed);
  }

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    if (!file || targets.length === 0) return;
    setBusy(true);
    releaseAll(urls.current);
    const done: TargetResult[] = [];
    for (const target of targets) {
      const fileName = targetFileName(file.name, source, target);
      const request = { format, content: file.content, source_lang: source, target_lang: target };
      const body = JSON.stringify(request);
      setSent({ kind: "json", path: "/api/v1/translate/catalog", body: request });
      const r = await callApi<CatalogAnswer>("/api/v1/translate/catalog", { method: "POST", apiKey: apiKey!, body });
      recordRateLimit("batch", r.rateLimit);
      if (r.ok)
        done.push({ target, fileName, answer: r.data, url: URL.createObjectURL(new Blob([r.data.content], { type: "text/plain;charset=utf-8" })) });
      else done.push({ target, fileName, problem: r.problem });
      setResults([...done]);
    }
    setBusy(false);
  }

  const names = new Map(languages.map((l) => [l.code, l.name]));
  const choices = languages.filter((l) => l.code !== source);

  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-lg font-semibold text-slate-950">
        Catalog
      </h3>
      <p className="mt-1 text-sm text-slate-800">
        Translate a whole localisation file — JSON, ARB, PO, XLIFF, Android strings.xml, .strings, YAML, SRT, VTT or Markdown — keeping its keys,
        layout and placeholders. Each language is one request.
      </p>
      <form onSubmit={onSubmit} className="mt-3 space-y-4" aria-label="Translate a catalog">
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-file`} className="field-label">
              Catalog file
            </label>
            <input id={`${id}-file`} type="file" className="field-input" onChange={onFile} />
          </div>
          <div>
            <label htmlFor={`${id}-format`} className="field-label">
              Format
            </label>
            <select id={`${id}-format`} className="field-input" value={format} onChange={(e) => setFormat(e.target.value as CatalogFormatChoice)}>
              {CATALOG_FORMAT_CHOICES.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="sm:w-1/2">
          <LanguageSelect id={`${id}-source`} label="Language of the file" languages={languages} value={source} onChange={setSource} />
        </div>
        <div>
          <label htmlFor={`${id}-targets`} className="field-label">
            Translate into
          </label>
          <select
            id={`${id}-targets`}
            multiple
            size={6}
            className="field-input"
            value={targets}
            onChange={(e) => setTargets([...e.target.selectedOptions].map((o) => o.value))}
            aria-describedby={`${id}-targets-hint`}
          >
            {choices.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name} ({l.code})
              </option>
            ))}
          </select>
          <p id={`${id}-targets-hint`} className="mt-1 text-xs text-slate-700">
            {targets.length} selected: {targets.map((t) => names.get(t) ?? t).join(", ") || "none"} (Ctrl or ⌘ + click to choose several).
          </p>
        </div>
        <button type="submit" className="btn-primary" disabled={busy || !file || targets.length === 0}>
          {busy ? "Translating…" : `Translate into ${targets.length} ${targets.length === 1 ? "language" : "languages"}`}
        </button>
      </form>
      <div aria-live="polite" className="mt-5 space-y-3" data-testid="catalog-results">
        {results.map((r) =>
          r.problem ? (
            <ProblemBox key={r.target} problem={r.problem} what={`Catalog into ${names.get(r.target) ?? r.target}`} />
          ) : (
            <div key={r.target} className="rounded-md border border-slate-200 bg-white p-3 text-sm text-slate-900">
              <p>
                <strong>{names.get(r.target) ?? r.target}</strong>: {r.answer!.entries.translated} translated, {r.answer!.entries.kept} kept,{" "}
                {r.answer!.entries.pending} pending, {r.answer!.entries.failed.length} failed of {r.answer!.entries.total} ·{" "}
                {r.answer!.upstream_calls} upstream {r.answer!.upstream_calls === 1 ? "call" : "calls"}
              </p>
              {r.answer!.entries.pending > 0 && (
                <p className="mt-1 text-slate-800">
                  Some entries are pending (the provider's budget or the deadline ended first). Download the file and translate again later with the
                  API's `existing` field or `lugha catalog` to continue.
                </p>
              )}
              {r.answer!.entries.failed.length > 0 && (
                <ul className="mt-1 list-disc pl-5 text-red-800">
                  {r.answer!.entries.failed.slice(0, 10).map((f) => (
                    <li key={f.key}>
                      <code className="font-mono">{f.key}</code>: {f.error}
                    </li>
                  ))}
                </ul>
              )}
              <a href={r.url} download={r.fileName} className="mt-2 inline-block font-semibold text-brand-800 underline">
                Download {r.fileName}
              </a>
            </div>
          ),
        )}
        {sent && !busy && (
          <>
            <ViewCode snippet={sent} />
            <p className="text-sm text-slate-700">
              For whole folders, continuing where a run stopped:{" "}
              <code className="font-mono">
                lugha catalog {file?.name ?? "en.json"} --to {targets.join(",")} --out ./
              </code>{" "}
              (the command line of the <code className="font-mono">@lugha/client</code> package,{" "}
              <a href="/docs/guide#installing-the-clients">installed from this repository</a>).
            </p>
          </>
        )}
      </div>
    </section>
  );
}
