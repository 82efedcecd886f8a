import { services } from "@/lib/server";

/** Shown on every page while any provider answers from the offline sandbox (the API marks sandbox answers too, with X-Lugha-Sandbox). */
export function SandboxBanner() {
  let sandboxed: string[] = [];
  try {
    sandboxed = Object.entries(services().providerStatus())
      .filter(([, s]) => s.mode === "sandbox")
      .map(([id]) => id);
  } catch {
    return null;
  }
  if (sandboxed.length === 0) return null;
  return (
    <div role="note" aria-label="Sandbox mode" className="border-b border-amber-300 bg-amber-50">
      <p className="mx-auto max-w-6xl px-4 py-2 text-sm text-amber-950 sm:px-6">
        <strong className="font-semibold">Sandbox mode.</strong> {sandboxed.length === 3 ? "All three providers" : sandboxed.join(", ")} answer from
        offline emulators on this server: output is marked <code className="font-mono">[sandbox:…]</code> and is{" "}
        <strong>not a real translation</strong>.
      </p>
    </div>
  );
}
