"use client";

import { useEffect, useState } from "react";

/**
 * Short confirmations ("Copied", "Signed out", "Key revoked") in one live region at the foot of the window. It lives in
 * the root layout, so a toast raised just before a client-side navigation is still shown on the next page. Raise one
 * with toast(message) from any client component.
 */
const EVENT = "lugha:toast";
const TOAST_MS = 4000;

export function toast(message: string) {
  window.dispatchEvent(new CustomEvent<string>(EVENT, { detail: message }));
}

export function Toaster() {
  const [toasts, setToasts] = useState<{ id: number; message: string }[]>([]);
  useEffect(() => {
    let next = 0;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const onToast = (e: Event) => {
      const id = ++next;
      setToasts((t) => [...t.slice(-2), { id, message: (e as CustomEvent<string>).detail }]);
      const timer = setTimeout(() => {
        timers.delete(timer);
        setToasts((t) => t.filter((x) => x.id !== id));
      }, TOAST_MS);
      timers.add(timer);
    };
    window.addEventListener(EVENT, onToast);
    return () => {
      window.removeEventListener(EVENT, onToast);
      for (const t of timers) clearTimeout(t);
    };
  }, []);
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="toasts"
      className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4"
    >
      {toasts.map((t) => (
        <p key={t.id} className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white shadow-lg">
          {t.message}
        </p>
      ))}
    </div>
  );
}
