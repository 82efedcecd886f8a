// Start-up of the Node.js server (instrumentation.ts loads this file only in the Node.js runtime, so the Edge bundle of
// the instrumentation hook never contains process.exit or the server's modules).
import { ConfigError, config } from "./lib/config";

export async function registerNode() {
  // The configuration first: a malformed value stops the server here, every problem listed, before any request.
  let settings: ReturnType<typeof config>;
  try {
    settings = config();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
  // Traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set: registered here, before any request, as Next.js expects. The SDK is
  // imported only then: loading it costs every serverless function's first request a few hundred milliseconds.
  if (settings.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { registerTracing } = await import("./lib/server/tracing");
    await registerTracing(settings);
  }
  const { installPeerAddressHeader } = await import("./lib/api/socket-address");
  installPeerAddressHeader();
  // Open (and for PGlite, migrate) the database now rather than on the first request.
  if (!settings.LUGHA_LAZY_DB) {
    // Only the database: the services are built by the routes (lib/server/index.ts says why).
    const { processDatabase } = await import("./lib/server/database");
    const { errorFields, processLog } = await import("./lib/kit/log");
    processDatabase(settings)().catch((err: unknown) =>
      processLog().error({ event: "database_not_ready", ...errorFields(err) }, "database not ready at start-up"),
    );
  }
}
