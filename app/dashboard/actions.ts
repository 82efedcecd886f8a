"use server";

import { portalSession } from "@/lib/auth/session";
import { revokeKey } from "@/lib/keys/store";

/**
 * Revokes the key of the current portal session (the session names it by id; the browser never sends the key for
 * this). Server actions check the Origin header, so another site cannot trigger it.
 */
export async function revokeSessionKey(): Promise<{ ok: true } | { ok: false; message: string }> {
  const session = await portalSession();
  if (session.state !== "signed_in") return { ok: false, message: "Your session has ended; sign in again." };
  await revokeKey(session.key.id);
  return { ok: true };
}
