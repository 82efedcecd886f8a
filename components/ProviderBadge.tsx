const STYLES: Record<string, string> = {
  provider_a: "bg-emerald-100 text-emerald-950 ring-emerald-300",
  provider_b: "bg-sky-100 text-sky-950 ring-sky-300",
  provider_c: "bg-violet-100 text-violet-950 ring-violet-300",
};

/** The provider's human name (when given) beside its API id: "Sunbird AI provider_a". */
export function ProviderBadge({ provider, name }: { provider: string; name?: string }) {
  return (
    <span
      className={`inline-block rounded px-1.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${STYLES[provider] ?? "bg-slate-100 text-slate-900 ring-slate-300"}`}
    >
      {name && `${name} `}
      <span className="font-mono font-normal">{provider}</span>
    </span>
  );
}
