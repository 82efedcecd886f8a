"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useId, useRef, useState } from "react";
import { KEY_PATTERN, savePlaygroundKey } from "@/lib/portal/key-storage";

/** Paste an API key → next-auth Credentials sign-in. The key is also kept in this tab for the playground. */
export function SignInForm() {
  const router = useRouter();
  const id = useId();
  const [key, setKey] = useState("");
  const [show, setShow] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const value = key.trim();
    if (!KEY_PATTERN.test(value)) {
      setError("That is not an API key: a key is svc_ followed by 40 lowercase hexadecimal characters.");
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const res = await signIn("api-key", { api_key: value, redirect: false }).catch(() => undefined);
    if (!res?.ok || res.error) {
      setBusy(false);
      const throttled = res?.error?.startsWith("THROTTLED");
      setError(
        !res
          ? "The sign-in service did not answer. Try again in a moment."
          : throttled
            ? `Too many sign-in attempts from your address. Try again in ${res.error!.split(":")[1] ?? "60"} s.`
            : "That key was not accepted: it is unknown, expired or revoked.",
      );
      inputRef.current?.focus();
      return;
    }
    savePlaygroundKey(value);
    router.push("/dashboard");
    router.refresh();
  }

  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Sign in with an API key">
      <div>
        <label htmlFor={`${id}-key`} className="field-label">
          API key
        </label>
        <div className="mt-1 flex gap-2">
          <input
            ref={inputRef}
            id={`${id}-key`}
            name="api_key"
            type={show ? "text" : "password"}
            autoComplete="off"
            spellCheck={false}
            value={key}
            onChange={(e) => setKey(e.target.value)}
            placeholder="svc_…"
            aria-required="true"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${errorId} ${hintId}` : hintId}
            className="field-input mt-0 font-mono"
          />
          <button type="button" className="btn-secondary" onClick={() => setShow((s) => !s)} aria-pressed={show}>
            {show ? "Hide" : "Show"}
          </button>
        </div>
        <p id={hintId} className="mt-1 text-sm text-slate-700">
          The key you were shown when you created it, <code className="font-mono">svc_</code> + 40 characters.
        </p>
        {error && (
          <p id={errorId} role="alert" className="field-error">
            {error}
          </p>
        )}
      </div>
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
