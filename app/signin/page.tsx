import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/SignInForm";
import { authConfigured, MissingAuthSecretError } from "@/lib/api/auth/secret";
import { portalSession } from "@/lib/api/auth/session";

export const metadata: Metadata = { title: "Sign in" };

const ENDED: Record<string, string> = {
  revoked: "The key of your session has been revoked, so the session has ended.",
  expired: "The key of your session has expired, so the session has ended. Create a new key on the home page.",
  unknown: "Your session named a key that no longer exists. Sign in again.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  if (!authConfigured()) {
    return (
      <div className="mx-auto max-w-xl px-4 py-12 sm:px-6">
        <h1 className="text-3xl font-bold text-slate-950">Sign in</h1>
        <div role="alert" className="mt-6 rounded-md border border-red-300 bg-red-50 p-4 text-red-900">
          <p className="font-semibold">Portal sign-in is not configured on this server.</p>
          <p className="mt-1 text-sm">{new MissingAuthSecretError().message}</p>
          <p className="mt-2 text-sm">The API itself works: you can still create keys and call it.</p>
        </div>
      </div>
    );
  }
  const session = await portalSession();
  if (session.state === "signed_in") redirect("/dashboard");
  const ended = typeof params.ended === "string" ? ENDED[params.ended] : undefined;

  return (
    <div className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-slate-950">Sign in with your API key</h1>
      <p className="mt-2 text-slate-800">
        There are no accounts: your API key is your sign-in. No key yet?{" "}
        <Link href="/#get-key" className="text-brand-800 underline">
          Create one
        </Link>
        .
      </p>
      {ended && (
        <p role="status" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          {ended}
        </p>
      )}
      <div className="card mt-6">
        <SignInForm />
      </div>
      <details className="mt-6 text-sm text-slate-800">
        <summary className="cursor-pointer font-medium text-slate-900">What happens to my key?</summary>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li>
            The server looks the key up by its hash and checks that it is neither expired nor revoked. Signing in is not counted as an API request.
          </li>
          <li>Your session cookie (httpOnly, signed and encrypted) holds only the key&apos;s id — never the key.</li>
          <li>
            So that the playground can call the API for you, the key is kept in this browser tab&apos;s session storage until you sign out or close
            the tab.
          </li>
        </ul>
      </details>
    </div>
  );
}
