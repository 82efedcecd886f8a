"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { forgetPlaygroundKey } from "@/lib/portal/key-storage";
import { toast } from "./Toaster";

/** Main navigation; marks the current page (aria-current) and offers sign-out when a session exists. */
export function NavLinks({ signedIn }: { signedIn: boolean }) {
  const pathname = usePathname();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const links = [
    { href: "/", label: "Home" },
    { href: "/languages", label: "Languages" },
    { href: "/docs", label: "API reference" },
    { href: "/docs/guide", label: "Guide" },
    signedIn ? { href: "/dashboard", label: "Dashboard" } : { href: "/signin", label: "Sign in" },
  ];

  // The link of the section this page is in: the longest href the path starts with ("/docs/guide" wins over "/docs").
  const currentHref = links
    .map((link) => link.href)
    .filter((href) => (href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`)))
    .sort((a, b) => b.length - a.length)[0];

  async function onSignOut() {
    setBusy(true);
    forgetPlaygroundKey();
    await signOut({ redirect: false }).catch(() => undefined);
    router.push("/");
    router.refresh();
    setBusy(false);
    toast("Signed out");
  }

  return (
    <nav aria-label="Main" className="min-w-0 max-w-full">
      {/* One row: on a phone it scrolls sideways inside the header rather than wrapping under itself. The padding (taken
          back by the margin) leaves room for the focus outline, which the scrolling box would otherwise clip. */}
      <ul
        className="-m-1.5 flex min-w-0 items-center gap-1 overflow-x-auto p-1.5 text-sm font-medium whitespace-nowrap sm:gap-2"
        data-testid="main-nav"
      >
        {links.map((link) => {
          const current = link.href === currentHref;
          return (
            <li key={link.href}>
              <Link
                href={link.href}
                aria-current={current ? "page" : undefined}
                className={`rounded-md px-1.5 py-2 sm:px-3 ${current ? "bg-brand-50 text-brand-800 underline underline-offset-4" : "text-slate-800 hover:bg-slate-100"}`}
              >
                {link.label}
              </Link>
            </li>
          );
        })}
        {signedIn && (
          <li>
            <button type="button" onClick={onSignOut} disabled={busy} className="rounded-md px-1.5 py-2 text-slate-800 hover:bg-slate-100 sm:px-3">
              {busy ? "Signing out…" : "Sign out"}
            </button>
          </li>
        )}
      </ul>
    </nav>
  );
}
