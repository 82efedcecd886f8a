/**
 * What served a playground call, read from the response: provider, model, voice, duration, cache and request id (the
 * X-Request-Id to quote when reporting a problem). Entries without a value are left out.
 */
export function ResponseMeta({ items }: { items: [label: string, value: string | number | null | undefined][] }) {
  const shown = items.filter(([, v]) => v !== null && v !== undefined && v !== "");
  if (shown.length === 0) return null;
  return (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm" data-testid="response-meta">
      {shown.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-700">{label}</dt>
          <dd className={`break-words text-slate-900 ${label === "Request id" || label === "Model" ? "font-mono text-xs" : ""}`} data-meta={label}>
            {String(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}
