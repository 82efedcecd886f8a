import { methodNotAllowed } from "@/lib/api/route";
import { services } from "@/lib/server";
import { API_KEY_PROVIDER_ID } from "./options";

/*
 * Two answers of next-auth's endpoints (app/api/auth/[...nextauth]) corrected around it:
 *  - GET /api/auth/callback/api-key: the credentials callback is a form target, POST only; next-auth answers a GET with
 *    a 500 ("Callback for provider type credentials not supported"). It is a wrong method: 405, Allow: POST.
 *  - GET /api/auth/session: next-auth reports any session whose cookie decodes, also when its key has been revoked or
 *    has expired since sign-in. The portal's pages check the key on every request (lib/auth/session.ts); the endpoint
 *    must not say otherwise, so such a session is reported as none ({}), as next-auth reports a signed-out visitor.
 */

const notAllowed = methodNotAllowed("POST, OPTIONS");

/** The answer for a request next-auth must not see, if this is one. */
export function refuseBeforeNextAuth(req: Request, segments: string[]): Response | undefined {
  if (req.method === "GET" && segments.length === 2 && segments[0] === "callback" && segments[1] === API_KEY_PROVIDER_ID) return notAllowed(req);
  return undefined;
}

/** next-auth's answer, unless it reports a session whose key is no longer active: then no session. */
export async function withoutEndedSession(req: Request, segments: string[], res: Response): Promise<Response> {
  if (req.method !== "GET" || segments.join("/") !== "session" || res.status !== 200) return res;
  const session = (await res.clone().json()) as { keyId?: unknown };
  if (typeof session.keyId !== "string") return res;
  const key = await services().keys.findKeyById(session.keyId);
  if (key?.status === "active") return res;
  // Not re-issuing the session cookie (next-auth's answer would extend it); the pages end the session themselves.
  return Response.json({}, { headers: { "Cache-Control": "no-store" } });
}
