import { type NextRequest, NextResponse } from "next/server";
import { contentSecurityPolicy } from "@/lib/portal/csp";

/**
 * Pages only (not /api, /health or static assets): a fresh CSP nonce per request. Next.js reads the nonce from the
 * request's Content-Security-Policy header and puts it on every script it renders, which is why every page is
 * rendered dynamically (the root layout reads the session). See lib/portal/csp.ts for the policy itself.
 */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

export const config = {
  matcher: [
    {
      source: "/((?!api/|api$|health|_next/static|_next/image|favicon.ico|icon.svg|robots.txt).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
