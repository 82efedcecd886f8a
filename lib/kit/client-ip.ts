/**
 * The client address used for per-IP limits (key issuance).
 *
 * With TRUST_PROXY=true (Vercel, or behind your own reverse proxy) the address comes from X-Forwarded-For: the
 * right-most entry, i.e. the one appended by the proxy we trust — the left-most entries are whatever the client sent
 * and can be forged. Without TRUST_PROXY the proxy headers are ignored entirely and the socket address that
 * `next start` records is used (see lib/api/socket-address.ts).
 *
 * On Vercel (VERCEL set) TRUST_PROXY defaults to true (lib/server/settings.ts trustsProxy): there is no socket address to read (no `next start`), and
 * Vercel's edge sets X-Forwarded-For itself, overwriting whatever the client sent. TRUST_PROXY=false still wins.
 */
export function clientIp(req: Request, socketAddress: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers.get("x-forwarded-for");
    const last = forwarded
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .pop();
    const real = req.headers.get("x-real-ip")?.trim();
    const candidate = last || real;
    if (candidate && candidate.length <= 64) return candidate;
  }
  return socketAddress ?? "unknown";
}
