import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { clientIp } from "@/lib/kit/client-ip";
import { PEER_ADDRESS_HEADER } from "@/lib/kit/headers";
import { services } from "@/lib/server";
import { authSecret } from "./secret";

/**
 * Portal sign-in (next-auth 4, Credentials provider "api-key"): the person pastes an API key; we look it up by hash
 * (it must exist, be unexpired and unrevoked) and start a session.
 *
 *  - The session is a JWT in an httpOnly, SameSite=Lax cookie (Secure on https), encrypted and authenticated with
 *    NEXTAUTH_SECRET. It holds the key id and nothing else — never the key, its hash or its name.
 *  - Signing in does not count as an API request: requests_total and last_used_at count API calls, and reading a key
 *    in the portal is not one. Attempts are throttled per client address (SIGN_IN_RULE), separately from API budgets.
 *  - Every portal page re-reads the key by id, so a key revoked or expired after sign-in ends the session at once.
 */
export const API_KEY_PROVIDER_ID = "api-key";
export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;
const SIGN_IN_RULE = { limit: 20, windowMs: 60_000 };

/** Thrown inside authorize(); next-auth hands the message to the client as `error`. */
export const SIGN_IN_THROTTLED = "THROTTLED";

export function authOptions(): NextAuthOptions {
  return {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      CredentialsProvider({
        id: API_KEY_PROVIDER_ID,
        name: "API key",
        credentials: { api_key: { label: "API key", type: "password", placeholder: "svc_…" } },
        async authorize(credentials, req) {
          const headers = new Headers();
          for (const [name, value] of Object.entries(req?.headers ?? {})) {
            if (typeof value === "string") headers.set(name, value);
          }
          const ip = clientIp(
            new Request("http://portal.invalid/", { headers }),
            headers.get(PEER_ADDRESS_HEADER) ?? undefined,
            services().trustProxy,
          );
          const decision = await services().limiter.check("default", `portal-signin:${ip}`, SIGN_IN_RULE);
          if (!decision.allowed) throw new Error(`${SIGN_IN_THROTTLED}:${decision.retryAfterSeconds}`);

          const key = await services().keys.findActiveKey((credentials?.api_key ?? "").trim());
          return key ? { id: key.id } : null;
        },
      }),
    ],
    callbacks: {
      // Only the key id goes into the token (next-auth adds iat, exp, jti when it encodes it).
      async jwt({ token, user }) {
        const sub = user?.id ?? token.sub;
        return sub ? { sub } : {};
      },
      async session({ session, token }) {
        return { expires: session.expires, keyId: token.sub };
      },
    },
  };
}
