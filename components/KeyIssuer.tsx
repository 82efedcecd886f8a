"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useEffect, useId, useRef, useState } from "react";
import { type ApiProblem, callApi, formatSeconds } from "@/lib/portal/api";
import { savePlaygroundKey } from "@/lib/portal/key-storage";
import { CodeBlock } from "./CodeBlock";
import { CopyButton } from "./CopyButton";

interface IssuedKey {
  api_key: string;
  name: string;
  created_at: string;
  expires_at: string;
}

type FieldErrors = { name?: string; expires_in_days?: string; form?: ApiProblem };

function formatUtc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/**
 * The key issuance form of the home page: POST /api/v1/auth/keys from the browser. Validation is the server's
 * (the same zod schema the API uses), shown inline per field from detail.errors; a 429 shows Retry-After as a countdown.
 */
export function KeyIssuer({ origin, portalEnabled = true }: { origin: string; portalEnabled?: boolean }) {
  const router = useRouter();
  const id = useId();
  const [name, setName] = useState("");
  const [days, setDays] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const [retryUntil, setRetryUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [signingIn, setSigningIn] = useState(false);
  const [signInError, setSignInError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const daysRef = useRef<HTMLInputElement>(null);
  const resultRef = useRef<HTMLHeadingElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);

  const waiting = retryUntil !== null && retryUntil > now;
  useEffect(() => {
    if (retryUntil === null) return;
    const t = setInterval(() => {
      const n = Date.now();
      setNow(n);
      if (n >= retryUntil) {
        setRetryUntil(null);
        setErrors((e) => (e.form?.code === "RATE_LIMIT_EXCEEDED" ? {} : e));
      }
    }, 1000);
    return () => clearInterval(t);
  }, [retryUntil]);

  useEffect(() => {
    if (issued) resultRef.current?.focus();
  }, [issued]);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (waiting) return;
    setSubmitting(true);
    setErrors({});
    const body: Record<string, unknown> = { name };
    const trimmedDays = days.trim();
    if (trimmedDays !== "") body.expires_in_days = /^-?\d+(\.\d+)?$/.test(trimmedDays) ? Number(trimmedDays) : trimmedDays;
    const result = await callApi<IssuedKey>("/api/v1/auth/keys", { method: "POST", body: JSON.stringify(body) });
    setSubmitting(false);
    if (result.ok) {
      setIssued(result.data);
      setName("");
      setDays("");
      setSignInError(null);
      return;
    }
    const p = result.problem;
    const next: FieldErrors = {};
    for (const err of p.errors ?? []) {
      const field = err.loc[1];
      if (field === "name" && !next.name) next.name = err.msg;
      else if (field === "expires_in_days" && !next.expires_in_days) next.expires_in_days = err.msg;
    }
    if (!next.name && !next.expires_in_days) next.form = p;
    if (p.status === 429) {
      next.form = p;
      const wait = p.retryAfter ?? 60;
      setNow(Date.now());
      setRetryUntil(Date.now() + wait * 1000);
    }
    setErrors(next);
    requestAnimationFrame(() => {
      if (next.name) nameRef.current?.focus();
      else if (next.expires_in_days) daysRef.current?.focus();
      else alertRef.current?.focus();
    });
  }

  async function continueToDashboard() {
    if (!issued) return;
    setSigningIn(true);
    setSignInError(null);
    const res = await signIn("api-key", { api_key: issued.api_key, redirect: false }).catch(() => undefined);
    if (!res?.ok || res.error) {
      setSigningIn(false);
      setSignInError(
        res?.error?.startsWith("THROTTLED")
          ? "Too many sign-in attempts; wait a minute and try again."
          : "Could not sign in. Use the Sign in page with the key you copied.",
      );
      return;
    }
    savePlaygroundKey(issued.api_key);
    router.push("/dashboard");
    router.refresh();
  }

  const nameErrorId = `${id}-name-error`;
  const daysErrorId = `${id}-days-error`;
  const daysHintId = `${id}-days-hint`;
  const remaining = retryUntil ? (retryUntil - now) / 1000 : 0;

  return (
    <div className="space-y-6">
      <form onSubmit={onSubmit} noValidate aria-label="Create an API key" className="grid gap-4 sm:grid-cols-[1fr_12rem_auto] sm:items-start">
        <div>
          <label htmlFor={`${id}-name`} className="field-label">
            Key name <span className="font-normal text-slate-600">(required)</span>
          </label>
          <input
            ref={nameRef}
            id={`${id}-name`}
            name="name"
            type="text"
            autoComplete="off"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-required="true"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? nameErrorId : undefined}
            placeholder="e.g. my translation app"
            className="field-input"
          />
          {errors.name && (
            <p id={nameErrorId} className="field-error">
              {errors.name}
            </p>
          )}
        </div>
        <div>
          <label htmlFor={`${id}-days`} className="field-label">
            Expires in (days) <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <input
            ref={daysRef}
            id={`${id}-days`}
            name="expires_in_days"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={days}
            onChange={(e) => setDays(e.target.value)}
            aria-invalid={errors.expires_in_days ? true : undefined}
            aria-describedby={errors.expires_in_days ? `${daysErrorId} ${daysHintId}` : daysHintId}
            placeholder="365"
            className="field-input"
          />
          <p id={daysHintId} className="mt-1 text-sm text-slate-600">
            1–365; default 365.
          </p>
          {errors.expires_in_days && (
            <p id={daysErrorId} className="field-error">
              {errors.expires_in_days}
            </p>
          )}
        </div>
        <div className="sm:pt-6">
          <button type="submit" className="btn-primary w-full sm:w-auto" disabled={submitting || waiting}>
            {submitting ? "Creating…" : "Create key"}
          </button>
        </div>
      </form>

      <div ref={alertRef} tabIndex={-1} role="alert" className="focus:outline-none">
        {errors.form && (
          <div className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900">
            {errors.form.status === 429 ? (
              <p>
                <strong>Too many keys were created from your network address.</strong>{" "}
                {waiting ? <>You can create another in {formatSeconds(remaining)}.</> : <>You can try again now.</>}{" "}
                <span className="text-red-800">(HTTP 429, Retry-After: {errors.form.retryAfter ?? "?"} s)</span>
              </p>
            ) : (
              <p>
                <strong>{errors.form.message}</strong>{" "}
                <span className="text-red-800">
                  ({errors.form.code}
                  {errors.form.requestId ? `, request ${errors.form.requestId}` : ""})
                </span>
              </p>
            )}
          </div>
        )}
      </div>

      {issued && (
        <section aria-labelledby={`${id}-result`} className="rounded-lg border-2 border-brand-600 bg-brand-50 p-5" data-testid="issued-key-panel">
          <h3 id={`${id}-result`} ref={resultRef} tabIndex={-1} className="text-lg font-semibold text-brand-900 focus:outline-none">
            Your new API key “{issued.name}”
          </h3>
          <p className="mt-2 rounded-md bg-amber-100 px-3 py-2 text-sm font-semibold text-amber-950">
            Store it now — it cannot be shown again. Lugha keeps only a hash of it.
          </p>
          <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
            <code
              data-testid="issued-key"
              className="block flex-1 break-all rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900"
            >
              {issued.api_key}
            </code>
            <CopyButton value={issued.api_key} label="Copy key" />
          </div>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-700">Created</dt>
            <dd>{formatUtc(issued.created_at)}</dd>
            <dt className="text-slate-700">Expires</dt>
            <dd>{formatUtc(issued.expires_at)}</dd>
          </dl>
          <p className="mt-4 text-sm text-slate-800">Try it:</p>
          <CodeBlock
            code={`curl ${origin}/api/v1/translate \\
  -H "Authorization: Bearer ${issued.api_key}" \\
  -H "Content-Type: application/json" \\
  -d '{"text": "Good morning, how are you?", "source_lang": "en", "target_lang": "lug"}'`}
            label="Your first request (shell)"
            className="mt-1"
          />
          <div className="mt-4 flex flex-wrap items-center gap-3">
            {portalEnabled && (
              <button type="button" className="btn-primary" onClick={continueToDashboard} disabled={signingIn}>
                {signingIn ? "Opening…" : "Open the dashboard with this key"}
              </button>
            )}
            <button type="button" className="btn-secondary" onClick={() => setIssued(null)}>
              I have stored it — hide the key
            </button>
          </div>
          {signInError && (
            <p role="alert" className="field-error">
              {signInError}
            </p>
          )}
        </section>
      )}
    </div>
  );
}
