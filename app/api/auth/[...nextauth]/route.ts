import { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { refuseBeforeNextAuth, withoutEndedSession } from "@/lib/api/auth/endpoints";
import { authOptions } from "@/lib/api/auth/options";
import { MissingAuthSecretError } from "@/lib/api/auth/secret";
import { errorResponse } from "@/lib/api/route";
import { withBodyLimit } from "@/lib/kit/limit-request";
import { processLog } from "@/lib/kit/log";
import { requestIdFor } from "@/lib/kit/request-id";

/**
 * next-auth's endpoints (/api/auth/csrf, /signin, /callback/api-key, /session, /signout, …). More specific than the
 * catch-all app/api/[...path], so it wins for /api/auth/*. Options are built per request: a missing NEXTAUTH_SECRET in
 * production is reported clearly here (500 with the reason) instead of breaking the build or the rest of the site.
 */
type Context = { params: Promise<{ nextauth: string[] }> };

/** next-auth buffers whatever body it is sent; its forms are a few hundred bytes (security review: a 200 MB POST). */
const MAX_AUTH_BODY_BYTES = 16 * 1024;

async function handler(incoming: NextRequest, context: Context): Promise<Response> {
  let req: NextRequest;
  try {
    req = await withBodyLimit(
      incoming,
      MAX_AUTH_BODY_BYTES,
      (body) => new NextRequest(incoming.url, { method: incoming.method, headers: incoming.headers, body }),
    );
  } catch (err) {
    return errorResponse(err, requestIdFor(incoming.headers.get("x-request-id")));
  }
  let options: ReturnType<typeof authOptions>;
  try {
    options = authOptions();
  } catch (err) {
    if (err instanceof MissingAuthSecretError) {
      processLog().error({ event: "portal_not_configured" }, err.message);
      return Response.json({ error: "PORTAL_NOT_CONFIGURED", message: err.message }, { status: 500, headers: { "Cache-Control": "no-store" } });
    }
    throw err;
  }
  const { nextauth: segments } = await context.params;
  const refused = refuseBeforeNextAuth(req, segments);
  if (refused) return refused;
  return withoutEndedSession(req, segments, await (NextAuth(req as never, context as never, options) as Promise<Response>));
}

export { handler as GET, handler as POST };
