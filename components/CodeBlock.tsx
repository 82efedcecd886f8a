import { CopyButton } from "./CopyButton";

/**
 * A block of code or JSON with a title bar (its label, and a Copy button that never covers the code). The block
 * scrolls sideways when a line is longer than the screen, and can be focused to scroll it with the keyboard.
 */
export function CodeBlock({ code, label, copy = true, className = "" }: { code: string; label: string; copy?: boolean; className?: string }) {
  return (
    <div className={`overflow-hidden rounded-md bg-slate-900 ${className}`}>
      <div className="flex items-center justify-between gap-2 border-b border-slate-700 px-3 py-1.5">
        <span className="text-xs font-medium text-slate-300">{label}</span>
        {copy && <CopyButton value={code} label="Copy" className="rounded px-2 py-1 text-xs font-semibold text-slate-100 hover:bg-slate-700" />}
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a block that scrolls sideways must be reachable by keyboard */}
      <pre tabIndex={0} className="code-block rounded-none">
        <code>{code}</code>
      </pre>
    </div>
  );
}
