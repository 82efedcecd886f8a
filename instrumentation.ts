// Runs once when the server starts (Next.js instrumentation hook).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installPeerAddressHeader } = await import("./lib/http/socket-address");
  installPeerAddressHeader();
  // Open (and for PGlite, migrate) the database now rather than on the first request.
  if (process.env.LUGHA_LAZY_DB !== "true") {
    const { getDatabase } = await import("./lib/db");
    getDatabase().catch((err) => console.error(`database not ready at start-up: ${(err as Error).message}`));
  }
}
