"use client";

import { createContext, type KeyboardEvent, type ReactNode, useContext, useId, useRef, useState } from "react";

export interface Tab {
  id: string;
  label: string;
  panel: ReactNode;
}

const PanelShown = createContext(true);

/**
 * Whether the tab panel around a component is the one shown. Panels stay mounted when another tab is chosen, so what
 * must not go on unseen (a recording from the microphone) stops when this turns false.
 */
export const usePanelShown = () => useContext(PanelShown);

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
      {/* One row that scrolls sideways when the tabs are wider than the page (a phone), never a second row of tabs. The
          line under the tabs is an inset shadow, which the selected tab's white bottom border covers; the padding leaves room
          for the focus outline. */}
      <div
        role="tablist"
        aria-label={label}
        className="flex gap-1 overflow-x-auto px-1.5 pt-1.5 shadow-[inset_0_-1px_0_#cbd5e1]"
        onKeyDown={onKeyDown}
        data-testid="tablist"
      >
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
            className={`min-h-11 shrink-0 whitespace-nowrap rounded-t-md border px-3 text-sm font-semibold sm:px-4 ${i === selected ? "border-slate-300 border-b-white bg-white text-brand-800" : "border-transparent text-slate-800 hover:bg-slate-100"}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tabs.map((t, i) => (
        <div key={t.id} id={`${id}-${t.id}-panel`} role="tabpanel" aria-labelledby={`${id}-${t.id}-tab`} hidden={i !== selected} className="pt-5">
          <PanelShown.Provider value={i === selected}>{t.panel}</PanelShown.Provider>
        </div>
      ))}
    </div>
  );
}
