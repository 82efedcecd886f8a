"use client";

import { useEffect, useState } from "react";

/** Copies `value` to the clipboard and says so (politely, for screen readers too). */
export function CopyButton({ value, label = "Copy", className = "btn-secondary" }: { value: string; label?: string; className?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 2500);
    return () => clearTimeout(t);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
  }

  return (
    <>
      <button type="button" onClick={copy} className={className}>
        {state === "copied" ? "Copied" : label}
      </button>
      <span role="status" aria-live="polite" className="sr-only">
        {state === "copied" ? "Copied to the clipboard" : state === "failed" ? "Could not copy: select the text and copy it by hand" : ""}
      </span>
      {state === "failed" && <span className="text-sm text-red-800">Copy failed — select the text and copy it by hand.</span>}
    </>
  );
}
