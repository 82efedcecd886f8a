import { headers } from "next/headers";

/**
 * The site's public origin for the examples on the pages: `configured` (NEXTAUTH_URL, from the server's configuration)
 * when set, else this request's host.
 */
export async function requestOrigin(configured: string | undefined): Promise<string> {
  if (configured) {
    try {
      return new URL(configured).origin;
    } catch {
      // fall through
    }
  }
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? (/^(localhost|127\.|\[::1\])/.test(host) ? "http" : "https");
  return `${proto}://${host}`;
}
