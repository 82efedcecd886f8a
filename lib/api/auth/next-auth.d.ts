import "next-auth";

declare module "next-auth" {
  interface Session {
    /** Id of the API key the portal session was opened with. The key itself is never in the session. */
    keyId?: string;
  }
}
