"use client";

import { useEffect, useState } from "react";
import { toast } from "./Toaster";

/** Copies `value` to the clipboard and says so: on the button, and in a toast (the live region screen readers hear). */
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
      toast("Copied to the clipboard");
    } catch {
      setState("failed");
    }
  }

  return (
    <>
      <button type="button" onClick={copy} className={className}>
        {state === "copied" ? "Copied" : label}
      </button>
      {state === "failed" && (
        <span role="alert" className="text-sm text-red-800">
          Copy failed — select the text and copy it by hand.
        </span>
      )}
    </>
  );
}
