import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/options";
import { MissingAuthSecretError } from "@/lib/auth/secret";

/**
 * next-auth's endpoints (/api/auth/csrf, /signin, /callback/api-key, /session, /signout, …). More specific than the
 * catch-all app/api/[...path], so it wins for /api/auth/*. Options are built per request: a missing NEXTAUTH_SECRET in
 * production is reported clearly here (500 with the reason) instead of breaking the build or the rest of the site.
 */
type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(req: NextRequest, context: Context): Promise<Response> {
  let options;
  try {
    options = authOptions();
  } catch (err) {
    if (err instanceof MissingAuthSecretError) {
      console.error(`[auth] ${err.message}`);
      return Response.json({ error: "PORTAL_NOT_CONFIGURED", message: err.message }, { status: 500, headers: { "Cache-Control": "no-store" } });
    }
    throw err;
  }
  return NextAuth(req as never, context as never, options) as Promise<Response>;
}

export { handler as GET, handler as POST };
