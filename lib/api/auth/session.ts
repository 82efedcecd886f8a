import { cookies } from "next/headers";
import { getServerSession } from "next-auth";
import { cache } from "react";
import type { KeyRecord } from "@/lib/keys/store";
import { services } from "@/lib/server";
import { authOptions } from "./options";

export type PortalSession =
  | { state: "signed_in"; key: KeyRecord }
  | { state: "signed_out" }
  /** The session names a key that has since been revoked, has expired or no longer exists. */
  | { state: "ended"; reason: "revoked" | "expired" | "unknown" };

/**
 * The portal session of the current request (server components and actions), checked against the database.
 * Memoised per request (layout and page share one lookup).
 */
export const portalSession = cache(readPortalSession);

/** next-auth's session cookie (chunked as .0, .1, … when large; __Secure- prefixed on https). */
const SESSION_COOKIE = /^(__Secure-)?next-auth\.session-token(\.\d+)?$/;

async function readPortalSession(): Promise<PortalSession> {
  // No session cookie: signed out, without decoding anything (and without needing the secret).
  if (!(await cookies()).getAll().some((c) => SESSION_COOKIE.test(c.name))) return { state: "signed_out" };
  const session = await getServerSession(authOptions());
  const keyId = session?.keyId;
  if (!keyId) return { state: "signed_out" };
  // Requests are counted in memory and written just after their response; write this instance's pending counts first
  // so the dashboard shows every request it has served (requests_total, today's bar). Never fails the page.
  const { keys } = services();
  await keys.flushUsage().catch(() => undefined);
  const key = await keys.findKeyById(keyId);
  if (!key) return { state: "ended", reason: "unknown" };
  if (key.status !== "active") return { state: "ended", reason: key.status };
  return { state: "signed_in", key };
}
