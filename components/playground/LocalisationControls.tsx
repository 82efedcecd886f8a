"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { z } from "zod";
import type { GlossaryList, TextFormat } from "@/lib/glossaries/schemas";
import { callApi } from "@/lib/portal/api";
import { usePlayground } from "./PlaygroundContext";

/** The localisation fields of translate and batch (docs/decisions.md "Localising an app"), as playground controls. */

export type TextFormatValue = z.output<typeof TextFormat>;
type GlossarySummary = z.output<typeof GlossaryList>["glossaries"][number];

const FORMAT_LABELS: Record<TextFormatValue, string> = {
  text: "Plain text",
  html: "HTML (only text and alt, title, placeholder, aria-label are translated)",
  markdown: "Markdown (code, URLs and syntax are kept)",
};

export function FormatSelect({ id, value, onChange }: { id: string; value: TextFormatValue; onChange(format: TextFormatValue): void }) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
        Format <code className="ml-1 font-mono text-xs font-normal text-slate-600">format</code>
      </label>
      <select id={id} className="field-input" value={value} onChange={(e) => onChange(e.target.value as TextFormatValue)}>
        {Object.entries(FORMAT_LABELS).map(([format, label]) => (
          <option key={format} value={format}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Terms separated by commas or line breaks, trimmed, empty ones and repeats dropped. */
export function parseTerms(input: string): string[] {
  return [...new Set(input.split(/[,\r\n]/).map((t) => t.trim()))].filter((t) => t !== "");
}

export function DoNotTranslateInput({ id, value, onChange }: { id: string; value: string; onChange(value: string): void }) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
        Do not translate <code className="ml-1 font-mono text-xs font-normal text-slate-600">do_not_translate</code>
      </label>
      <textarea
        id={id}
        rows={2}
        className="field-input"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-hint`}
        placeholder="M-Pesa, Lugha"
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-700">
        Terms kept exactly as written (matched case-sensitively, as whole words), separated by commas or line breaks. Leave empty for none.
      </p>
    </div>
  );
}

/**
 * The calling key's glossaries, offering only those for the chosen pair: the API refuses another pair's glossary. With
 * the source detected, the target decides. Listed on demand, not when the page opens: GET /api/v1/glossaries is a
 * request of the key like any other (counted, rate-limited), and opening the dashboard must not spend one.
 */
export function GlossarySelect({
  id,
  source,
  target,
  value,
  onChange,
}: {
  id: string;
  source: string;
  target: string;
  value: string;
  onChange(glossaryId: string): void;
}) {
  const { apiKey, recordRateLimit } = usePlayground();
  const router = useRouter();
  const [glossaries, setGlossaries] = useState<GlossarySummary[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function load() {
    setError(null);
    setLoading(true);
    const r = await callApi<z.output<typeof GlossaryList>>("/api/v1/glossaries", { apiKey: apiKey! });
    recordRateLimit("default", r.rateLimit);
    setLoading(false);
    if (r.ok) setGlossaries(r.data.glossaries);
    else setError(`Could not list your glossaries: ${r.problem.message} (HTTP ${r.problem.status} ${r.problem.code})`);
    router.refresh(); // requests_total and the usage chart
  }

  const matching = (glossaries ?? []).filter((g) => g.target_lang === target && (!source || g.source_lang === source));
  // A chosen glossary that no longer fits the pair is dropped rather than sent to a certain 422.
  useEffect(() => {
    if (value && glossaries && !matching.some((g) => g.id === value)) onChange("");
  });

  const others = (glossaries?.length ?? 0) - matching.length;
  const hint =
    glossaries === null
      ? "None is used until you list this key's glossaries (one API request) and choose one."
      : glossaries.length === 0
        ? "This key has no glossaries yet: create one with POST /api/v1/glossaries (see /docs)."
        : `${matching.length} of your glossaries ${matching.length === 1 ? "is" : "are"} for ${source || "any source"} → ${target}${others > 0 ? `; ${others} for other pairs ${others === 1 ? "is" : "are"} not listed` : ""}.`;

  return (
    <div>
      <label htmlFor={id} className="field-label">
        Glossary <code className="ml-1 font-mono text-xs font-normal text-slate-600">glossary_id</code>
      </label>
      <div className="flex gap-2">
        <select id={id} className="field-input mt-0 min-w-0" value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={`${id}-hint`}>
          <option value="">None</option>
          {matching.map((g) => (
            <option key={g.id} value={g.id}>
              {`${g.name ?? "Unnamed"} (${g.source_lang} → ${g.target_lang}, ${g.entry_count.toLocaleString("en-US")} ${g.entry_count === 1 ? "term" : "terms"})`}
            </option>
          ))}
        </select>
        <button type="button" className="btn-secondary whitespace-nowrap px-3" onClick={() => void load()} disabled={loading}>
          {loading ? "Listing…" : glossaries === null ? "List my glossaries" : "Reload the list"}
        </button>
      </div>
      <p id={`${id}-hint`} className={`mt-1 text-xs ${error ? "text-red-800" : "text-slate-700"}`} role={error ? "alert" : undefined}>
        {error ?? hint}
      </p>
    </div>
  );
}
