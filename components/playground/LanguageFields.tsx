"use client";

import { usePlayground } from "./PlaygroundContext";

export interface PlaygroundLanguage {
  code: string;
  name: string;
  /** Codes this language translates into (any provider). */
  targets: string[];
}

export interface LanguageChoice {
  source: string; // "" = detect
  target: string;
  provider: string;
}

/** Source / target / provider pickers, from the registry /languages serves. Targets follow the chosen source. */
export function LanguageFields({
  idPrefix,
  languages,
  value,
  onChange,
}: {
  idPrefix: string;
  languages: PlaygroundLanguage[];
  value: LanguageChoice;
  onChange(next: LanguageChoice): void;
}) {
  const { providerNames, providerChoices } = usePlayground();
  const sources = languages.filter((l) => l.targets.length > 0);
  const source = languages.find((l) => l.code === value.source);
  const targetCodes = new Set(source ? source.targets : languages.flatMap((l) => l.targets));
  const targets = languages.filter((l) => targetCodes.has(l.code));

  function set(patch: Partial<LanguageChoice>) {
    const next = { ...value, ...patch };
    const nextSource = languages.find((l) => l.code === next.source);
    if (nextSource && !nextSource.targets.includes(next.target)) next.target = nextSource.targets[0] ?? "";
    onChange(next);
  }

  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <div>
        <label htmlFor={`${idPrefix}-source`} className="field-label">
          From
        </label>
        <select id={`${idPrefix}-source`} className="field-input" value={value.source} onChange={(e) => set({ source: e.target.value })}>
          <option value="">Detect automatically</option>
          {sources.map((l) => (
            <option key={l.code} value={l.code}>
              {l.name} ({l.code})
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${idPrefix}-target`} className="field-label">
          To
        </label>
        <select id={`${idPrefix}-target`} className="field-input" value={value.target} onChange={(e) => set({ target: e.target.value })}>
          {targets.map((l) => (
            <option key={l.code} value={l.code}>
              {l.name} ({l.code})
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${idPrefix}-provider`} className="field-label">
          Provider
        </label>
        {/* The option names the provider; what it is chosen for is said below it, so no option is cut off in a narrow field. */}
        <select
          id={`${idPrefix}-provider`}
          className="field-input"
          value={value.provider}
          aria-describedby={`${idPrefix}-provider-hint`}
          onChange={(e) => set({ provider: e.target.value })}
        >
          {providerChoices.map(([id]) => (
            <option key={id} value={id}>
              {providerNames[id] ? `${providerNames[id]} (${id})` : id}
            </option>
          ))}
        </select>
        <p id={`${idPrefix}-provider-hint`} className="mt-1 text-xs text-slate-700">
          {providerChoices.find(([id]) => id === value.provider)?.[1]}
        </p>
      </div>
    </div>
  );
}

/** A labelled select of languages ("Luganda (lug)"), for the tabs that take one language (Speak, Transcribe). */
export function LanguageSelect({
  id,
  label,
  languages,
  value,
  onChange,
  placeholder,
}: {
  id: string;
  label: string;
  languages: { code: string; name: string }[];
  value: string;
  onChange(code: string): void;
  /** The empty choice's text (shown until a language is chosen); without it the first language is preselected. */
  placeholder?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select id={id} className="field-input" value={value} onChange={(e) => onChange(e.target.value)}>
        {placeholder !== undefined && (
          <option value="" disabled>
            {placeholder}
          </option>
        )}
        {languages.map((l) => (
          <option key={l.code} value={l.code}>
            {l.name} ({l.code})
          </option>
        ))}
      </select>
    </div>
  );
}
