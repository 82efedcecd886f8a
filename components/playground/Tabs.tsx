"use client";

import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from "react";

export interface Tab {
  id: string;
  label: string;
  panel: ReactNode;
}

/**
 * WAI-ARIA tabs: one tab stop for the list (arrow keys, Home and End move between tabs and select them), each panel
 * labelled by its tab. Inactive panels stay mounted (hidden), so a tab keeps its inputs and result when you come back.
 */
export function Tabs({ label, tabs }: { label: string; tabs: Tab[] }) {
  const id = useId();
  const [selected, setSelected] = useState(0);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);

  const onKeyDown = (e: KeyboardEvent) => {
    const last = tabs.length - 1;
    const next =
      e.key === "ArrowRight"
        ? selected === last
          ? 0
          : selected + 1
        : e.key === "ArrowLeft"
          ? selected === 0
            ? last
            : selected - 1
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? last
              : -1;
    if (next < 0) return;
    e.preventDefault();
    setSelected(next);
    refs.current[next]?.focus();
  };

  return (
    <div>
      <div role="tablist" aria-label={label} className="flex flex-wrap gap-1 border-b border-slate-300" onKeyDown={onKeyDown}>
        {tabs.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[i] = el;
            }}
            id={`${id}-${t.id}-tab`}
            type="button"
            role="tab"
            aria-selected={i === selected}
            aria-controls={`${id}-${t.id}-panel`}
            tabIndex={i === selected ? 0 : -1}
            onClick={() => setSelected(i)}
            className={`-mb-px min-h-11 rounded-t-md border px-4 text-sm font-semibold ${i === selected ? "border-slate-300 border-b-white bg-white text-brand-800" : "border-transparent text-slate-800 hover:bg-slate-100"}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tabs.map((t, i) => (
        <div key={t.id} id={`${id}-${t.id}-panel`} role="tabpanel" aria-labelledby={`${id}-${t.id}-tab`} hidden={i !== selected} className="pt-5">
          {t.panel}
        </div>
      ))}
    </div>
  );
}
