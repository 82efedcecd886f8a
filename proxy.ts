import { type NextRequest, NextResponse } from "next/server";
import { config as settings } from "@/lib/config";
import { contentSecurityPolicy } from "@/lib/portal/csp";

/**
 * Pages only (not /api, /compat, /health, /metrics or static assets), every request including prefetches (a prefetched document is
 * shown later as it was fetched, so it needs its CSP too):
 *  - a fresh CSP nonce per request. Next.js reads the nonce from the request's Content-Security-Policy header and puts
 *    it on every script it renders, which is why every page is rendered dynamically (the root layout reads the
 *    session). See lib/portal/csp.ts for the policy itself.
 *  - server actions run only when a page of this site posted them. Next.js itself lets a request without an Origin
 *    header through and answers a foreign one with a 500; a browser always sends Origin with an action's POST, so
 *    anything else is refused here with 403 before it reaches the action.
 */
export function proxy(request: NextRequest) {
  if (request.method === "POST" && request.headers.has("next-action") && !postedBySameOrigin(request)) {
    return new NextResponse("Server actions are accepted only from this site's pages.\n", {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, settings().NODE_ENV === "development");
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

/** The Origin header names the host this request was sent to (as Next.js compares them: X-Forwarded-Host, else Host). */
function postedBySameOrigin(request: NextRequest): boolean {
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return false;
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export const config = {
  matcher: ["/((?!api/|api$|compat/|health|metrics$|_next/static|_next/image|favicon.ico|icon.svg|robots.txt).*)"],
};
