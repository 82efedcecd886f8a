import type { Metadata, Viewport } from "next";
import Link from "next/link";
import { unstable_rethrow } from "next/navigation";
import { connection } from "next/server";
import { NavLinks } from "@/components/NavLinks";
import { SandboxBanner } from "@/components/SandboxBanner";
import { Toaster } from "@/components/Toaster";
import { portalSession } from "@/lib/api/auth/session";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Lugha — translation and speech for African languages", template: "%s · Lugha" },
  description: "One API for Luganda, Twi, Yoruba, Swahili and more: translation, speech-to-text and text-to-speech.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#065f46" };

/** Whether this request has a live portal session; a misconfigured portal (no secret in production) reads as signed out. */
async function signedIn(): Promise<boolean> {
  try {
    return (await portalSession()).state === "signed_in";
  } catch (err) {
    unstable_rethrow(err);
    return false;
  }
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request: the per-request CSP nonce (proxy.ts) needs it, and so does the session.
  await connection();
  const isSignedIn = await signedIn();
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col bg-slate-50 font-sans text-slate-900 antialiased">
        <a
          href="#main"
          className="sr-only rounded-md bg-white px-4 py-2 font-semibold text-brand-800 focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50"
        >
          Skip to content
        </a>
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
            <Link href="/" className="flex items-center gap-2 text-lg font-bold tracking-tight text-brand-800">
              <svg aria-hidden="true" viewBox="0 0 32 32" className="h-7 w-7">
                <rect width="32" height="32" rx="7" fill="#065f46" />
                <path d="M9 7h4v14h10v4H9z" fill="#fff" />
              </svg>
              Lugha
            </Link>
            <NavLinks signedIn={isSignedIn} />
          </div>
          {/* Inside the header (a landmark), so that all the page's content is in landmarks (axe: region). */}
          <SandboxBanner />
        </header>
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          {children}
        </main>
        <footer className="border-t border-slate-200 bg-white">
          <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-6 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between sm:px-6">
            <p>Lugha — translation and speech for African languages.</p>
            <nav aria-label="Footer" className="flex flex-wrap gap-x-5 gap-y-1">
              <a className="underline hover:text-brand-800" href="/docs">
                API reference
              </a>
              <a className="underline hover:text-brand-800" href="/docs/guide">
                Developer guide
              </a>
              <a className="underline hover:text-brand-800" href="/api/v1/openapi.json">
                OpenAPI document
              </a>
              <a className="underline hover:text-brand-800" href="/status">
                Status
              </a>
              <a className="underline hover:text-brand-800" href="/health">
                Service health
              </a>
            </nav>
          </div>
        </footer>
        <Toaster />
      </body>
    </html>
  );
}
