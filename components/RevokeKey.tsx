"use client";

import { useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { useRef, useState } from "react";
import { revokeSessionKey } from "@/app/dashboard/actions";
import { forgetPlaygroundKey } from "@/lib/portal/key-storage";
import { toast } from "./Toaster";

/** Revoke with confirmation (a modal dialog), then sign out: the key is refused by the API from then on. */
export function RevokeKey({ name, prefix }: { name: string; prefix: string }) {
  const router = useRouter();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    // A thrown call is either no answer at all (offline: a TypeError from fetch) or an answer that is an error.
    const result = await revokeSessionKey().catch((err: unknown) => ({
      ok: false as const,
      message:
        err instanceof TypeError
          ? "Could not reach the server (check your connection); the key was not revoked."
          : "The server could not revoke the key (an unexpected error); it is still active. Try again, or revoke it with DELETE /api/v1/auth/keys/me.",
    }));
    if (!result.ok) {
      setBusy(false);
      setError(result.message);
      return;
    }
    forgetPlaygroundKey();
    await signOut({ redirect: false }).catch(() => undefined);
    dialogRef.current?.close();
    toast("Key revoked");
    router.push("/?revoked=1");
    router.refresh();
  }

  return (
    <div>
      <button type="button" className="btn-danger" onClick={() => dialogRef.current?.showModal()}>
        Revoke this key…
      </button>
      <dialog
        ref={dialogRef}
        aria-labelledby="revoke-title"
        aria-describedby="revoke-desc"
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-slate-300 p-0 shadow-xl backdrop:bg-slate-900/50"
      >
        <div className="p-6">
          <h2 id="revoke-title" className="text-xl font-semibold text-slate-950">
            Revoke “{name}”?
          </h2>
          <p id="revoke-desc" className="mt-2 text-slate-800">
            Every request made with <code className="font-mono">{prefix}…</code> will be refused with 401{" "}
            <code className="font-mono">INVALID_API_KEY</code> from now on, and you will be signed out. This cannot be undone.
          </p>
          {error && (
            <p role="alert" className="field-error">
              {error}
            </p>
          )}
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            {/* biome-ignore lint/a11y/noAutofocus: a destructive dialog opens with focus on its safe choice */}
            <button type="button" className="btn-secondary" onClick={() => dialogRef.current?.close()} disabled={busy} autoFocus>
              Cancel
            </button>
            <button type="button" className="btn-danger" onClick={confirm} disabled={busy}>
              {busy ? "Revoking…" : "Revoke key"}
            </button>
          </div>
        </div>
      </dialog>
    </div>
  );
}
