"use server";

import { portalSession } from "@/lib/api/auth/session";
import { services } from "@/lib/server";

/**
 * Revokes the key of the current portal session (the session names it by id; the browser never sends the key for
 * this). Server actions check the Origin header, so another site cannot trigger it.
 */
export async function revokeSessionKey(): Promise<{ ok: true } | { ok: false; message: string }> {
  const session = await portalSession();
  if (session.state !== "signed_in") return { ok: false, message: "Your session has ended; sign in again." };
  try {
    await services().keys.revokeKey(session.key.id);
  } catch (err) {
    console.error("[portal] revoking a key failed", err);
    return {
      ok: false,
      message: "The server could not revoke the key just now (its database did not answer); it is still active. Try again in a moment.",
    };
  }
  return { ok: true };
}
